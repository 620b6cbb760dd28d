package dev.policyset.aps.core.review;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.evaluate.KindResources;
import dev.policyset.aps.core.intercept.KubeResources;
import dev.policyset.aps.core.intercept.Operation;

import java.util.ArrayList;
import java.util.List;

/**
 * The admission attributes of one request, as the API server has them when it calls a webhook: what
 * {@code request/admissionreview.go: CreateV1AdmissionReview} reads from {@code admission.Attributes}.
 *
 * @param group       the kind's (and, without {@code --resource}, the resource's) API group; {@code ""} for core
 * @param version     the API version of the kind and resource
 * @param kind        the object's kind ({@code Deployment}; for CONNECT the options' kind, {@code PodExecOptions})
 * @param resource    the plural resource, and its group and version ({@code resourceGroup}, {@code resourceVersion})
 * @param subresource {@code ""} or {@code status}, {@code exec}, ...
 * @param name        the object's name; {@code ""} for a CREATE with generateName (named after admission)
 * @param namespace   the request's namespace; {@code ""} for cluster-scoped objects
 * @param object      what {@code request.object} carries (CREATE, UPDATE: the object; CONNECT: the options); null
 *                    for DELETE
 * @param oldObject   what {@code request.oldObject} carries (UPDATE, DELETE); null otherwise
 */
public record ReviewRequest(Operation operation, String group, String version, String kind, String resourceGroup,
                            String resourceVersion, String resource, String subresource, String name, String namespace,
                            String username, List<String> groups, ObjectNode object, ObjectNode oldObject,
                            boolean dryRun) {
    public ReviewRequest {
        groups = List.copyOf(groups);
    }

    /**
     * What the user gave. {@code subject} is the OBJECT argument: the new object for CREATE and UPDATE, the object
     * being deleted for DELETE, the connect options (e.g. {@code PodExecOptions}) for CONNECT.
     *
     * @param resourceOverride {@code [GROUP/]VERSION/RESOURCE}, or null to derive it from the object's kind
     * @param name             null: the object's {@code metadata.name}
     * @param namespace        null: the object's {@code metadata.namespace}
     */
    public record Inputs(Operation operation, ObjectNode subject, ObjectNode old, String resourceOverride,
                         String subresource, String name, String namespace, String username, List<String> groups,
                         boolean dryRun) {}

    /** The request, or (request null) every reason the inputs do not describe one, each saying what to change. */
    public record Built(ReviewRequest request, List<String> problems) {}

    /**
     * The request the API server would admit for these inputs. Its rules: the object's namespace is set from the
     * request's (handlers' {@code EnsureObjectNamespaceMatchesRequestNamespace}; a conflicting one is refused); a
     * Namespace object's request namespace is its own name except on CREATE ({@code endpoints/request/requestinfo.go}
     * reads it from the URL {@code /api/v1/namespaces/NAME}); DELETE carries the object as {@code oldObject}
     * ({@code handlers/delete.go}); CONNECT carries the connect options as {@code object} ({@code handlers/rest.go}
     * {@code ConnectResource}).
     */
    public static Built build(Inputs in) {
        List<String> problems = new ArrayList<>();
        ObjectNode subject = in.subject();
        String apiVersion = subject.path("apiVersion").asText("");
        String kind = subject.path("kind").asText("");
        if (apiVersion.isEmpty() || kind.isEmpty()) {
            problems.add("OBJECT has no " + (apiVersion.isEmpty() ? "apiVersion" : "kind")
                    + ": the AdmissionReview names the object's kind; give a complete manifest");
        }
        Operation op = in.operation();
        if (in.old() != null && op != Operation.UPDATE) {
            problems.add("--old is for UPDATE only (" + op + " carries " + (op == Operation.DELETE
                    ? "the object being deleted as oldObject: give it as OBJECT)" : "no old object)"));
        }
        if (op == Operation.UPDATE && in.old() == null) {
            problems.add("UPDATE sends the existing object too: give it with --old FILE");
        }
        if (op == Operation.UPDATE && in.old() != null && (!in.old().path("apiVersion").asText("").equals(apiVersion)
                || !in.old().path("kind").asText("").equals(kind))) {
            problems.add("--old is " + in.old().path("apiVersion").asText("?") + " " + in.old().path("kind").asText("?")
                    + " but OBJECT is " + apiVersion + " " + kind + ": the API server sends both in the same version");
        }
        if (op == Operation.CONNECT && in.resourceOverride() == null) {
            problems.add("CONNECT: give the resource with --resource (e.g. v1/pods) and --subresource (e.g. exec); "
                    + "OBJECT is the connect options (e.g. kind: PodExecOptions)");
        }
        String group = KindResources.groupOf(apiVersion);
        String version = KindResources.versionOf(apiVersion);
        String resourceGroup = group;
        String resourceVersion = version;
        String resource = KindResources.resourceOf(kind.isEmpty() ? "Unknown" : kind);
        if (in.resourceOverride() != null) {
            String[] parts = in.resourceOverride().split("/", -1);
            if (parts.length < 2 || parts.length > 3 || java.util.Arrays.stream(parts).anyMatch(String::isBlank)
                    || !parts[parts.length - 1].equals(parts[parts.length - 1].toLowerCase(java.util.Locale.ROOT))) {
                problems.add("--resource " + in.resourceOverride()
                        + ": expected [GROUP/]VERSION/RESOURCE with the lower-case plural, e.g. v1/pods or apps/v1/deployments");
            } else {
                resourceGroup = parts.length == 3 ? parts[0] : "";
                resourceVersion = parts[parts.length - 2];
                resource = parts[parts.length - 1];
            }
        }
        String subresource = in.subresource() == null ? "" : in.subresource();

        ObjectNode metaSource = subject;
        String name = in.name() != null ? in.name() : metaSource.path("metadata").path("name").asText("");
        if (name.isEmpty() && op != Operation.CREATE) {
            problems.add(op + " names an existing object: give metadata.name in OBJECT or --name");
        }
        String objectNamespace = metaSource.path("metadata").path("namespace").asText("");
        boolean namespaceObject = resourceGroup.isEmpty() && resource.equals("namespaces");
        boolean clusterScoped = namespaceObject || KindResources.isClusterScopedKind(kind) && in.resourceOverride() == null;
        String namespace;
        if (namespaceObject) {
            namespace = op == Operation.CREATE ? "" : name;
            if (in.namespace() != null && !in.namespace().equals(namespace)) {
                problems.add("--namespace " + in.namespace() + ": a Namespace request's namespace is set by the API server ("
                        + (namespace.isEmpty() ? "empty on CREATE" : "its own name") + "); leave --namespace out");
            }
        } else if (clusterScoped) {
            namespace = "";
            if (in.namespace() != null && !in.namespace().isEmpty()) {
                problems.add("--namespace " + in.namespace() + ": " + kind + " is cluster-scoped; leave --namespace out");
            }
        } else {
            namespace = in.namespace() != null ? in.namespace() : objectNamespace;
            if (!objectNamespace.isEmpty() && !objectNamespace.equals(namespace)) {
                problems.add("OBJECT's metadata.namespace is " + objectNamespace + " but --namespace is " + namespace
                        + ": the API server refuses this (the namespace of the provided object does not match the "
                        + "namespace sent on the request)");
            }
            if (namespace.isEmpty() && !KubeResources.mayBeClusterScoped(resource)) {
                namespace = "default"; // what kubectl sends with the default context
            }
        }
        if (!problems.isEmpty()) {
            return new Built(null, problems);
        }
        ObjectNode object = switch (op) {
            case CREATE, UPDATE -> withNamespace(subject, namespace, clusterScoped);
            case CONNECT -> subject.deepCopy();
            case DELETE -> null;
        };
        ObjectNode oldObject = switch (op) {
            case UPDATE -> withNamespace(in.old(), namespace, clusterScoped);
            case DELETE -> withNamespace(subject, namespace, clusterScoped);
            default -> null;
        };
        return new Built(new ReviewRequest(op, group, version, kind, resourceGroup, resourceVersion, resource,
                subresource, name, namespace, in.username() == null ? "" : in.username(),
                in.groups() == null ? List.of() : in.groups(), object, oldObject, in.dryRun()), List.of());
    }

    /** {@code group/version/resource[/subresource]}, {@code core} for the core group, for messages. */
    public String describeResource() {
        return (resourceGroup.isEmpty() ? "core" : resourceGroup) + "/" + resourceVersion + "/" + resource
                + (subresource.isEmpty() ? "" : "/" + subresource);
    }

    private static ObjectNode withNamespace(ObjectNode o, String namespace, boolean clusterScoped) {
        ObjectNode copy = o.deepCopy();
        if (!clusterScoped && !namespace.isEmpty()) {
            ObjectNode meta = copy.has("metadata") && copy.get("metadata").isObject()
                    ? (ObjectNode) copy.get("metadata") : copy.putObject("metadata");
            meta.put("namespace", namespace);
        }
        return copy;
    }
}

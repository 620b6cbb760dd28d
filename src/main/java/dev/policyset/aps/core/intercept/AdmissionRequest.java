package dev.policyset.aps.core.intercept;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A request, or a family of requests, to ask an {@link Interceptor} about: the admission attributes its matching
 * reads. Concrete: one operation, the version, the name and the labels known exactly. Symbolic: several operations
 * (does it intercept <em>any</em> of them?), version or name unknown ({@code null}), labels known in part
 * ({@link LabelSet#atLeast}).
 *
 * <pre>{@code
 * // CREATE of an apps/v1 Deployment "web" in namespace team-a (labels env=prod), the object labelled app=web
 * AdmissionRequest r = AdmissionRequest.of("apps", "v1", "deployments", Operation.CREATE)
 *         .withName("web").inNamespace("team-a", Map.of("env", "prod")).withObjectLabels(Map.of("app", "web"));
 * Verdict v = Interceptor.ofBinding(policy, binding).match(r);
 * }</pre>
 *
 * @param group        API group, {@code ""} for the core group
 * @param version      API version; {@code null}: any version of the resource
 * @param resource     plural resource, e.g. {@code deployments}
 * @param subresource  {@code ""} for none, e.g. {@code status}
 * @param operations   the operation, or (symbolic) the operations of which any one will do
 * @param name         the object's name; {@code null}: not known (only policy rules with resourceNames read it)
 * @param namespace    the namespace; {@code ""} for a cluster-scoped object; for a Namespace object, its own name
 *                     (as the API server sets it)
 * @param namespaceLabels the labels of that namespace (unused for cluster-scoped objects)
 * @param object       the labels of the object in the request; {@code null} when there is none (DELETE, CONNECT)
 * @param oldObject    the labels of the existing object; {@code null} when there is none (CREATE, CONNECT)
 * @param kind         the object's kind, e.g. {@code Deployment}; {@code null} when not known
 */
public record AdmissionRequest(String group, String version, String resource, String subresource,
                               Set<Operation> operations, String name, String namespace, LabelSet namespaceLabels,
                               LabelSet object, LabelSet oldObject, String kind) {
    public AdmissionRequest {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(resource, "resource");
        subresource = subresource == null ? "" : subresource;
        operations = Set.copyOf(operations);
        namespace = namespace == null ? "" : namespace;
        namespaceLabels = namespaceLabels == null ? LabelSet.NONE : namespaceLabels;
    }

    /**
     * A request for one operation on a cluster-scoped object with no labels; the object and old object are present
     * as the operation implies (CREATE: object; UPDATE: both; DELETE: old object; CONNECT: neither).
     */
    public static AdmissionRequest of(String group, String version, String resource, Operation operation) {
        return new AdmissionRequest(group, version, resource, "", Set.of(operation), null, "", LabelSet.NONE,
                operation == Operation.CREATE || operation == Operation.UPDATE ? LabelSet.NONE : null,
                operation == Operation.UPDATE || operation == Operation.DELETE ? LabelSet.NONE : null, null);
    }

    /**
     * Symbolic: any of {@code operations} on {@code group/resource} in any version, name not known, objects without
     * labels. Narrow it with the {@code with…} and {@code in…} methods.
     */
    public static AdmissionRequest anyOf(String group, String resource, Set<Operation> operations) {
        boolean writes = operations.contains(Operation.CREATE) || operations.contains(Operation.UPDATE);
        boolean existing = operations.contains(Operation.UPDATE) || operations.contains(Operation.DELETE);
        return new AdmissionRequest(group, null, resource, "", operations, null, "", LabelSet.NONE,
                writes ? LabelSet.NONE : null, existing ? LabelSet.NONE : null, null);
    }

    public AdmissionRequest withSubresource(String sub) {
        return new AdmissionRequest(group, version, resource, sub, operations, name, namespace, namespaceLabels, object, oldObject, kind);
    }

    public AdmissionRequest withName(String n) {
        return new AdmissionRequest(group, version, resource, subresource, operations, n, namespace, namespaceLabels, object, oldObject, kind);
    }

    public AdmissionRequest withKind(String k) {
        return new AdmissionRequest(group, version, resource, subresource, operations, name, namespace, namespaceLabels, object, oldObject, k);
    }

    /**
     * In namespace {@code ns} whose labels are exactly {@code labels} plus {@code kubernetes.io/metadata.name: ns},
     * which the API server sets on every namespace.
     */
    public AdmissionRequest inNamespace(String ns, Map<String, String> labels) {
        return inNamespace(ns, LabelSet.exactly(withName(labels, ns)));
    }

    /** In namespace {@code ns} with labels described by {@code labels} (its name label is added when missing). */
    public AdmissionRequest inNamespace(String ns, LabelSet labels) {
        LabelSet named = new LabelSet(withName(labels.labels(), ns), labels.open());
        return new AdmissionRequest(group, version, resource, subresource, operations, name, ns, named, object, oldObject, kind);
    }

    public AdmissionRequest withObjectLabels(Map<String, String> labels) {
        return withObject(LabelSet.exactly(labels));
    }

    public AdmissionRequest withOldObjectLabels(Map<String, String> labels) {
        return withOldObject(LabelSet.exactly(labels));
    }

    /** The object's labels; {@code null}: the request carries no object. */
    public AdmissionRequest withObject(LabelSet labels) {
        return new AdmissionRequest(group, version, resource, subresource, operations, name, namespace, namespaceLabels, labels, oldObject, kind);
    }

    /** The old object's labels; {@code null}: the request carries no old object. */
    public AdmissionRequest withOldObject(LabelSet labels) {
        return new AdmissionRequest(group, version, resource, subresource, operations, name, namespace, namespaceLabels, object, labels, kind);
    }

    /** True for a request for a Namespace object itself (its namespaceSelector reads the object's labels). */
    public boolean isNamespaceObject() {
        return group.isEmpty() && resource.equals("namespaces");
    }

    /** {@code group/version/resource[/subresource]} for messages; {@code core} for the core group. */
    public String describe() {
        return (group.isEmpty() ? "core" : group) + "/" + (version == null ? "*" : version) + "/" + resource
                + (subresource.isEmpty() ? "" : "/" + subresource);
    }

    String describeOperations() {
        return String.join("|", java.util.Arrays.stream(Operation.values()).filter(operations::contains).map(Enum::name).toList());
    }

    private static Map<String, String> withName(Map<String, String> labels, String ns) {
        Map<String, String> out = new HashMap<>(labels);
        out.putIfAbsent(LabelSelector.NAME_LABEL, ns);
        return out;
    }
}

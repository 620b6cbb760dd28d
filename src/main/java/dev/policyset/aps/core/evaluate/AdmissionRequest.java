package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.yaml.Yaml;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One write request as the admission plugins see it ({@code admission.Attributes}).
 *
 * @param operation   CREATE, UPDATE, DELETE or CONNECT
 * @param group       the resource's API group ({@code ""} for core)
 * @param version     the resource's version
 * @param resource    the plural resource name ({@code deployments})
 * @param subResource empty for the main resource
 * @param kind        the object's kind
 * @param namespace   empty for cluster-scoped objects
 * @param name        the object's name (empty on a CREATE with generateName)
 * @param object      the new object; null for DELETE
 * @param oldObject   the old object; null for CREATE
 * @param options     {@code request.options} (CreateOptions, ...); null when not given
 */
public record AdmissionRequest(String operation, String group, String version, String resource, String subResource,
                               String kind, String namespace, String name, ObjectNode object, ObjectNode oldObject,
                               UserInfo userInfo, boolean dryRun, JsonNode options) {
    public AdmissionRequest {
        subResource = subResource == null ? "" : subResource;
        namespace = namespace == null ? "" : namespace;
        name = name == null ? "" : name;
        userInfo = userInfo == null ? UserInfo.ANONYMOUS : userInfo;
    }

    /** The same request with another object (after a mutation). */
    public AdmissionRequest withObject(ObjectNode mutated) {
        return new AdmissionRequest(operation, group, version, resource, subResource, kind, namespace, name, mutated,
                oldObject, userInfo, dryRun, options);
    }

    /** {@code group/version/resource[/subresource]}, for messages. */
    public String describeResource() {
        String gvr = (group.isEmpty() ? "" : group + "/") + version + "/" + resource;
        return subResource.isEmpty() ? gvr : gvr + "/" + subResource;
    }

    /** True for requests on Namespace objects themselves (they have no namespaceObject; see dispatcher.go). */
    boolean isNamespace() {
        return group.isEmpty() && version.equals("v1") && kind.equals("Namespace");
    }

    /**
     * {@code request} as CEL sees it: {@code k8s.io/apiserver/pkg/admission/plugin/cel/filter.go:
     * CreateAdmissionRequest}, with the matched resource and kind equal to the requested ones (no
     * matchPolicy Equivalent conversion happens offline).
     */
    Map<String, Object> toCel() {
        Map<String, Object> r = new LinkedHashMap<>();
        Map<String, Object> gvk = Map.of("group", group, "version", version, "kind", kind);
        Map<String, Object> gvr = Map.of("group", group, "version", version, "resource", resource);
        r.put("uid", "");
        r.put("kind", gvk);
        r.put("resource", gvr);
        r.put("subResource", subResource);
        r.put("requestKind", gvk);
        r.put("requestResource", gvr);
        r.put("requestSubResource", subResource);
        r.put("name", name);
        r.put("namespace", namespace);
        r.put("operation", operation);
        r.put("userInfo", userInfo.toMap());
        r.put("dryRun", dryRun);
        if (options != null && !options.isNull()) {
            r.put("options", Yaml.mapper().convertValue(options, Object.class));
        }
        return r;
    }

    /** {@code admission.NewForbidden}'s name: the request's, else the object's name or generateName, else "Unknown". */
    String nameForErrors() {
        if (!name.isEmpty()) {
            return name;
        }
        JsonNode meta = object == null ? null : object.path("metadata");
        if (meta != null && !meta.path("name").asText("").isEmpty()) {
            return meta.path("name").asText();
        }
        if (meta != null && !meta.path("generateName").asText("").isEmpty()) {
            return meta.path("generateName").asText();
        }
        return "Unknown";
    }

    /** {@code schema.GroupResource.String()}: {@code resource.group}, or the resource for the core group. */
    String groupResource() {
        return group.isEmpty() ? resource : resource + "." + group;
    }
}

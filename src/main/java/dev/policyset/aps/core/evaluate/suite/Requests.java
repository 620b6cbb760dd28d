package dev.policyset.aps.core.evaluate.suite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.evaluate.AdmissionRequest;
import dev.policyset.aps.core.evaluate.KindResources;
import dev.policyset.aps.core.evaluate.UserInfo;

/** Builds the request of a case from its objects and the fields it sets. */
final class Requests {
    private Requests() {}

    /** The operation a case implies: CREATE with an object only, UPDATE with both, DELETE with the old one only. */
    static String impliedOperation(ObjectNode object, ObjectNode oldObject) {
        if (object != null && oldObject != null) {
            return "UPDATE";
        }
        return object != null ? "CREATE" : "DELETE";
    }

    /**
     * @param resource {@code group/version/resource}, {@code version/resource} (core group), or null to derive it
     *                 from the object's apiVersion and kind
     */
    static AdmissionRequest build(String operation, ObjectNode object, ObjectNode oldObject, String resource,
                                  String subResource, String namespace, String name, UserInfo user, boolean dryRun,
                                  JsonNode options) {
        JsonNode any = object != null ? object : oldObject;
        String apiVersion = any == null ? "" : any.path("apiVersion").asText("");
        String kind = any == null ? "" : any.path("kind").asText("");
        String group = KindResources.groupOf(apiVersion);
        String version = KindResources.versionOf(apiVersion);
        String plural = KindResources.resourceOf(kind);
        if (resource != null && !resource.isEmpty()) {
            String[] parts = resource.split("/");
            if (parts.length == 3) {
                group = parts[0];
                version = parts[1];
                plural = parts[2];
            } else if (parts.length == 2) {
                group = "";
                version = parts[0];
                plural = parts[1];
            } else {
                plural = parts[0];
            }
        }
        if (namespace == null) {
            namespace = any == null ? "" : any.path("metadata").path("namespace").asText("");
        }
        if (name == null) {
            name = any == null ? "" : any.path("metadata").path("name").asText("");
        }
        if (kind.equals("Namespace") && group.isEmpty()) {
            namespace = name; // the API server gives a Namespace request its own name as namespace
        }
        return new AdmissionRequest(operation, group, version, plural, subResource, kind, namespace, name,
                object, oldObject, user, dryRun, options);
    }
}

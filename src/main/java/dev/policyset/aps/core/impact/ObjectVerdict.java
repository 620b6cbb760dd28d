package dev.policyset.aps.core.impact;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What one binding decided for one existing object, with the object's reference (what a policy report names).
 *
 * @param namespace {@code ""} for a cluster-scoped object
 * @param uid       {@code ""} when the input had none (manifests from Git)
 * @param operation the request asked: UPDATE (written as it is) or CREATE (re-created)
 * @param outcome   {@code pass}, {@code violation} (a validation is false), {@code denied} (denies whatever the actions)
 *                  or {@code error} (evaluation failed)
 * @param message   the validation's message or the error; {@code ""} for a pass
 */
public record ObjectVerdict(String apiVersion, String kind, String namespace, String name, String uid, String operation,
                            String outcome, String message) {
    public static final String PASS = "pass";
    public static final String VIOLATION = "violation";
    public static final String DENIED = "denied";
    public static final String ERROR = "error";

    static ObjectVerdict of(JsonNode object, String operation, String outcome, String message) {
        JsonNode meta = object.path("metadata");
        return new ObjectVerdict(object.path("apiVersion").asText(""), object.path("kind").asText(""),
                meta.path("namespace").asText(""), meta.path("name").asText(""), meta.path("uid").asText(""),
                operation, outcome, message);
    }
}

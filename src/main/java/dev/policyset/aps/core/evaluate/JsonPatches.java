package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.flipkart.zjsonpatch.CompatibilityFlags;
import com.flipkart.zjsonpatch.JsonPatch;
import com.flipkart.zjsonpatch.JsonPatchApplicationException;
import com.flipkart.zjsonpatch.Operation;
import dev.policyset.aps.core.yaml.Yaml;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;

/**
 * RFC 6902 JSON Patch, applied as the API server applies it (zjsonpatch, strict: no compatibility flags), for its
 * two users:
 * <ul>
 *   <li>a MutatingAdmissionPolicy's {@code JSONPatch} mutation ({@link #apply(ObjectNode, Object)}), as
 *       {@code mutating/patch/json_patch.go: jsonPatcher.Patch} does: the list of {@code JSONPatch{op, path, from,
 *       value}} values becomes the patch; a failed {@code test} operation leaves the object unchanged without error;
 *       any other failure is {@code JSONPath: <error>} (upstream's wording);</li>
 *   <li>a mutating webhook's {@code response.patch} ({@link #applyWebhookPatch}), as
 *       {@code webhook/mutating/dispatcher.go: callAttrMutatingHook} does with evanphx/json-patch v4
 *       {@code DecodePatch(...).Apply(...)}: every failure, a failed {@code test} included, is an error.</li>
 * </ul>
 */
public final class JsonPatches {
    /** The patched object, or (object null) why the patch does not apply. */
    public record Patched(ObjectNode object, String error) {}

    private JsonPatches() {}

    /**
     * A webhook's decoded patch applied to {@code object}; the error (no {@code JSONPath:} prefix) names the operation
     * that failed. {@code patch} must be an array (the caller reports anything else as undecodable, as upstream's
     * {@code DecodePatch} does).
     */
    public static Patched applyWebhookPatch(ObjectNode object, ArrayNode patch) {
        Patched p = applyOperations(object, patch, false);
        return p.error() == null ? p : new Patched(null, p.error().substring("JSONPath: ".length()));
    }

    static Patched apply(ObjectNode object, Object celPatches) {
        ArrayNode patch = JsonNodeFactory.instance.arrayNode();
        if (celPatches instanceof List<?> list) {
            for (Object p : list) {
                if (p instanceof Map<?, ?> m) {
                    ObjectNode op = patch.addObject();
                    op.put("op", String.valueOf(m.containsKey("op") ? m.get("op") : ""));
                    op.put("path", String.valueOf(m.containsKey("path") ? m.get("path") : ""));
                    if (m.get("from") instanceof String from && !from.isEmpty()) {
                        op.put("from", from);
                    }
                    if (m.containsKey("value")) {
                        op.set("value", Yaml.mapper().valueToTree(Mutations.plain(m.get("value"))));
                    }
                }
            }
        }
        return applyOperations(object, patch, true);
    }

    private static Patched applyOperations(ObjectNode object, ArrayNode patch, boolean failedTestLeavesObject) {
        int index = -1;
        try {
            JsonNode result = object;
            for (JsonNode op : patch) {
                index++;
                String missing = missingTarget(result, op);
                if (missing != null) {
                    return new Patched(null, "JSONPath: " + (failedTestLeavesObject ? "" : "operation " + index + ": ") + missing);
                }
                ArrayNode one = JsonNodeFactory.instance.arrayNode().add(op);
                result = JsonPatch.apply(one, result, EnumSet.noneOf(CompatibilityFlags.class));
            }
            if (!result.isObject()) {
                return new Patched(null, "JSONPath: the patch replaced the object with a non-object");
            }
            return new Patched((ObjectNode) result, null);
        } catch (JsonPatchApplicationException e) {
            if (failedTestLeavesObject && isTestFailure(patch, e)) {
                return new Patched(object, null);
            }
            return new Patched(null, "JSONPath: " + (failedTestLeavesObject ? "" : "operation " + index + " ("
                    + patch.get(index).path("op").asText("") + " " + patch.get(index).path("path").asText("") + "): ")
                    + e.getMessage());
        } catch (RuntimeException e) {
            // A webhook's patch is anyone's bytes: whatever zjsonpatch throws for a malformed operation is reported
            // as an error of the patch (upstream: an internal error of the request), never as a crash. A policy's
            // patch was type-checked; its exceptions keep propagating as before.
            if (failedTestLeavesObject) {
                throw e;
            }
            return new Patched(null, "JSONPath: " + (failedTestLeavesObject ? "" : "operation " + index + ": ")
                    + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    /**
     * RFC 6902 §4.2/4.3: the target of {@code remove} and {@code replace} must exist (evanphx/json-patch: "Unable to
     * remove nonexistent key"); zjsonpatch silently ignores a missing object member, so it is checked first.
     */
    private static String missingTarget(JsonNode document, JsonNode op) {
        String kind = op.path("op").asText("");
        if (!kind.equals("remove") && !kind.equals("replace")) {
            return null;
        }
        String path = op.path("path").asText("");
        try {
            return document.at(com.fasterxml.jackson.core.JsonPointer.compile(path)).isMissingNode()
                    ? "unable to " + kind + " nonexistent key: " + path : null;
        } catch (IllegalArgumentException e) {
            return "invalid path " + path + ": " + e.getMessage();
        }
    }

    /**
     * {@code errors.Is(err, jsonpatch.ErrTestFailed)}: the failing operation was a {@code test} (evanphx/json-patch
     * also reports a test of a missing key in an existing object as a failed test, not as an error).
     */
    private static boolean isTestFailure(ArrayNode patch, JsonPatchApplicationException e) {
        return e.getOperation() == Operation.TEST;
    }
}

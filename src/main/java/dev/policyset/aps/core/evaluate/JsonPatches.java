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
 * A {@code JSONPatch} mutation applied as {@code mutating/patch/json_patch.go: jsonPatcher.Patch} does: the list
 * of {@code JSONPatch{op, path, from, value}} values becomes an RFC 6902 patch (zjsonpatch, strict: no
 * compatibility flags); a failed {@code test} operation leaves the object unchanged without error; any other
 * failure is {@code JSONPath: <error>} (upstream's wording).
 */
final class JsonPatches {
    record Patched(ObjectNode object, String error) {}

    private JsonPatches() {}

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
        try {
            JsonNode result = object;
            for (JsonNode op : patch) {
                String missing = missingTarget(result, op);
                if (missing != null) {
                    return new Patched(null, "JSONPath: " + missing);
                }
                ArrayNode one = JsonNodeFactory.instance.arrayNode().add(op);
                result = JsonPatch.apply(one, result, EnumSet.noneOf(CompatibilityFlags.class));
            }
            if (!result.isObject()) {
                return new Patched(null, "JSONPath: the patch replaced the object with a non-object");
            }
            return new Patched((ObjectNode) result, null);
        } catch (JsonPatchApplicationException e) {
            if (isTestFailure(patch, e)) {
                return new Patched(object, null);
            }
            return new Patched(null, "JSONPath: " + e.getMessage());
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

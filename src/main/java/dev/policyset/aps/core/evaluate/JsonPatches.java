package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.yaml.Yaml;

import java.util.List;
import java.util.Map;

/**
 * JSON Patch as the API server applies it ({@link JsonPatchV4}: gopkg.in/evanphx/json-patch.v4), for its two
 * users:
 * <ul>
 *   <li>a MutatingAdmissionPolicy's {@code JSONPatch} mutation ({@link #apply(ObjectNode, Object)}), as
 *       {@code mutating/patch/json_patch.go: jsonPatcher.Patch} does: the list of {@code JSONPatch{op, path, from,
 *       value}} values becomes the patch; a failed {@code test} operation leaves the object unchanged without error;
 *       any other failure is {@code JSON Patch: <error>} (upstream's wording since 1.33; {@code JSONPath:}
 *       before);</li>
 *   <li>a mutating webhook's {@code response.patch} ({@link #applyWebhookPatch}), as
 *       {@code webhook/mutating/dispatcher.go: callAttrMutatingHook} does with {@code DecodePatch(...).Apply(...)}:
 *       every failure, a failed {@code test} included, is an error (the server's 500 carries the library's
 *       text).</li>
 * </ul>
 */
public final class JsonPatches {
    /** The patched object, or (object null) why the patch does not apply. */
    public record Patched(ObjectNode object, String error) {}

    static final String POLICY_PREFIX = "JSON Patch: ";

    private JsonPatches() {}

    /**
     * A webhook's decoded patch applied to {@code object}; the error is the library's text. {@code patch} must be an
     * array (the caller reports anything else as undecodable, as upstream's {@code DecodePatch} does).
     */
    public static Patched applyWebhookPatch(ObjectNode object, ArrayNode patch) {
        JsonPatchV4.Result r = JsonPatchV4.apply(object, patch);
        if (r.error() != null) {
            return new Patched(null, r.error());
        }
        return objectOrError(r.document(), "");
    }

    static Patched apply(ObjectNode object, Object celPatches) {
        JsonPatchV4.Result r = JsonPatchV4.apply(object, toPatch(celPatches));
        if (r.testFailed()) {
            // json_patch.go: "If a json patch fails a test operation, the patch must not be applied"
            return new Patched(object, null);
        }
        if (r.error() != null) {
            return new Patched(null, POLICY_PREFIX + r.error());
        }
        return objectOrError(r.document(), POLICY_PREFIX);
    }

    /**
     * A {@code replace} of the whole document may leave an array; the API server's decoder refuses it into an
     * object (an internal error of the request).
     */
    private static Patched objectOrError(JsonNode document, String prefix) {
        if (!document.isObject()) {
            return new Patched(null, prefix + "the patched document is a JSON " + (document.isArray() ? "array" : "value")
                    + ", not an object: the API server cannot decode it into the object");
        }
        return new Patched((ObjectNode) document, null);
    }

    /**
     * {@code evaluatePatchExpression}: each JSONPatch value becomes an operation with {@code op} and {@code path}
     * always, {@code from} when not empty, {@code value} when set; a value is marshalled through {@code
     * structpb.Value}, where every number is a float64 that prints without a fraction when it has none.
     */
    static ArrayNode toPatch(Object celPatches) {
        ArrayNode patch = JsonNodeFactory.instance.arrayNode();
        if (celPatches instanceof List<?> list) {
            for (Object p : list) {
                if (p instanceof Map<?, ?> m) {
                    ObjectNode op = patch.addObject();
                    op.put("op", m.get("op") instanceof String s ? s : "");
                    op.put("path", m.get("path") instanceof String s ? s : "");
                    if (m.get("from") instanceof String from && !from.isEmpty()) {
                        op.put("from", from);
                    }
                    if (m.containsKey("value")) {
                        op.set("value", protoJson(Yaml.mapper().valueToTree(Mutations.plain(m.get("value")))));
                    }
                }
            }
        }
        return patch;
    }

    /** structpb numbers are doubles: 3 and 3.0 both print as {@code 3}, 0.5 as {@code 0.5}. */
    private static JsonNode protoJson(JsonNode v) {
        if (v.isFloatingPointNumber() && v.doubleValue() == Math.rint(v.doubleValue())
                && Math.abs(v.doubleValue()) < 1e15 || v.isIntegralNumber() && v.canConvertToLong()) {
            // as a parsed document holds it, so that equal values compare equal
            long n = v.longValue();
            return n == (int) n ? JsonNodeFactory.instance.numberNode((int) n) : JsonNodeFactory.instance.numberNode(n);
        }
        if (v.isObject()) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            v.fields().forEachRemaining(e -> out.set(e.getKey(), protoJson(e.getValue())));
            return out;
        }
        if (v.isArray()) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            v.forEach(x -> out.add(protoJson(x)));
            return out;
        }
        return v;
    }
}

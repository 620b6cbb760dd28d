package dev.policyset.aps.core.validate.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.util.NearestName;

import java.util.Base64;
import java.util.Iterator;
import java.util.Map;

/**
 * What the API server's decoder says before any validation runs (reference §1 step 1).
 *
 * <p>A value of the wrong JSON type (a string for {@code timeoutSeconds}, a map for a list) fails decoding:
 * the API server answers 400 and validates nothing. Such errors are reported as {@code api/Invalid} on the
 * field, and {@link #check} returns how many there were so the caller stops there, as the API server does.
 *
 * <p>An unknown field is rejected by strict field validation ({@code kubectl}'s default) and silently dropped
 * otherwise; both lose what the author meant, so it is reported as {@code api/Invalid} on the unknown field's
 * path ({@code api/Invalid} because DESIGN §4 lists the API server's error types and strict decoding errors
 * are not one of them; "Invalid" is the closest), and validation goes on as if the field were dropped.
 */
final class Decoding {
    /** Bounds the walk on hostile input; the YAML reader already stops far below this. */
    private static final int MAX_DEPTH = 64;

    private final Errors errors;
    private int typeErrors;

    private Decoding(Errors errors) {
        this.errors = errors;
    }

    /** Checks {@code document} against {@code schema}; returns the number of type errors found. */
    static int check(JsonNode document, Schema schema, Errors errors) {
        Decoding decoding = new Decoding(errors);
        decoding.walk(document, schema, null, 0);
        return decoding.typeErrors;
    }

    private void walk(JsonNode node, Schema schema, FieldPath path, int depth) {
        if (node == null || node.isNull() || schema == Schema.Scalar.ANY) {
            return;
        }
        if (depth > MAX_DEPTH) {
            typeError(path, node, "a document nested this deeply cannot be an admission object");
            return;
        }
        if (schema instanceof Schema.Scalar scalar) {
            checkScalar(node, scalar, path);
        } else if (schema instanceof Schema.ListOf list) {
            if (!node.isArray()) {
                typeError(path, node, "must be a list");
                return;
            }
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), list.element(), path.index(i), depth + 1);
            }
        } else if (schema instanceof Schema.MapOf map) {
            if (!node.isObject()) {
                typeError(path, node, "must be a map");
                return;
            }
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> e = fields.next();
                walk(e.getValue(), map.value(), path.key(e.getKey()), depth + 1);
            }
        } else if (schema instanceof Schema.Struct struct) {
            walkStruct(node, struct, path, depth);
        }
    }

    private void walkStruct(JsonNode node, Schema.Struct struct, FieldPath path, int depth) {
        if (!node.isObject()) {
            typeError(path, node, "must be an object (" + struct.goType() + ")");
            return;
        }
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> e = fields.next();
            FieldPath child = path == null ? FieldPath.root(e.getKey()) : path.child(e.getKey());
            Schema fieldSchema = struct.fields().get(e.getKey());
            if (fieldSchema == null) {
                String hint = NearestName.among(e.getKey(), struct.fields().keySet())
                        .map(name -> "did you mean \"" + name + "\"? ").orElse("");
                errors.invalid(child, e.getKey(), "unknown field \"" + child + "\": " + hint + struct.goType()
                        + " has no such field (names are case-sensitive); strict field validation rejects it "
                        + "and otherwise the API server drops it silently; remove it or correct its spelling");
            } else {
                walk(e.getValue(), fieldSchema, child, depth + 1);
            }
        }
    }

    private void checkScalar(JsonNode node, Schema.Scalar scalar, FieldPath path) {
        boolean ok = switch (scalar) {
            case STRING -> node.isTextual();
            case BOOL -> node.isBoolean();
            case INT32 -> isIntegral(node) && node.canConvertToInt();
            case INT64 -> isIntegral(node) && node.canConvertToLong();
            case BYTES -> node.isBinary() || node.isTextual() && isBase64(node.asText());
            case ANY -> true;
        };
        if (!ok) {
            typeError(path, node, "must be " + scalar.description());
        }
    }

    /** Go accepts {@code 10} for an integer field, not {@code 10.5} or {@code "10"}; {@code 10.0} is taken as 10. */
    private static boolean isIntegral(JsonNode node) {
        if (node.isIntegralNumber()) {
            return true;
        }
        return node.isFloatingPointNumber() && node.asDouble() == Math.rint(node.asDouble())
                && !Double.isInfinite(node.asDouble());
    }

    /** {@code []byte} fields are standard, padded base64; Go skips line breaks inside. */
    private static boolean isBase64(String text) {
        String compact = text.replace("\r", "").replace("\n", "");
        if (compact.length() % 4 != 0) {
            return false;
        }
        try {
            Base64.getDecoder().decode(compact);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private void typeError(FieldPath path, JsonNode node, String expectation) {
        typeErrors++;
        FieldPath where = path == null ? FieldPath.root("<document>") : path;
        errors.invalid(where, describe(node), expectation + ", not " + jsonType(node)
                + "; the API server cannot decode the object (400 Bad Request) and checks nothing else until this is fixed");
    }

    private static Object describe(JsonNode node) {
        if (node.isContainerNode()) {
            return jsonType(node);
        }
        return node.isTextual() ? node.asText() : node.toString();
    }

    private static String jsonType(JsonNode node) {
        if (node.isTextual()) {
            return "a string";
        }
        if (node.isBoolean()) {
            return "a boolean";
        }
        if (node.isIntegralNumber()) {
            return node.canConvertToLong() ? "an integer" : "an integer out of range";
        }
        if (node.isNumber()) {
            return "a number with a fraction";
        }
        if (node.isArray()) {
            return "a list";
        }
        if (node.isObject()) {
            return "an object";
        }
        return node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }
}

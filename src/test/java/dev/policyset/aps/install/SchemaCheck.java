package dev.policyset.aps.install;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A small structural OpenAPI v3 check (the subset CRD schemas use): type, properties and unknown fields,
 * required, enum, items, min/max, lengths, item counts, pattern. Enough to prove that an example is what the
 * API server would store unchanged; CEL rules (x-kubernetes-validations) are not evaluated here.
 */
final class SchemaCheck {
    private SchemaCheck() {}

    static List<String> check(JsonNode value, JsonNode schema) {
        List<String> errors = new ArrayList<>();
        check(value, schema, "", errors);
        return errors;
    }

    private static void check(JsonNode value, JsonNode schema, String path, List<String> errors) {
        if (schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false) && !schema.has("properties")) {
            return;
        }
        if (schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
            if (!value.isInt() && !value.isLong() && !value.isTextual()) {
                errors.add(path + ": must be an integer or a string");
            }
            return;
        }
        String type = schema.path("type").asText("");
        switch (type) {
            case "object" -> {
                if (!value.isObject()) {
                    errors.add(path + ": must be an object");
                    return;
                }
                for (JsonNode r : schema.path("required")) {
                    if (!value.has(r.asText())) {
                        errors.add(path + "." + r.asText() + ": Required value");
                    }
                }
                JsonNode props = schema.path("properties");
                JsonNode additional = schema.path("additionalProperties");
                for (Map.Entry<String, JsonNode> field : value.properties()) {
                    String fieldPath = path + "." + field.getKey();
                    if (props.has(field.getKey())) {
                        check(field.getValue(), props.get(field.getKey()), fieldPath, errors);
                    } else if (additional.isObject()) {
                        check(field.getValue(), additional, fieldPath, errors);
                    } else if (!schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
                        errors.add(fieldPath + ": unknown field (the API server would drop it)");
                    }
                }
            }
            case "array" -> {
                if (!value.isArray()) {
                    errors.add(path + ": must be an array");
                    return;
                }
                if (schema.has("maxItems") && value.size() > schema.get("maxItems").asInt()) {
                    errors.add(path + ": more than " + schema.get("maxItems").asInt() + " items");
                }
                if (schema.has("minItems") && value.size() < schema.get("minItems").asInt()) {
                    errors.add(path + ": fewer than " + schema.get("minItems").asInt() + " items");
                }
                for (int i = 0; i < value.size(); i++) {
                    check(value.get(i), schema.path("items"), path + "[" + i + "]", errors);
                }
            }
            case "string" -> {
                if (!value.isTextual()) {
                    errors.add(path + ": must be a string");
                    return;
                }
                String s = value.asText();
                if (schema.has("maxLength") && s.length() > schema.get("maxLength").asInt()) {
                    errors.add(path + ": longer than " + schema.get("maxLength").asInt());
                }
                if (schema.has("minLength") && s.length() < schema.get("minLength").asInt()) {
                    errors.add(path + ": shorter than " + schema.get("minLength").asInt());
                }
                if (schema.has("pattern") && !Pattern.compile(schema.get("pattern").asText()).matcher(s).find()) {
                    errors.add(path + ": does not match " + schema.get("pattern").asText());
                }
            }
            case "integer" -> {
                if (!value.isIntegralNumber()) {
                    errors.add(path + ": must be an integer");
                    return;
                }
                if (schema.has("minimum") && value.asDouble() < schema.get("minimum").asDouble()) {
                    errors.add(path + ": below " + schema.get("minimum").asText());
                }
                if (schema.has("maximum") && value.asDouble() > schema.get("maximum").asDouble()) {
                    errors.add(path + ": above " + schema.get("maximum").asText());
                }
            }
            case "number" -> {
                if (!value.isNumber()) {
                    errors.add(path + ": must be a number");
                }
            }
            case "boolean" -> {
                if (!value.isBoolean()) {
                    errors.add(path + ": must be a boolean");
                }
            }
            default -> { }
        }
        if (schema.has("enum")) {
            boolean found = false;
            for (JsonNode e : schema.get("enum")) {
                found |= e.equals(value);
            }
            if (!found) {
                errors.add(path + ": Unsupported value " + value + ", supported: " + schema.get("enum"));
            }
        }
    }
}

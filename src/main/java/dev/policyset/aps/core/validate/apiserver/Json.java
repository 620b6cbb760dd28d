package dev.policyset.aps.core.validate.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a decoded object the way Go sees the typed struct. Runs only after {@link Decoding} found no type
 * errors, so a value is either of the right JSON type or absent. JSON {@code null} is the same as absent
 * (a nil pointer, an empty string, an empty list); a {@code null} list element is the zero value.
 */
final class Json {
    private Json() {}

    /** The value of a pointer field: null when absent or JSON null. */
    static JsonNode field(JsonNode parent, String name) {
        if (parent == null) {
            return null;
        }
        JsonNode value = parent.get(name);
        return value == null || value.isNull() ? null : value;
    }

    static boolean has(JsonNode parent, String name) {
        return field(parent, name) != null;
    }

    /** A {@code *string}: null when not set. */
    static String string(JsonNode parent, String name) {
        JsonNode value = field(parent, name);
        return value == null ? null : value.asText();
    }

    /** A {@code string}: empty when not set. */
    static String text(JsonNode parent, String name) {
        String value = string(parent, name);
        return value == null ? "" : value;
    }

    static ObjectNode object(JsonNode parent, String name) {
        return field(parent, name) instanceof ObjectNode o ? o : null;
    }

    static Long integer(JsonNode parent, String name) {
        JsonNode value = field(parent, name);
        return value == null ? null : value.asLong();
    }

    /** A list of structs; a null element is an empty struct. */
    static List<ObjectNode> objects(JsonNode parent, String name) {
        List<ObjectNode> out = new ArrayList<>();
        JsonNode value = field(parent, name);
        if (value != null && value.isArray()) {
            for (JsonNode element : value) {
                out.add(element instanceof ObjectNode o ? o : JsonNodeFactory.instance.objectNode());
            }
        }
        return out;
    }

    /** A list of strings; a null element is the empty string. */
    static List<String> strings(JsonNode parent, String name) {
        List<String> out = new ArrayList<>();
        JsonNode value = field(parent, name);
        if (value != null && value.isArray()) {
            for (JsonNode element : value) {
                out.add(element == null || element.isNull() ? "" : element.asText());
            }
        }
        return out;
    }

    /** A {@code map[string]string}; a null value is the empty string. Iteration keeps the document's order. */
    static Map<String, String> stringMap(JsonNode parent, String name) {
        Map<String, String> out = new LinkedHashMap<>();
        JsonNode value = field(parent, name);
        if (value != null && value.isObject()) {
            value.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().isNull() ? "" : e.getValue().asText()));
        }
        return out;
    }
}

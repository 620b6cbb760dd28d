package dev.policyset.aps.core.schema;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.util.NearestName;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The fields of a document that its structural schema does not declare: what the API server's strict field
 * validation refuses ({@code strict decoding error: unknown field "spec.defaults.failurPolicy"}) and what it
 * prunes without a word otherwise. Only objects with declared properties are checked; a map
 * ({@code additionalProperties}), a value the schema says nothing about ({@link Schema#ANY}) and the unknown
 * fields of an object that preserves them are accepted, as the API server accepts them. An object without
 * declared properties counts as one the schema says nothing about: the model classes give that for free-form
 * JSON such as {@code managedFields[].fieldsV1}, which a set exported from a cluster carries. Values of the wrong
 * JSON type are not this class's business (the reader that owns the document reports them) and are skipped.
 *
 * <p>The walk follows the schema, never the document alone, so its depth is the schema's (recursive types are
 * {@link Schema#ANY} below their first level), whatever the input nests.
 */
public final class UnknownFields {
    /**
     * One unknown field.
     *
     * @param path       Kubernetes-style path of the field, e.g. {@code spec.defaults.failurPolicy}
     * @param name       the field's name as written
     * @param suggestion the declared field it most likely meant, if one is close
     * @param known      the fields declared where it stands, in declaration order
     */
    public record UnknownField(String path, String name, Optional<String> suggestion, List<String> known) {
        public UnknownField {
            known = List.copyOf(known);
        }
    }

    private final List<UnknownField> found = new ArrayList<>();

    private UnknownFields() {}

    /** The unknown fields of {@code document} under {@code schema}, in document order. */
    public static List<UnknownField> in(JsonNode document, Schema schema) {
        UnknownFields walk = new UnknownFields();
        walk.walk(document, schema, "");
        return List.copyOf(walk.found);
    }

    private void walk(JsonNode node, Schema schema, String path) {
        if (node == null || schema == null) {
            return;
        }
        if (node.isArray() && schema.isArray() && schema.items() != null) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), schema.items(), path + "[" + i + "]");
            }
        } else if (node.isObject() && schema.isMap()) {
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> e = fields.next();
                walk(e.getValue(), schema.additionalProperties(), path + "." + e.getKey());
            }
        } else if (node.isObject() && schema.isObject() && !schema.properties().isEmpty()) {
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> e = fields.next();
                String child = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
                Schema declared = schema.property(e.getKey());
                if (declared != null) {
                    walk(e.getValue(), declared, child);
                } else if (!schema.preserveUnknownFields()) {
                    List<String> known = List.copyOf(schema.properties().keySet());
                    found.add(new UnknownField(child, e.getKey(), NearestName.among(e.getKey(), known), known));
                }
            }
        }
    }
}

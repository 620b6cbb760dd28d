package dev.policyset.aps.core.schema;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Reads OpenAPI v3 schema JSON (a CRD's {@code openAPIV3Schema}, a component of an {@code /openapi/v3} document)
 * into {@link Schema}s. References ({@code $ref: #/components/schemas/X}, also wrapped in a one-element
 * {@code allOf} as the API server publishes them) are resolved through the given lookup; a reference to a
 * schema that is being read already (JSONSchemaProps refers to itself) and anything unresolvable become
 * {@link Schema#ANY}. {@code oneOf}/{@code anyOf} without a type (e.g. Quantity's string-or-number) also read as
 * {@link Schema#ANY}, unless they say int-or-string.
 */
public final class OpenApiSchemaReader {
    private static final String COMPONENTS = "#/components/schemas/";
    private static final String DEFINITIONS = "#/definitions/";

    private final Function<String, JsonNode> components;
    private final Map<String, Schema> resolved = new HashMap<>();
    private final Deque<String> reading = new ArrayDeque<>();

    /** @param components a component schema by name ({@code io.k8s.api.core.v1.Pod}), or null */
    public OpenApiSchemaReader(Function<String, JsonNode> components) {
        this.components = components;
    }

    /** For a self-contained schema (a CRD's {@code openAPIV3Schema}). */
    public static Schema readStandalone(JsonNode schema) {
        return new OpenApiSchemaReader(name -> null).read(schema);
    }

    /** The named component, resolved. */
    public Schema component(String name) {
        return reference(COMPONENTS + name);
    }

    public Schema read(JsonNode node) {
        if (node == null || !node.isObject()) {
            return Schema.ANY;
        }
        if (node.has("$ref")) {
            return withLocal(reference(node.path("$ref").asText()), node);
        }
        JsonNode allOf = node.path("allOf");
        if (allOf.isArray() && allOf.size() == 1 && !node.has("type") && !node.has("properties")) {
            return withLocal(read(allOf.get(0)), node);
        }
        Schema.Builder b = Schema.builder()
                .type(node.path("type").asText(""))
                .format(node.path("format").asText(""))
                .nullable(node.path("nullable").asBoolean(false))
                .preserveUnknownFields(node.path("x-kubernetes-preserve-unknown-fields").asBoolean(false))
                .intOrString(node.path("x-kubernetes-int-or-string").asBoolean(false))
                .embeddedResource(node.path("x-kubernetes-embedded-resource").asBoolean(false))
                .listType(node.path("x-kubernetes-list-type").asText(""))
                .mapType(node.path("x-kubernetes-map-type").asText(""))
                .hasDefault(node.has("default"));
        List<String> keys = new ArrayList<>();
        node.path("x-kubernetes-list-map-keys").forEach(k -> keys.add(k.asText()));
        b.listMapKeys(keys);
        node.path("required").forEach(r -> b.require(r.asText()));
        node.path("properties").fields().forEachRemaining(e -> b.property(e.getKey(), read(e.getValue())));
        if (node.has("items")) {
            b.items(read(node.get("items")));
        }
        JsonNode additional = node.path("additionalProperties");
        if (additional.isObject()) {
            b.additionalProperties(read(additional));
        } else if (additional.isBoolean() && additional.asBoolean()) {
            b.additionalProperties(Schema.ANY);
        }
        return b.build();
    }

    /** Local keywords beside a {@code $ref} ({@code default}, {@code nullable}) still apply to the field. */
    private static Schema withLocal(Schema referenced, JsonNode node) {
        if (!node.has("default") && !node.has("nullable")) {
            return referenced;
        }
        return referenced.toBuilder().hasDefault(referenced.hasDefault() || node.has("default"))
                .nullable(referenced.nullable() || node.path("nullable").asBoolean(false)).build();
    }

    private Schema reference(String ref) {
        String name = ref.startsWith(COMPONENTS) ? ref.substring(COMPONENTS.length())
                : ref.startsWith(DEFINITIONS) ? ref.substring(DEFINITIONS.length()) : null;
        if (name == null) {
            return Schema.ANY;
        }
        Schema known = resolved.get(name);
        if (known != null) {
            return known;
        }
        if (reading.contains(name)) {
            return Schema.ANY; // a recursive type: the inner occurrence is not described further
        }
        JsonNode node = components.apply(name);
        if (node == null) {
            return Schema.ANY;
        }
        reading.push(name);
        try {
            Schema schema = read(node);
            resolved.put(name, schema);
            return schema;
        } finally {
            reading.pop();
        }
    }
}

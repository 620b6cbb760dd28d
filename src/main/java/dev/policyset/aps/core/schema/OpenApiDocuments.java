package dev.policyset.aps.core.schema;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Schemas from a cluster's {@code /openapi/v3/apis/<group>/<version>} (and {@code /openapi/v3/api/v1}) documents:
 * each component schema with an {@code x-kubernetes-group-version-kind} extension is a kind of that group version.
 * The operator fetches the documents; this reads them. The plural resource names are not in the documents: the
 * caller passes them from discovery (kind → plural per group version); a kind without one can still be looked up
 * by its GVK.
 */
public final class OpenApiDocuments implements SchemaSource {
    private final Map<GroupVersionKind, Schema> schemas;
    private final List<ResourceType> resources;

    private OpenApiDocuments(Map<GroupVersionKind, Schema> schemas, List<ResourceType> resources) {
        this.schemas = schemas;
        this.resources = resources;
    }

    /**
     * @param documents one parsed {@code /openapi/v3} document per group version
     * @param discovered the resources discovery lists (kind, plural, scope), to resolve rules against
     */
    public static OpenApiDocuments of(List<JsonNode> documents, List<ResourceType> discovered) {
        Map<GroupVersionKind, Schema> schemas = new LinkedHashMap<>();
        for (JsonNode document : documents) {
            JsonNode components = document.path("components").path("schemas");
            if (!components.isObject()) {
                continue;
            }
            OpenApiSchemaReader reader = new OpenApiSchemaReader(name -> components.has(name) ? components.get(name) : null);
            components.fields().forEachRemaining(e -> {
                for (JsonNode gvk : e.getValue().path("x-kubernetes-group-version-kind")) {
                    String version = gvk.path("version").asText("");
                    String kind = gvk.path("kind").asText("");
                    if (version.isEmpty() || kind.isEmpty() || kind.endsWith("List")) {
                        continue;
                    }
                    Schema schema = reader.component(e.getKey());
                    schemas.putIfAbsent(new GroupVersionKind(gvk.path("group").asText(""), version, kind),
                            schema.toBuilder().require("apiVersion").require("kind").require("metadata").build());
                }
            });
        }
        List<ResourceType> resources = new ArrayList<>();
        for (ResourceType r : discovered) {
            if (schemas.containsKey(r.gvk())) {
                resources.add(r);
            }
        }
        return new OpenApiDocuments(Map.copyOf(schemas), List.copyOf(resources));
    }

    @Override
    public Optional<Schema> schema(GroupVersionKind gvk) {
        return Optional.ofNullable(schemas.get(gvk));
    }

    @Override
    public List<ResourceType> resources() {
        return resources;
    }

    /** How many kinds the documents describe. */
    public int size() {
        return schemas.size();
    }
}

package dev.policyset.aps.core.schema;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The schemas of custom resources, from CustomResourceDefinition manifests ({@code apiextensions.k8s.io/v1}):
 * one per <em>served</em> version, as the API server publishes them. Like its {@code /openapi/v3}
 * ({@code apiextensions-apiserver/pkg/controller/openapi/builder/builder.go: BuildOpenAPIV3}), the root gets
 * {@code apiVersion} and {@code kind} strings and the full ObjectMeta as {@code metadata}, whatever the CRD's own
 * schema says about them (a CRD may only restrict {@code metadata.name} and {@code generateName}).
 *
 * <p>A version without a schema (only possible with {@code preserveUnknownFields} CRDs from before v1) is an
 * object that keeps unknown fields.
 */
public final class CrdSchemas implements SchemaSource {
    private final Map<GroupVersionKind, Schema> schemas;
    private final List<ResourceType> resources;

    private CrdSchemas(Map<GroupVersionKind, Schema> schemas, List<ResourceType> resources) {
        this.schemas = schemas;
        this.resources = resources;
    }

    /** True for a CustomResourceDefinition manifest this reader takes. */
    public static boolean isCrd(JsonNode manifest) {
        return manifest != null && manifest.isObject()
                && "CustomResourceDefinition".equals(manifest.path("kind").asText())
                && manifest.path("apiVersion").asText().startsWith("apiextensions.k8s.io/");
    }

    /** Every served version of every CRD among {@code manifests}; other documents are ignored. */
    public static CrdSchemas of(List<JsonNode> manifests) {
        Map<GroupVersionKind, Schema> schemas = new LinkedHashMap<>();
        List<ResourceType> resources = new ArrayList<>();
        Schema meta = BuiltinSchemas.instance().objectMeta();
        for (JsonNode crd : manifests) {
            if (!isCrd(crd)) {
                continue;
            }
            JsonNode spec = crd.path("spec");
            String group = spec.path("group").asText("");
            String kind = spec.path("names").path("kind").asText("");
            String plural = spec.path("names").path("plural").asText("");
            boolean namespaced = !"Cluster".equals(spec.path("scope").asText("Namespaced"));
            if (group.isEmpty() || kind.isEmpty()) {
                continue;
            }
            for (JsonNode version : spec.path("versions")) {
                if (!version.path("served").asBoolean(true) || version.path("name").asText("").isEmpty()) {
                    continue;
                }
                JsonNode node = version.path("schema").path("openAPIV3Schema");
                if (node.isMissingNode()) {
                    node = spec.path("validation").path("openAPIV3Schema"); // a v1beta1 manifest's one schema
                }
                Schema schema = node.isObject() ? OpenApiSchemaReader.readStandalone(node)
                        : Schema.builder().type("object").preserveUnknownFields(true).build();
                GroupVersionKind gvk = new GroupVersionKind(group, version.path("name").asText(), kind);
                if (schemas.putIfAbsent(gvk, asResource(schema, meta)) == null) {
                    resources.add(new ResourceType(gvk, plural, namespaced));
                }
            }
        }
        return new CrdSchemas(Map.copyOf(schemas), List.copyOf(resources));
    }

    /** The root as the API server publishes it: apiVersion, kind and the full ObjectMeta. */
    static Schema asResource(Schema schema, Schema objectMeta) {
        return schema.toBuilder().type("object")
                .property("apiVersion", Schema.string())
                .property("kind", Schema.string())
                .property("metadata", objectMeta)
                .require("apiVersion").require("kind").require("metadata")
                .build();
    }

    @Override
    public Optional<Schema> schema(GroupVersionKind gvk) {
        return Optional.ofNullable(schemas.get(gvk));
    }

    @Override
    public List<ResourceType> resources() {
        return resources;
    }
}

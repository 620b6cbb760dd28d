package dev.policyset.aps.core.schema;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One node of an OpenAPI v3 structural schema, with the Kubernetes extensions that change what a value can
 * be ({@code apiextensions/v1 JSONSchemaProps}; {@code staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/structural.go}).
 * Immutable. A schema that says nothing about its value ({@link #ANY}) is what a recursive reference or an
 * unknown type becomes: CEL treats it as {@code dyn}.
 *
 * @param type                  {@code object}, {@code array}, {@code string}, {@code integer}, {@code number},
 *                              {@code boolean}, or empty when the schema does not say
 * @param format                e.g. {@code date-time}, {@code byte}, {@code int-or-string}; empty when none
 * @param properties            the declared fields of an object, in declaration order
 * @param items                 the element schema of an array; null when none
 * @param additionalProperties  the value schema of a map-like object; null when none
 * @param required              the properties that are always present
 * @param nullable              {@code nullable: true}
 * @param preserveUnknownFields {@code x-kubernetes-preserve-unknown-fields: true}
 * @param intOrString           {@code x-kubernetes-int-or-string: true}
 * @param embeddedResource      {@code x-kubernetes-embedded-resource: true}
 * @param listType              {@code x-kubernetes-list-type} ({@code atomic}, {@code set}, {@code map}); empty when none
 * @param listMapKeys           {@code x-kubernetes-list-map-keys}
 * @param mapType               {@code x-kubernetes-map-type} ({@code granular}, {@code atomic}); empty when none
 * @param hasDefault            the schema declares a {@code default} (the API server fills the field in)
 */
public record Schema(String type, String format, Map<String, Schema> properties, Schema items,
                     Schema additionalProperties, Set<String> required, boolean nullable,
                     boolean preserveUnknownFields, boolean intOrString, boolean embeddedResource, String listType,
                     List<String> listMapKeys, String mapType, boolean hasDefault) {
    /** A value the schema says nothing about. */
    public static final Schema ANY = builder().build();

    public Schema {
        type = type == null ? "" : type;
        format = format == null ? "" : format;
        properties = properties == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(properties));
        required = required == null ? Set.of() : Collections.unmodifiableSet(new java.util.LinkedHashSet<>(required));
        listType = listType == null ? "" : listType;
        listMapKeys = listMapKeys == null ? List.of() : List.copyOf(listMapKeys);
        mapType = mapType == null ? "" : mapType;
    }

    public static Schema string() {
        return builder().type("string").build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().type(type).format(format).properties(properties).items(items)
                .additionalProperties(additionalProperties).required(required).nullable(nullable)
                .preserveUnknownFields(preserveUnknownFields).intOrString(intOrString)
                .embeddedResource(embeddedResource).listType(listType).listMapKeys(listMapKeys).mapType(mapType)
                .hasDefault(hasDefault);
    }

    public boolean isObject() {
        return type.equals("object");
    }

    public boolean isArray() {
        return type.equals("array");
    }

    /** An object whose fields are keys of one value schema ({@code additionalProperties}), not declared properties. */
    public boolean isMap() {
        return isObject() && additionalProperties != null;
    }

    /** The schema of a declared property, or null. */
    public Schema property(String name) {
        return properties.get(name);
    }

    public boolean isRequired(String property) {
        return required.contains(property);
    }

    /** A mutable builder; unset fields are empty. */
    public static final class Builder {
        private String type = "";
        private String format = "";
        private Map<String, Schema> properties = new LinkedHashMap<>();
        private Schema items;
        private Schema additionalProperties;
        private Set<String> required = new java.util.LinkedHashSet<>();
        private boolean nullable;
        private boolean preserveUnknownFields;
        private boolean intOrString;
        private boolean embeddedResource;
        private String listType = "";
        private List<String> listMapKeys = List.of();
        private String mapType = "";
        private boolean hasDefault;

        public Builder type(String v) { type = v; return this; }
        public Builder format(String v) { format = v; return this; }
        public Builder properties(Map<String, Schema> v) { properties = new LinkedHashMap<>(v); return this; }
        public Builder property(String name, Schema v) { properties.put(name, v); return this; }
        public Builder items(Schema v) { items = v; return this; }
        public Builder additionalProperties(Schema v) { additionalProperties = v; return this; }
        public Builder required(Set<String> v) { required = new java.util.LinkedHashSet<>(v); return this; }
        public Builder require(String name) { required.add(name); return this; }
        public Builder nullable(boolean v) { nullable = v; return this; }
        public Builder preserveUnknownFields(boolean v) { preserveUnknownFields = v; return this; }
        public Builder intOrString(boolean v) { intOrString = v; return this; }
        public Builder embeddedResource(boolean v) { embeddedResource = v; return this; }
        public Builder listType(String v) { listType = v; return this; }
        public Builder listMapKeys(List<String> v) { listMapKeys = v; return this; }
        public Builder mapType(String v) { mapType = v; return this; }
        public Builder hasDefault(boolean v) { hasDefault = v; return this; }

        public Schema build() {
            return new Schema(type, format, properties, items, additionalProperties, required, nullable,
                    preserveUnknownFields, intOrString, embeddedResource, listType, listMapKeys, mapType, hasDefault);
        }
    }
}

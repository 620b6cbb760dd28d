package dev.policyset.aps.core.cel;

import dev.cel.common.types.CelType;
import dev.cel.common.values.StructValue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@code JSONPatch{op, path, from, value}} value close to upstream's {@code JSONPatchVal}
 * ({@code library/jsonpatch.go}): an empty string field counts as unset, so {@code has()} is true only for
 * a non-empty string (or a set value) and {@code JSONPatch{op: ''} == JSONPatch{}}. cel-java's planner
 * selects through {@link #value()} (the map of set fields), so reading an unset field is a
 * {@code no such key} error where cel-go gives {@code ''}.
 */
final class JsonPatchValue extends StructValue<String, Map<String, Object>> {
    private final Map<String, Object> fields;

    JsonPatchValue(Map<String, Object> fields) {
        Map<String, Object> set = new LinkedHashMap<>();
        fields.forEach((k, v) -> {
            if (!(v instanceof String s && s.isEmpty())) {
                set.put(k, v);
            }
        });
        this.fields = set;
    }

    @Override
    public Object select(String field) {
        Object v = fields.get(field);
        if (v != null) {
            return v;
        }
        if (field.equals("value")) {
            throw new IllegalArgumentException("no such key: value");
        }
        return "";
    }

    @Override
    public Optional<?> find(String field) {
        return Optional.ofNullable(fields.get(field));
    }

    /** The fields that are set, as a map (what a mutation returns). */
    @Override
    public Map<String, Object> value() {
        return fields;
    }

    @Override
    public boolean isZeroValue() {
        return fields.isEmpty();
    }

    @Override
    public CelType celType() {
        return MutationLibrary.JSON_PATCH;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JsonPatchValue other && fields.equals(other.fields);
    }

    @Override
    public int hashCode() {
        return Objects.hash(fields);
    }

    @Override
    public String toString() {
        return "JSONPatch" + fields;
    }
}

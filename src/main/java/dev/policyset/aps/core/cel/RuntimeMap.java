package dev.policyset.aps.core.cel;

import dev.cel.common.types.CelType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.values.CelValue;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Set;

/**
 * A map whose keys and values are already cel-java runtime values ({@link CelEvaluator#toCel}), read-only.
 *
 * <p>Why it is a {@link CelValue}: cel-java 0.14's planner passes every value it reads through
 * {@code CelValueConverter.toRuntimeValue} (the variable, then each field selected, then {@code maybeUnwrap} of
 * the result; {@code NamespacedAttribute.applyQualifiers}), and for a plain {@code Map} that means walking the
 * whole subtree to see whether anything needs converting, once per converter of the runtime. Selecting
 * {@code object.spec.containers} walked the object three times over, per evaluation: 80% of an impact scan's
 * time. A {@code CelValue} is passed through as it is, and {@link #value()} is the map itself, so what a
 * selection returns stays one. Selection still goes through the {@code Map} interface (it is deliberately not a
 * {@code SelectableValue}), so a missing field is the same {@code no such key} error as before.
 */
public final class RuntimeMap extends CelValue implements Map<Object, Object> {
    private static final CelType TYPE = MapType.create(SimpleType.DYN, SimpleType.DYN);

    private final Map<Object, Object> entries;

    private final boolean json;

    private RuntimeMap(Map<Object, Object> entries, boolean json) {
        this.entries = Collections.unmodifiableMap(entries);
        this.json = json;
    }

    /**
     * A map of a JSON tree: string keys, and values that are JSON scalars (String, Long, Double, Boolean,
     * NullValue), lists of them, or maps of the same kind, with nothing else at any depth.
     */
    public static RuntimeMap ofJson(Map<Object, Object> entries) {
        return new RuntimeMap(entries, true);
    }

    /** Whether it was made by {@link #ofJson}: a value a later expression can read as it is. */
    public boolean json() {
        return json;
    }

    /**
     * @param entries keys and values already in runtime form (Long, Double, String, Boolean, NullValue, lists and
     *                maps of them, maps as RuntimeMap); not copied, so the caller must not change it afterwards
     */
    public static RuntimeMap of(Map<Object, Object> entries) {
        return new RuntimeMap(entries, false);
    }

    @Override
    public Object value() {
        return this;
    }

    @Override
    public boolean isZeroValue() {
        return entries.isEmpty();
    }

    @Override
    public CelType celType() {
        return TYPE;
    }

    @Override
    public int size() {
        return entries.size();
    }

    @Override
    public boolean isEmpty() {
        return entries.isEmpty();
    }

    @Override
    public boolean containsKey(Object key) {
        return entries.containsKey(key);
    }

    @Override
    public boolean containsValue(Object value) {
        return entries.containsValue(value);
    }

    @Override
    public Object get(Object key) {
        return entries.get(key);
    }

    @Override
    public Object put(Object key, Object value) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Object remove(Object key) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void putAll(Map<?, ?> m) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void clear() {
        throw new UnsupportedOperationException();
    }

    @Override
    public Set<Object> keySet() {
        return entries.keySet();
    }

    @Override
    public Collection<Object> values() {
        return entries.values();
    }

    @Override
    public Set<Entry<Object, Object>> entrySet() {
        return entries.entrySet();
    }

    @Override
    public boolean equals(Object o) {
        return o == this || entries.equals(o);
    }

    @Override
    public int hashCode() {
        return entries.hashCode();
    }

    @Override
    public String toString() {
        return entries.toString();
    }
}

package dev.policyset.aps.core.cel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A value built with an {@code Object{...}} or {@code Object.a.b{...}} initializer in a mutation: the map of the
 * fields it sets, and the type name it was built with ({@code mutation/dynamic/objects.go: ObjectVal}). The
 * initializers are schemaless, so nothing checks the name against the object's type; the API server only checks,
 * after evaluation, that each name is the field path it sits at ({@link #typeNameMismatches}).
 */
public final class ObjectValue extends LinkedHashMap<Object, Object> {
    private final String typeName;

    public ObjectValue(String typeName, Map<?, ?> fields) {
        super(fields);
        this.typeName = typeName;
    }

    public String typeName() {
        return typeName;
    }

    /**
     * {@code ObjectVal.CheckTypeNamesMatchFieldPathNames}: an initializer under field {@code f} of a value named
     * {@code N} must be named {@code N.f}; lists and maps between them add nothing to the path. One message per
     * mismatch, upstream's text; empty when the names match.
     */
    public List<String> typeNameMismatches() {
        List<String> out = new ArrayList<>();
        check(this, typeName, out);
        return out;
    }

    private static void check(Object v, String path, List<String> out) {
        if (v instanceof ObjectValue o) {
            if (!o.typeName.equals(path)) {
                out.add("unexpected type name \"" + o.typeName + "\", expected \"" + path
                        + "\", which matches field name path from root Object type");
            }
            o.forEach((k, f) -> check(f, path + "." + k, out));
        } else if (v instanceof List<?> l) {
            l.forEach(x -> check(x, path, out));
        } else if (v instanceof Map<?, ?> m) {
            m.values().forEach(x -> check(x, path, out));
        }
    }
}

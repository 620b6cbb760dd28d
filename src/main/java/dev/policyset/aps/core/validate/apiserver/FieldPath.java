package dev.policyset.aps.core.validate.apiserver;

/**
 * A field path in the API server's syntax ({@code field.Path}): dotted names, {@code [i]} for list indices,
 * {@code [key]} for map keys. Immutable; {@link #toString()} is what a finding's {@code field} carries.
 */
public final class FieldPath {
    private final FieldPath parent;
    private final String segment;

    private FieldPath(FieldPath parent, String segment) {
        this.parent = parent;
        this.segment = segment;
    }

    public static FieldPath root(String name) {
        return new FieldPath(null, name);
    }

    /** {@code root("spec", "matchConstraints", "resourceRules")}: several names at once. */
    public static FieldPath root(String name, String... more) {
        FieldPath path = root(name);
        for (String child : more) {
            path = path.child(child);
        }
        return path;
    }

    public FieldPath child(String name, String... more) {
        FieldPath path = new FieldPath(this, "." + name);
        for (String child : more) {
            path = path.child(child);
        }
        return path;
    }

    public FieldPath index(int i) {
        return new FieldPath(this, "[" + i + "]");
    }

    public FieldPath key(String key) {
        return new FieldPath(this, "[" + key + "]");
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        append(out);
        return out.toString();
    }

    private void append(StringBuilder out) {
        if (parent != null) {
            parent.append(out);
        }
        out.append(segment);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FieldPath other && other.toString().equals(toString());
    }

    @Override
    public int hashCode() {
        return toString().hashCode();
    }
}

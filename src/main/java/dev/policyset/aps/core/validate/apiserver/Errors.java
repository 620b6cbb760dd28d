package dev.policyset.aps.core.validate.apiserver;

import dev.policyset.aps.core.finding.Finding;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The findings for one object, built like the API server's {@code field.ErrorList}: one method per error
 * type, each producing an {@code api/<Type>} error on a path, with the API server's message prefix
 * ({@code Required value}, {@code Invalid value: "x"}, ...) followed by what is wrong and what to do.
 */
final class Errors {
    private final String object;
    private final List<Finding> findings = new ArrayList<>();

    Errors(String object) {
        this.object = object;
    }

    String object() {
        return object;
    }

    List<Finding> findings() {
        return List.copyOf(findings);
    }

    void required(FieldPath path, String detail) {
        add("Required", path, "Required value" + suffix(detail));
    }

    void invalid(FieldPath path, Object value, String detail) {
        add("Invalid", path, "Invalid value: " + render(value) + suffix(detail));
    }

    void notSupported(FieldPath path, Object value, Collection<String> allowed) {
        add("NotSupported", path, "Unsupported value: " + render(value) + ": supported values: "
                + allowed.stream().map(Errors::quote).collect(Collectors.joining(", ")));
    }

    /** NotSupported where the server serves no value at all: the API server's prefix, then why and what to do. */
    void notServed(FieldPath path, Object value, String detail) {
        add("NotSupported", path, "Unsupported value: " + render(value) + ": " + detail);
    }

    void duplicate(FieldPath path, Object value) {
        add("Duplicate", path, "Duplicate value: " + render(value) + ": each value may appear only once; remove the repeat");
    }

    void forbidden(FieldPath path, String detail) {
        add("Forbidden", path, "Forbidden" + suffix(detail));
    }

    void tooMany(FieldPath path, int actual, int max) {
        add("TooMany", path, "Too many: " + actual + ": must have at most " + max + " items");
    }

    void tooLong(FieldPath path, long max, String detail) {
        add("TooLong", path, "Too long: may not be more than " + max + " bytes" + suffix(detail));
    }

    private void add(String type, FieldPath path, String message) {
        findings.add(Finding.error("api/" + type, object, path.toString(), message));
    }

    private static String suffix(String detail) {
        return detail == null || detail.isEmpty() ? "" : ": " + detail;
    }

    /** Values are quoted like Go's {@code %q} for strings; long values are shortened so messages stay readable. */
    static String render(Object value) {
        if (value instanceof String s) {
            return quote(s.length() > 200 ? s.substring(0, 200) + "..." : s);
        }
        if (value instanceof Collection<?> list) {
            return list.stream().map(Errors::render).collect(Collectors.joining(", ", "[", "]"));
        }
        return String.valueOf(value);
    }

    static String quote(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> out.append(c);
            }
        }
        return out.append('"').toString();
    }
}

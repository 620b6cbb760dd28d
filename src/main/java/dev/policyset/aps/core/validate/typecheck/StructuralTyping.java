package dev.policyset.aps.core.validate.typecheck;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Type-check errors that come only from object types being nominal in the checker while the data is structural at
 * run time. The admission plugin evaluates unstructured JSON, so {@code containers + ephemeralContainers} (two
 * element types), {@code has(x) ? object.spec.securityContext : {}} (an object and a map), {@code object.rules == null}
 * ranging over {@code object.metadata}, {@code 'k' in object.metadata} or {@code object.metadata[k]} all work; cel-go's checker (and so the API server's type checker) still
 * rejects them. They are not reported: a warning must mean the expression can fail. A mismatch between an object
 * type and a scalar ({@code object.spec.template == 'x'}) is still reported.
 */
final class StructuralTyping {
    private static final Pattern OVERLOAD = Pattern.compile("found no matching overload for '([^']*)' applied to '(.*)'");
    private static final Pattern RANGE = Pattern.compile("expression of type '([^']*)' cannot be range of a comprehension");
    private static final Set<String> SCALARS = Set.of("bool", "int", "uint", "double", "string", "bytes", "timestamp",
            "google.protobuf.Timestamp", "duration", "google.protobuf.Duration", "dyn", "type");

    private StructuralTyping() {
    }

    /** True when the error line is only about nominal object types (see the class comment). */
    static boolean nominalOnly(String line) {
        Matcher range = RANGE.matcher(line);
        if (range.find()) {
            return isObject(range.group(1));
        }
        Matcher m = OVERLOAD.matcher(line);
        if (!m.find()) {
            return false;
        }
        String function = m.group(1);
        String applied = m.group(2);
        // a receiver-style call prints 'T.(A, B)'; only the argument shapes matter here
        List<String> types = new ArrayList<>();
        int dot = applied.indexOf(".(");
        if (dot > 0 && !applied.startsWith("(")) {
            types.add(applied.substring(0, dot));
            applied = applied.substring(dot + 1);
        }
        if (applied.startsWith("(") && applied.endsWith(")")) {
            applied = applied.substring(1, applied.length() - 1);
        }
        types.addAll(split(applied));
        if (function.equals("@in") && types.size() == 2 && isObject(types.get(1))) {
            return true; // 'key' in object.metadata: a map at run time
        }
        if (function.equals("_[_]") && types.size() == 2 && isObject(types.get(0))) {
            return true; // object.metadata[key]: a map at run time
        }
        boolean object = types.stream().anyMatch(StructuralTyping::containsObject);
        long composite = types.stream().filter(t -> containsObject(t) || t.startsWith("list(") || t.startsWith("map(")
                || t.equals("null_type")).count();
        return object && composite >= 2;
    }

    private static boolean containsObject(String type) {
        for (String part : type.split("[(), ]+")) {
            if (!part.isEmpty() && isObject(part)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isObject(String type) {
        return !SCALARS.contains(type) && !type.equals("list") && !type.equals("map") && !type.equals("null_type")
                && !type.startsWith("%") && !type.startsWith("optional_type") && !type.startsWith("kubernetes.")
                && !type.startsWith("list(") && !type.startsWith("map(") && !type.equals("bool");
    }

    /** Splits {@code a, map(b, c), d} at the top-level commas. */
    private static List<String> split(String types) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < types.length(); i++) {
            char c = types.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(types.substring(start, i).trim());
                start = i + 1;
            }
        }
        if (start < types.length()) {
            out.add(types.substring(start).trim());
        }
        return out;
    }
}

package dev.policyset.aps.core.cel;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Error texts as kube-apiserver (cel-go) words them. cel-java reports the same failures with other
 * words ({@code long overflow} for cel-go's {@code integer overflow}); users, docs and the API server's
 * tests know cel-go's, so messages are translated here, in one place.
 */
final class CelErrors {
    private CelErrors() {
    }

    private static final Pattern POSITION = Pattern.compile("^evaluation error at <input>:(\\d+): ");
    private static final Pattern SUBSTRING = Pattern.compile("substring failure: Range \\[(-?\\d+), (-?\\d+)\\) out of bounds");
    private static final Pattern OUT_OF_RANGE = Pattern.compile("(?:Index|Offset) out of (?:range|bounds): (-?\\d+)");
    private static final Pattern SLICE_ARGS = Pattern.compile("Function 'slice' failed with arg\\(s\\) '.*, (-?\\d+), (-?\\d+)'");
    private static final Pattern NO_OVERLOAD = Pattern.compile("No matching overload for function '([^']+)'");
    private static final Pattern SELECT_ON_NON_MAP =
            Pattern.compile("Error resolving field '([^']*)'\\. Field selections must be performed on messages or maps");
    private static final Pattern MAP_KEY = Pattern.compile("key '(.*)' is not present in map\\.?");
    private static final Pattern MAP_INSERT = Pattern.compile("Function 'cel.@mapInsert' failed with arg\\(s\\) .*\\{(.*?)=.*\\}'?$");

    /**
     * Compile issues. cel-java prints them as cel-go does ({@code ERROR: <input>:L:C: ...} and the
     * source excerpt) except that it lists overload candidates, which cel-go does not.
     */
    static String compileIssues(String issues) {
        return CANDIDATES.matcher(issues).replaceAll("");
    }

    private static final Pattern CANDIDATES = Pattern.compile("(?m) \\(candidates: .*\\)$");

    /** An evaluation error of {@code expression} in cel-go's words. */
    static String evaluation(Throwable e, String expression) {
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getClass().getSimpleName().equals("CelAttributeNotFoundException") && t.getMessage() != null
                    && !t.getMessage().contains(" ")) {
                // cel-java reports a missing map key by the bare key; cel-go: "no such key: <key>"
                return "no such key: " + t.getMessage();
            }
        }
        if (message.contains("failed with arg(s)") && !message.contains("cel.@mapInsert")) {
            // A function binding threw: its own message (the root cause) is the meaningful one.
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            if (root != e && root.getMessage() != null) {
                Matcher slice = SLICE_ARGS.matcher(message);
                if (slice.find() && root.getMessage().startsWith("List is length")) {
                    return "cannot slice(" + slice.group(1) + ", " + slice.group(2) + "), "
                            + decapitalize(root.getMessage());
                }
                if (root instanceof java.util.NoSuchElementException && message.contains("Optional.empty")) {
                    return "optional.none() dereference";
                }
                return translate(decapitalize(root.getMessage()), expression);
            }
        }
        return translate(message, expression);
    }

    private static String decapitalize(String s) {
        return s.isEmpty() || !Character.isUpperCase(s.charAt(0)) || (s.length() > 1 && Character.isUpperCase(s.charAt(1)))
                ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }

    static String translate(String raw, String expression) {
        int offset = -1;
        Matcher pos = POSITION.matcher(raw);
        String msg = raw;
        if (pos.find()) {
            offset = Integer.parseInt(pos.group(1));
            msg = raw.substring(pos.end());
        }
        msg = msg.replaceFirst("^evaluation error: ", "");

        if (msg.contains("/ by zero")) {
            return charAt(expression, offset) == '%' ? "modulus by zero" : "division by zero";
        }
        if (msg.contains("unsigned") || msg.contains("out of uint range")
                || msg.contains("out of range for uint")) {
            return "unsigned integer overflow";
        }
        if (msg.contains("long overflow") || msg.contains("most negative number wraps")
                || msg.contains("integer overflow") || msg.contains("out of int range")
                || msg.contains("out of range for int")) {
            return "integer overflow";
        }
        if (msg.startsWith("For input string") || msg.contains("NumberFormatException")) {
            String target = functionAt(expression, offset);
            return "type conversion error from 'string' to '" + (target.isEmpty() ? "int" : target) + "'";
        }
        if (msg.startsWith("Type conversion error")) {
            return ("t" + msg.substring(1)).replaceFirst(": \\[.*\\]$", "");
        }
        if (msg.startsWith("timestamp is not valid")) {
            // cel-go common/types/overflow.go addTimeDurationChecked: errTimestampOverflow
            return "timestamp overflow";
        }
        if (msg.contains("invalid duration format")) {
            return "type conversion error from 'string' to 'google.protobuf.Duration'";
        }
        if (msg.contains("Failed to parse timestamp") || msg.contains("invalid timestamp")) {
            return "type conversion error from 'string' to 'google.protobuf.Timestamp'";
        }
        Matcher overload = NO_OVERLOAD.matcher(msg);
        if (overload.find()) {
            return "no such overload: " + overload.group(1);
        }
        Matcher select = SELECT_ON_NON_MAP.matcher(msg);
        if (select.find()) {
            // cel-go: selecting a field of a value that is not a map (null params, a string) is a missing key
            return "no such key: " + select.group(1);
        }
        Matcher key = MAP_KEY.matcher(msg);
        if (key.find()) {
            return "no such key: " + key.group(1);
        }
        if (msg.startsWith("Function 'value' failed") && msg.contains("Optional.empty")) {
            return "optional.none() dereference";
        }
        Matcher insert = MAP_INSERT.matcher(msg);
        if (insert.find()) {
            return "insert failed: key '" + insert.group(1) + "' already exists";
        }
        Matcher sub = SUBSTRING.matcher(msg);
        if (sub.find()) {
            long start = Long.parseLong(sub.group(1));
            long end = Long.parseLong(sub.group(2));
            if (start < 0) {
                return "index out of range: " + start;
            }
            if (start > end) {
                return "invalid substring range. start: " + start + ", end: " + end;
            }
            return "index out of range: " + end;
        }
        Matcher range = OUT_OF_RANGE.matcher(msg);
        if (range.find()) {
            return "index out of range: " + range.group(1);
        }
        return msg;
    }

    private static char charAt(String s, int offset) {
        if (s == null || offset < 0) {
            return 0;
        }
        int i = s.offsetByCodePoints(0, Math.min(offset, s.codePointCount(0, s.length())));
        return i < s.length() ? s.charAt(i) : 0;
    }

    /** The identifier just before the call's {@code (} at {@code offset}, e.g. {@code int}. */
    private static String functionAt(String s, int offset) {
        if (s == null || offset < 0) {
            return "";
        }
        int i = s.offsetByCodePoints(0, Math.min(offset, s.codePointCount(0, s.length())));
        int end = i;
        int start = end;
        while (start > 0 && Character.isJavaIdentifierPart(s.charAt(start - 1))) {
            start--;
        }
        return s.substring(start, end);
    }
}

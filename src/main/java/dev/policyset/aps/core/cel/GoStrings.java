package dev.policyset.aps.core.cel;

import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelRuntimeBuilder;
import dev.cel.runtime.CelRuntimeLibrary;
import dev.policyset.aps.core.cel.lib.ListsLibrary;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The runtime of cel-go's strings extension ({@code ext/strings.go}), ported so that results, argument checks and
 * their order, and error texts are cel-go's. The checker keeps cel-java's declarations (same overload ids);
 * only the implementations are replaced, because cel-java's differ where users notice (which bound of
 * {@code substring} is reported, {@code indexOf} past the end, Unicode whitespace of {@code trim}, {@code join}
 * of a list that is not all strings, {@code split}/{@code replace} with an empty separator).
 *
 * <p>Two cel-go lines matter: Kubernetes 1.36 vendors cel-go v0.26.0 and 1.37 vendors v0.29.2, where
 * {@code indexOf}/{@code lastIndexOf} with an empty search string check the offset (cel-go #1335):
 * {@code 'abc'.indexOf('', 5)} is 5 in v0.26 and 3 in v0.29, {@code 'abc'.indexOf('', -1)} is -1 in v0.26 and an
 * error in v0.29.
 */
final class GoStrings implements CelRuntimeLibrary {
    /** cel-go v0.29 behaviour ({@code indexOf} empty-string offsets checked). */
    private final boolean checkEmptySearchOffset;

    GoStrings(boolean checkEmptySearchOffset) {
        this.checkEmptySearchOffset = checkEmptySearchOffset;
    }

    @Override
    public void setRuntimeOptions(CelRuntimeBuilder runtime) {
        runtime.addFunctionBindings(CelFunctionBinding.fromOverloads("charAt",
                CelFunctionBinding.from("string_char_at_int", String.class, Long.class, GoStrings::charAt)));
        // The name binding is what cel-java's planner calls when the checker left several overloads open (a dyn
        // receiver): it must hold every library's overload of the name, the lists library's list.indexOf(A) too,
        // as cel-go's dispatcher does (one function, overloads from both libraries).
        runtime.addFunctionBindings(CelFunctionBinding.fromOverloads("indexOf",
                CelFunctionBinding.from("string_index_of_string", String.class, String.class, (s, sub) -> indexOf(s, sub, 0)),
                CelFunctionBinding.from("string_index_of_string_int", List.of(String.class, String.class, Long.class),
                        args -> indexOf((String) args[0], (String) args[1], (Long) args[2])),
                ListsLibrary.indexOfBinding(false)));
        runtime.addFunctionBindings(CelFunctionBinding.fromOverloads("lastIndexOf",
                CelFunctionBinding.from("string_last_index_of_string", String.class, String.class, this::lastIndexOf),
                CelFunctionBinding.from("string_last_index_of_string_int", List.of(String.class, String.class, Long.class),
                        args -> lastIndexOf((String) args[0], (String) args[1], (Long) args[2])),
                ListsLibrary.indexOfBinding(true)));
        runtime.addFunctionBindings(CelFunctionBinding.fromOverloads("lowerAscii",
                CelFunctionBinding.from("string_lower_ascii", String.class, s -> mapAscii(s, true))));
        runtime.addFunctionBindings(CelFunctionBinding.fromOverloads("upperAscii",
                CelFunctionBinding.from("string_upper_ascii", String.class, s -> mapAscii(s, false))));
        runtime.addFunctionBindings(CelFunctionBinding.fromOverloads("replace",
                CelFunctionBinding.from("string_replace_string_string", List.of(String.class, String.class, String.class),
                        args -> replace((String) args[0], (String) args[1], (String) args[2], -1)),
                CelFunctionBinding.from("string_replace_string_string_int",
                        List.of(String.class, String.class, String.class, Long.class),
                        args -> replace((String) args[0], (String) args[1], (String) args[2], (Long) args[3]))));
        runtime.addFunctionBindings(CelFunctionBinding.fromOverloads("split",
                CelFunctionBinding.from("string_split_string", String.class, String.class, (s, sep) -> split(s, sep, -1)),
                CelFunctionBinding.from("string_split_string_int", List.of(String.class, String.class, Long.class),
                        args -> split((String) args[0], (String) args[1], (Long) args[2]))));
        runtime.addFunctionBindings(CelFunctionBinding.fromOverloads("substring",
                CelFunctionBinding.from("string_substring_int", String.class, Long.class, GoStrings::substring),
                CelFunctionBinding.from("string_substring_int_int", List.of(String.class, Long.class, Long.class),
                        args -> substring((String) args[0], (Long) args[1], (Long) args[2]))));
        runtime.addFunctionBindings(CelFunctionBinding.fromOverloads("trim",
                CelFunctionBinding.from("string_trim", String.class, GoStrings::trimSpace)));
        runtime.addFunctionBindings(CelFunctionBinding.fromOverloads("strings.quote",
                CelFunctionBinding.from("strings_quote", String.class, GoStrings::quote)));
        runtime.addFunctionBindings(CelFunctionBinding.fromOverloads("join",
                CelFunctionBinding.from("list_join", List.class, l -> join(l, "")),
                CelFunctionBinding.from("list_join_string", List.class, String.class, GoStrings::join)));
    }

    private static CelEvaluationException error(String message) {
        return new CelEvaluationException(message);
    }

    /** ext/strings.go charAt. */
    static String charAt(String str, long ind) throws CelEvaluationException {
        int[] runes = str.codePoints().toArray();
        if (ind < 0 || ind > runes.length) {
            throw error("index out of range: " + ind);
        }
        if (ind == runes.length) {
            return "";
        }
        return new String(runes, (int) ind, 1);
    }

    /** ext/strings.go indexOfOffset. */
    Object indexOf(String str, String sub, long offset) throws CelEvaluationException {
        if (sub.isEmpty() && !checkEmptySearchOffset) {
            return offset;
        }
        if (offset < 0) {
            throw error("index out of range: " + offset);
        }
        int[] runes = str.codePoints().toArray();
        if (sub.isEmpty()) {
            return Math.min(offset, runes.length);
        }
        int[] subrunes = sub.codePoints().toArray();
        if (offset >= runes.length) {
            return -1L;
        }
        for (int i = (int) offset; i < runes.length - (subrunes.length - 1); i++) {
            if (matchesAt(runes, subrunes, i)) {
                return (long) i;
            }
        }
        return -1L;
    }

    /** ext/strings.go lastIndexOf: note the comparison of UTF-8 byte lengths, as upstream. */
    Object lastIndexOf(String str, String sub) throws CelEvaluationException {
        int[] runes = str.codePoints().toArray();
        if (sub.isEmpty()) {
            return (long) runes.length;
        }
        if (utf8Length(str) < utf8Length(sub)) {
            return -1L;
        }
        return lastIndexOf(str, sub, runes.length - 1L);
    }

    /** ext/strings.go lastIndexOfOffset. */
    Object lastIndexOf(String str, String sub, long offset) throws CelEvaluationException {
        int[] runes = str.codePoints().toArray();
        if (sub.isEmpty() && !checkEmptySearchOffset) {
            return offset;
        }
        if (offset < 0) {
            throw error("index out of range: " + offset);
        }
        if (sub.isEmpty()) {
            return Math.min(offset, runes.length);
        }
        int[] subrunes = sub.codePoints().toArray();
        if (offset >= runes.length) {
            return -1L;
        }
        long off = Math.min(offset, runes.length - subrunes.length);
        for (long i = off; i >= 0; i--) {
            if (matchesAt(runes, subrunes, (int) i)) {
                return i;
            }
        }
        return -1L;
    }

    private static boolean matchesAt(int[] runes, int[] sub, int at) {
        for (int j = 0; j < sub.length; j++) {
            if (runes[at + j] != sub[j]) {
                return false;
            }
        }
        return true;
    }

    private static int utf8Length(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    /** ext/strings.go lowerASCII / upperASCII: only runes up to 0x7f change. */
    static String mapAscii(String s, boolean lower) {
        StringBuilder b = new StringBuilder(s.length());
        s.codePoints().forEach(r -> {
            if (lower && r >= 'A' && r <= 'Z') {
                r += 'a' - 'A';
            } else if (!lower && r >= 'a' && r <= 'z') {
                r -= 'a' - 'A';
            }
            b.appendCodePoint(r);
        });
        return b.toString();
    }

    /** Go's strings.Replace(s, old, new, n); n < 0 replaces all. */
    static String replace(String s, String old, String replacement, long n) {
        if (old.equals(replacement) || n == 0) {
            return s;
        }
        long m = count(s, old);
        if (m == 0) {
            return s;
        }
        if (n < 0 || m < n) {
            n = m;
        }
        StringBuilder b = new StringBuilder();
        int start = 0;
        for (long i = 0; i < n; i++) {
            int j = start;
            if (old.isEmpty()) {
                if (i > 0) {
                    j += Character.charCount(s.codePointAt(start));
                }
            } else {
                j = s.indexOf(old, start);
            }
            b.append(s, start, j).append(replacement);
            start = j + old.length();
        }
        b.append(s, start, s.length());
        return b.toString();
    }

    /** Go's strings.Count: for an empty separator, the number of runes plus one. */
    private static long count(String s, String sep) {
        if (sep.isEmpty()) {
            return s.codePointCount(0, s.length()) + 1L;
        }
        long n = 0;
        for (int i = s.indexOf(sep); i >= 0; i = s.indexOf(sep, i + sep.length())) {
            n++;
        }
        return n;
    }

    /** Go's strings.SplitN (genSplit); n < 0 is all, n == 0 an empty list. */
    static List<String> split(String s, String sep, long n) {
        List<String> out = new ArrayList<>();
        if (n == 0) {
            return out;
        }
        if (sep.isEmpty()) {
            // explode: one string per rune, the last one holding the rest
            int l = s.codePointCount(0, s.length());
            long parts = n < 0 || n > l ? l : n;
            int at = 0;
            for (long i = 0; i < parts - 1; i++) {
                int next = at + Character.charCount(s.codePointAt(at));
                out.add(s.substring(at, next));
                at = next;
            }
            if (parts > 0) {
                out.add(s.substring(at));
            }
            return out;
        }
        if (n < 0) {
            n = count(s, sep) + 1;
        }
        String rest = s;
        for (long i = 0; i < n - 1; i++) {
            int m = rest.indexOf(sep);
            if (m < 0) {
                break;
            }
            out.add(rest.substring(0, m));
            rest = rest.substring(m + sep.length());
        }
        out.add(rest);
        return out;
    }

    /** ext/strings.go substr. */
    static String substring(String str, long start) throws CelEvaluationException {
        int[] runes = str.codePoints().toArray();
        if (start < 0 || start > runes.length) {
            throw error("index out of range: " + start);
        }
        return new String(runes, (int) start, runes.length - (int) start);
    }

    /** ext/strings.go substrRange: the range order first, then the start, then the end. */
    static String substring(String str, long start, long end) throws CelEvaluationException {
        int[] runes = str.codePoints().toArray();
        if (start > end) {
            throw error("invalid substring range. start: " + start + ", end: " + end);
        }
        if (start < 0 || start > runes.length) {
            throw error("index out of range: " + start);
        }
        if (end < 0 || end > runes.length) {
            throw error("index out of range: " + end);
        }
        return new String(runes, (int) start, (int) (end - start));
    }

    /** Go's unicode.IsSpace: Latin-1 spaces and the Unicode White_Space property (no zero-width spaces). */
    static boolean isGoSpace(int r) {
        if (r <= 0xff) {
            return r == '\t' || r == '\n' || r == 0x0b || r == '\f' || r == '\r' || r == ' ' || r == 0x85 || r == 0xa0;
        }
        return r == 0x1680 || (r >= 0x2000 && r <= 0x200a) || r == 0x2028 || r == 0x2029 || r == 0x202f
                || r == 0x205f || r == 0x3000;
    }

    /** Go's strings.TrimSpace. */
    static String trimSpace(String s) {
        int start = 0;
        int end = s.length();
        while (start < end && isGoSpace(s.codePointAt(start))) {
            start += Character.charCount(s.codePointAt(start));
        }
        while (end > start && isGoSpace(s.codePointBefore(end))) {
            end -= Character.charCount(s.codePointBefore(end));
        }
        return s.substring(start, end);
    }

    /** ext/strings.go joinValSeparator: every element must be a string. */
    static String join(List<?> list, String separator) throws CelEvaluationException {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < list.size(); i++) {
            if (i != 0) {
                b.append(separator);
            }
            Object elem = list.get(i);
            if (!(elem instanceof String s)) {
                throw error("join: invalid input: " + StringFormat.goValue(elem));
            }
            b.append(s);
        }
        return b.toString();
    }

    /** ext/strings.go quote: CEL escapes; a lone surrogate (Go: invalid UTF-8) becomes U+FFFD. */
    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        s.codePoints().forEach(c -> {
            if (Character.isSurrogate((char) c) && c <= 0xffff) {
                c = 0xfffd;
            }
            switch (c) {
                case 7 -> b.append("\\a");
                case 8 -> b.append("\\b");
                case 12 -> b.append("\\f");
                case 10 -> b.append("\\n");
                case 13 -> b.append("\\r");
                case 9 -> b.append("\\t");
                case 11 -> b.append("\\v");
                case '\\' -> b.append("\\\\");
                case '"' -> b.append("\\\"");
                default -> b.appendCodePoint(c);
            }
        });
        return b.append('"').toString();
    }
}

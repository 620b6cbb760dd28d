package dev.policyset.aps.core.importer;

import java.util.regex.Pattern;

/**
 * Kyverno's wildcards ({@code kyverno/kyverno: ext/wildcard/match.go}): {@code *} any characters, {@code ?} one,
 * everything else literal; in Java and as a CEL {@code matches()} regular expression (RE2).
 */
final class Wildcard {
    private Wildcard() {}

    static boolean has(String pattern) {
        return pattern.contains("*") || pattern.contains("?");
    }

    static boolean matches(String pattern, String value) {
        return Pattern.matches(regex(pattern), value);
    }

    /** An anchored regular expression valid in Java and RE2. */
    static String regex(String pattern) {
        StringBuilder b = new StringBuilder("^");
        for (char c : pattern.toCharArray()) {
            if (c == '*') {
                b.append(".*");
            } else if (c == '?') {
                b.append('.');
            } else if ("\\.[]{}()+^$|".indexOf(c) >= 0) {
                b.append('\\').append(c);
            } else {
                b.append(c);
            }
        }
        return b.append('$').toString();
    }
}

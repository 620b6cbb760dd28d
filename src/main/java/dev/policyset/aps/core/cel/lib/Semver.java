package dev.policyset.aps.core.cel.lib;

import dev.cel.common.types.OpaqueType;
import dev.cel.common.values.OpaqueValue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The {@code kubernetes.Semver} value: a port of {@code github.com/blang/semver/v4} {@code Parse} and
 * {@code Compare} (messages included) and of the Kubernetes {@code normalizeAndParse}. Equality and
 * comparison ignore build metadata.
 */
public final class Semver extends OpaqueValue implements Comparable<Semver> {
    private static final BigInteger UINT64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private final long major;
    private final long minor;
    private final long patch;
    private final List<Object> pre; // Long (numeric, unsigned) or String
    private final List<String> build;

    private Semver(long major, long minor, long patch, List<Object> pre, List<String> build) {
        this.major = major;
        this.minor = minor;
        this.patch = patch;
        this.pre = pre;
        this.build = build;
    }

    /** A parse failure with blang/semver's message. */
    static final class ParseException extends Exception {
        ParseException(String message) {
            super(message);
        }
    }

    /** blang/semver {@code Parse}. */
    static Semver parse(String s) throws ParseException {
        if (s.isEmpty()) {
            throw new ParseException("Version string empty");
        }
        String[] parts = s.split("\\.", 3);
        if (parts.length != 3) {
            throw new ParseException("No Major.Minor.Patch elements found");
        }
        long major = number(parts[0], "major", "Major");
        long minor = number(parts[1], "minor", "Minor");
        String patchStr = parts[2];
        List<String> buildParts = new ArrayList<>();
        List<String> preParts = new ArrayList<>();
        int plus = patchStr.indexOf('+');
        if (plus >= 0) {
            buildParts = List.of(patchStr.substring(plus + 1).split("\\.", -1));
            patchStr = patchStr.substring(0, plus);
        }
        int dash = patchStr.indexOf('-');
        if (dash >= 0) {
            preParts = List.of(patchStr.substring(dash + 1).split("\\.", -1));
            patchStr = patchStr.substring(0, dash);
        }
        long patch = number(patchStr, "patch", "Patch");
        List<Object> pre = new ArrayList<>();
        for (String p : preParts) {
            if (p.isEmpty()) {
                throw new ParseException("Prerelease is empty");
            }
            if (onlyDigits(p)) {
                if (p.length() > 1 && p.charAt(0) == '0') {
                    throw new ParseException("Numeric PreRelease version must not contain leading zeroes " + GoUrl.quote(p));
                }
                pre.add(parseUint(p));
            } else if (onlyAlphanum(p)) {
                pre.add(p);
            } else {
                throw new ParseException("Invalid character(s) found in prerelease " + GoUrl.quote(p));
            }
        }
        for (String b : buildParts) {
            if (b.isEmpty()) {
                throw new ParseException("Build meta data is empty");
            }
            if (!onlyAlphanum(b)) {
                throw new ParseException("Invalid character(s) found in build meta data " + GoUrl.quote(b));
            }
        }
        return new Semver(major, minor, patch, List.copyOf(pre), List.copyOf(buildParts));
    }

    private static long number(String s, String lower, String title) throws ParseException {
        if (!onlyDigits(s)) {
            throw new ParseException("Invalid character(s) found in " + lower + " number " + GoUrl.quote(s));
        }
        if (s.length() > 1 && s.charAt(0) == '0') {
            throw new ParseException(title + " number must not contain leading zeroes " + GoUrl.quote(s));
        }
        return parseUint(s);
    }

    private static long parseUint(String s) throws ParseException {
        if (s.isEmpty()) {
            throw new ParseException("strconv.ParseUint: parsing \"\": invalid syntax");
        }
        BigInteger v = new BigInteger(s);
        if (v.compareTo(UINT64_MAX) > 0) {
            throw new ParseException("strconv.ParseUint: parsing " + GoUrl.quote(s) + ": value out of range");
        }
        return v.longValue();
    }

    private static boolean onlyDigits(String s) {
        return s.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    private static boolean onlyAlphanum(String s) {
        return s.chars().allMatch(c -> c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-');
    }

    /** Kubernetes {@code normalizeAndParse}: drop one leading 'v', strip leading zeros, pad to three parts. */
    static Semver normalizeAndParse(String s) throws ParseException {
        if (s.startsWith("v")) {
            s = s.substring(1);
        }
        List<String> parts = new ArrayList<>(List.of(s.split("\\.", 3)));
        if (s.isEmpty()) {
            parts = new ArrayList<>(List.of(""));
        }
        for (int i = 0; i < parts.size(); i++) {
            String p = parts.get(i);
            if (p.length() > 1) {
                int k = 0;
                while (k < p.length() && p.charAt(k) == '0') {
                    k++;
                }
                p = p.substring(k);
                if (p.isEmpty() || "0123456789".indexOf(p.charAt(0)) < 0) {
                    p = "0" + p;
                }
                parts.set(i, p);
            }
        }
        if (parts.size() < 3) {
            String last = parts.get(parts.size() - 1);
            if (last.indexOf('+') >= 0 || last.indexOf('-') >= 0) {
                throw new ParseException("short version cannot contain PreRelease/Build meta data");
            }
            while (parts.size() < 3) {
                parts.add("0");
            }
        }
        return parse(String.join(".", parts));
    }

    long major() {
        return major;
    }

    long minor() {
        return minor;
    }

    long patch() {
        return patch;
    }

    @Override
    public int compareTo(Semver o) {
        int c = Long.compareUnsigned(major, o.major);
        if (c == 0) {
            c = Long.compareUnsigned(minor, o.minor);
        }
        if (c == 0) {
            c = Long.compareUnsigned(patch, o.patch);
        }
        if (c != 0) {
            return Integer.signum(c);
        }
        if (pre.isEmpty() || o.pre.isEmpty()) {
            return pre.isEmpty() == o.pre.isEmpty() ? 0 : pre.isEmpty() ? 1 : -1;
        }
        int i = 0;
        for (; i < pre.size() && i < o.pre.size(); i++) {
            int pc = comparePre(pre.get(i), o.pre.get(i));
            if (pc != 0) {
                return pc;
            }
        }
        if (i == pre.size() && i == o.pre.size()) {
            return 0;
        }
        return i == pre.size() ? -1 : 1;
    }

    private static int comparePre(Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) {
            return Integer.signum(Long.compareUnsigned(x, y));
        }
        if (a instanceof Long) {
            return -1;
        }
        if (b instanceof Long) {
            return 1;
        }
        return Integer.signum(((String) a).compareTo((String) b));
    }

    /** A CelValue so that cel-java's {@code type()} reports the library type. */
    @Override
    public Object value() {
        return this;
    }

    @Override
    public OpaqueType celType() {
        return SemverLibrary.SEMVER_TYPE;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Semver s && compareTo(s) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(major, minor, patch, pre);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder().append(Long.toUnsignedString(major)).append('.')
                .append(Long.toUnsignedString(minor)).append('.').append(Long.toUnsignedString(patch));
        if (!pre.isEmpty()) {
            sb.append('-').append(String.join(".", pre.stream().map(p -> p instanceof Long l ? Long.toUnsignedString(l) : (String) p).toList()));
        }
        if (!build.isEmpty()) {
            sb.append('+').append(String.join(".", build));
        }
        return sb.toString();
    }
}

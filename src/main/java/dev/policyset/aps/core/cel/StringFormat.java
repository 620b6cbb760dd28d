package dev.policyset.aps.core.cel;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * cel-go's {@code string.format} as Kubernetes has it: strings extension version 2, which uses the legacy
 * formatter ({@code ext/formatting.go}, before version 4) with the default {@code en_US} locale. cel-java
 * has no {@code format}; this is a faithful port of the observable behaviour:
 *
 * <ul>
 *   <li>{@code %s}: strings as is, {@code null}, types by name, timestamps RFC 3339, doubles like Go {@code %g};
 *       inside lists and maps strings are quoted, doubles print as {@code %f}, bytes as {@code b"..."},
 *       durations and timestamps as {@code duration("...")} / {@code timestamp("...")}, map keys sorted;</li>
 *   <li>{@code %d} integers; {@code %f}/{@code %e} doubles (or the strings NaN/Infinity/-Infinity), rounded on
 *       the exact binary value like Go, {@code %e} printed by golang.org/x/text ({@code 2.718280 × 10⁰⁰});</li>
 *   <li>{@code %b} integers and bools, {@code %o} integers, {@code %x}/{@code %X} integers, strings and bytes;</li>
 *   <li>{@code %%} is a percent sign; anything else is {@code unrecognized formatting clause}.</li>
 * </ul>
 *
 * The same clause checks run at compile time ({@link #checkClauses}) when the format string is a literal
 * and the arguments a list literal, with the wording cel-go's validator uses.
 */
final class StringFormat {
    private StringFormat() {
    }

    /** A formatting error; the message is cel-go's. */
    static final class FormatException extends RuntimeException {
        FormatException(String message) {
            super(message);
        }
    }

    /** One {@code %} clause: its verb and precision (-1 when absent). */
    record Clause(char verb, int precision) {
    }

    /** The clauses of a format string, in order; throws on an unrecognized one. */
    static List<Clause> parse(String format) {
        List<Clause> clauses = new ArrayList<>();
        int i = 0;
        while (i < format.length()) {
            char c = format.charAt(i++);
            if (c != '%') {
                continue;
            }
            if (i >= format.length()) {
                throw new FormatException("could not parse formatting clause: unexpected end of string");
            }
            if (format.charAt(i) == '%') {
                i++;
                continue;
            }
            int precision = -1;
            if (format.charAt(i) == '.') {
                i++;
                int start = i;
                while (i < format.length() && Character.isDigit(format.charAt(i))) {
                    i++;
                }
                if (start == i) {
                    throw new FormatException("could not parse formatting clause: unable to find end of precision specifier");
                }
                precision = Integer.parseInt(format.substring(start, i));
            }
            if (i >= format.length()) {
                throw new FormatException("could not parse formatting clause: unable to find end of precision specifier");
            }
            char verb = format.charAt(i++);
            if ("sdfeboxX".indexOf(verb) < 0) {
                throw new FormatException("could not parse formatting clause: unrecognized formatting clause \"" + verb + "\"");
            }
            clauses.add(new Clause(verb, precision));
        }
        return clauses;
    }

    /**
     * Compile-time check of literal arguments: the error message, or empty. A {@code dyn} argument is
     * checked only when evaluated.
     */
    static Optional<String> checkClauses(String format, List<CelType> argTypes) {
        List<Clause> clauses;
        try {
            clauses = parse(format);
        } catch (FormatException e) {
            return Optional.of(e.getMessage());
        }
        for (int i = 0; i < clauses.size() && i < argTypes.size(); i++) {
            Optional<String> error = checkType(clauses.get(i).verb(), argTypes.get(i));
            if (error.isPresent()) {
                return error;
            }
        }
        if (clauses.size() < argTypes.size()) {
            return Optional.of("too many arguments supplied to string.format (expected " + clauses.size()
                    + ", got " + argTypes.size() + ")");
        }
        if (clauses.size() > argTypes.size()) {
            return Optional.of("index " + argTypes.size() + " out of range");
        }
        return Optional.empty();
    }

    private static Optional<String> checkType(char verb, CelType type) {
        CelKind kind = type.kind();
        if (kind == CelKind.DYN || kind == CelKind.ANY || kind == CelKind.TYPE_PARAM) {
            return Optional.empty();
        }
        String name = KubeCelTypes.format(type);
        boolean integer = kind == CelKind.INT || kind == CelKind.UINT;
        return switch (verb) {
            case 'd' -> integer ? Optional.empty()
                    : Optional.of("decimal clause can only be used on integers, was given " + name);
            case 'o' -> integer ? Optional.empty()
                    : Optional.of("octal clause can only be used on integers, was given " + name);
            case 'b' -> integer || kind == CelKind.BOOL ? Optional.empty()
                    : Optional.of("only integers and bools can be formatted as binary, was given " + name);
            case 'x', 'X' -> integer || kind == CelKind.STRING || kind == CelKind.BYTES ? Optional.empty()
                    : Optional.of("only integers, byte buffers, and strings can be formatted as hex, was given " + name);
            case 'f' -> kind == CelKind.DOUBLE || kind == CelKind.STRING ? Optional.empty()
                    : Optional.of("fixed-point clause can only be used on doubles, was given " + name);
            case 'e' -> kind == CelKind.DOUBLE || kind == CelKind.STRING ? Optional.empty()
                    : Optional.of("scientific clause can only be used on doubles, was given " + name);
            default -> Optional.empty();
        };
    }

    /** Formats at run time; the arguments are CEL runtime values. */
    static String format(String format, List<?> args) {
        StringBuilder out = new StringBuilder();
        int argIndex = 0;
        int i = 0;
        while (i < format.length()) {
            char c = format.charAt(i++);
            if (c != '%') {
                out.append(c);
                continue;
            }
            if (i < format.length() && format.charAt(i) == '%') {
                out.append('%');
                i++;
                continue;
            }
            int precision = -1;
            if (i < format.length() && format.charAt(i) == '.') {
                i++;
                int start = i;
                while (i < format.length() && Character.isDigit(format.charAt(i))) {
                    i++;
                }
                if (start == i) {
                    throw new FormatException("could not parse formatting clause: unable to find end of precision specifier");
                }
                precision = Integer.parseInt(format.substring(start, i));
            }
            if (i >= format.length()) {
                throw new FormatException("could not parse formatting clause: unexpected end of string");
            }
            char verb = format.charAt(i++);
            if ("sdfeboxX".indexOf(verb) < 0) {
                throw new FormatException("could not parse formatting clause: unrecognized formatting clause \"" + verb + "\"");
            }
            if (argIndex >= args.size()) {
                throw new FormatException("index " + argIndex + " out of range");
            }
            Object arg = args.get(argIndex++);
            out.append(formatClause(verb, precision, arg));
        }
        return out.toString();
    }

    private static String formatClause(char verb, int precision, Object arg) {
        switch (verb) {
            case 's':
                return asString(arg);
            case 'd':
                if (arg instanceof Long || arg instanceof UnsignedLong) {
                    return arg.toString();
                }
                throw new FormatException("error during formatting: decimal clause can only be used on integers, was given " + typeName(arg));
            case 'o':
                if (arg instanceof Long l) {
                    return l < 0 ? "-" + Long.toOctalString(-l) : Long.toOctalString(l);
                }
                if (arg instanceof UnsignedLong u) {
                    return u.bigIntegerValue().toString(8);
                }
                throw new FormatException("error during formatting: octal clause can only be used on integers, was given " + typeName(arg));
            case 'b':
                if (arg instanceof Long l) {
                    return l < 0 ? "-" + Long.toBinaryString(-l) : Long.toBinaryString(l);
                }
                if (arg instanceof UnsignedLong u) {
                    return u.bigIntegerValue().toString(2);
                }
                if (arg instanceof Boolean b) {
                    return b ? "1" : "0";
                }
                throw new FormatException("error during formatting: only integers and bools can be formatted as binary, was given " + typeName(arg));
            case 'x':
            case 'X': {
                String hex;
                if (arg instanceof Long l) {
                    hex = l < 0 ? "-" + BigInteger.valueOf(l).negate().toString(16) : Long.toHexString(l);
                } else if (arg instanceof UnsignedLong u) {
                    hex = u.bigIntegerValue().toString(16);
                } else if (arg instanceof String s) {
                    hex = hex(s.getBytes(StandardCharsets.UTF_8));
                } else if (isBytes(arg)) {
                    hex = hex(bytes(arg));
                } else {
                    throw new FormatException("error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given " + typeName(arg));
                }
                return verb == 'X' ? hex.toUpperCase(java.util.Locale.ROOT) : hex;
            }
            case 'f':
            case 'e': {
                double d;
                if (arg instanceof Double dd) {
                    d = dd;
                } else if (arg instanceof String s && (s.equals("NaN") || s.equals("Infinity") || s.equals("-Infinity"))) {
                    d = Double.parseDouble(s);
                } else {
                    String clause = verb == 'f' ? "fixed-point clause" : "scientific clause";
                    throw new FormatException("error during formatting: " + clause + " can only be used on doubles, was given " + typeName(arg));
                }
                int p = precision < 0 ? 6 : precision;
                return verb == 'f' ? fixed(d, p) : scientific(d, p);
            }
            default:
                throw new FormatException("unrecognized formatting clause \"" + verb + "\"");
        }
    }

    /** {@code %f} through x/text's English printer: grouped thousands, NaN, ∞. */
    static String fixed(double d, int precision) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "∞" : "-∞";
        }
        BigDecimal value = new BigDecimal(d).setScale(precision, RoundingMode.HALF_EVEN);
        String plain = value.abs().toPlainString();
        int dot = plain.indexOf('.');
        String intPart = dot < 0 ? plain : plain.substring(0, dot);
        String frac = dot < 0 ? "" : plain.substring(dot);
        StringBuilder grouped = new StringBuilder();
        for (int k = 0; k < intPart.length(); k++) {
            if (k > 0 && (intPart.length() - k) % 3 == 0) {
                grouped.append(',');
            }
            grouped.append(intPart.charAt(k));
        }
        return (value.signum() < 0 ? "-" : "") + grouped + frac;
    }

    private static final String SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹";

    /**
     * {@code %e} as kube-apiserver 1.37.2 prints it (cel-go's strings extension through golang.org/x/text, as
     * vendored there; measured on the real server by CelDifferentialRealServerTest): {@code 2.718280×10⁰⁰}, no space
     * around the sign, always six decimals whatever precision the clause asks for ({@code '%.2e'} and {@code '%.10e'}
     * print six too), and NaN and the infinities right-aligned to six characters ({@code "     ∞"}). cel-go's own
     * tests expect narrow no-break spaces around the sign, which a newer x/text writes; the server does not.
     */
    static String scientific(double d, int ignoredPrecision) {
        int precision = 6;
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            String special = Double.isNaN(d) ? "NaN" : d > 0 ? "∞" : "-∞";
            return " ".repeat(6 - special.codePointCount(0, special.length())) + special;
        }
        int exponent = 0;
        BigDecimal mantissa = BigDecimal.ZERO;
        if (d != 0) {
            BigDecimal exact = new BigDecimal(d).abs();
            exponent = exact.precision() - exact.scale() - 1;
            mantissa = exact.movePointLeft(exponent).setScale(precision, RoundingMode.HALF_EVEN);
            if (mantissa.compareTo(BigDecimal.TEN) >= 0) {
                exponent++;
                mantissa = exact.movePointLeft(exponent).setScale(precision, RoundingMode.HALF_EVEN);
            }
        } else {
            mantissa = mantissa.setScale(precision);
        }
        StringBuilder exp = new StringBuilder();
        if (exponent < 0) {
            exp.append('⁻');
        }
        String digits = Integer.toString(Math.abs(exponent));
        if (digits.length() < 2) {
            digits = "0" + digits;
        }
        for (char ch : digits.toCharArray()) {
            exp.append(SUPERSCRIPT.charAt(ch - '0'));
        }
        return (d < 0 ? "-" : "") + mantissa.toPlainString() + "×10" + exp;
    }

    /** {@code %s} of a top-level argument. */
    static String asString(Object arg) {
        if (arg instanceof String s) {
            return s;
        }
        if (arg instanceof Double d) {
            return goFloatG(d);
        }
        if (arg instanceof Instant t) {
            return timestamp(t);
        }
        if (arg instanceof Duration d) {
            return duration(d);
        }
        if (isBytes(arg)) {
            return new String(bytes(arg), StandardCharsets.UTF_8);
        }
        return nested(arg);
    }

    /** A value inside a list or map, as the legacy formatter prints it. */
    private static String nested(Object v) {
        if (v == null || isNull(v)) {
            return "null";
        }
        if (v instanceof String s) {
            return Strings.quote(s);
        }
        if (v instanceof Double d) {
            return nestedDouble(d);
        }
        if (v instanceof Boolean || v instanceof Long || v instanceof UnsignedLong) {
            return v.toString();
        }
        if (v instanceof Instant t) {
            return "timestamp(\"" + timestamp(t) + "\")";
        }
        if (v instanceof Duration d) {
            return "duration(\"" + duration(d) + "\")";
        }
        if (isBytes(v)) {
            // quoteForCEL: b%q of the bytes as a string
            return "b" + Strings.quote(new String(bytes(v), StandardCharsets.UTF_8));
        }
        if (v instanceof CelType t) {
            return typeValueName(t);
        }
        if (v instanceof List<?> list) {
            StringBuilder sb = new StringBuilder("[");
            for (int i = 0; i < list.size(); i++) {
                sb.append(i == 0 ? "" : ", ").append(nested(list.get(i)));
            }
            return sb.append(']').toString();
        }
        if (v instanceof Map<?, ?> map) {
            // formatMap: sort.SliceStable by the quoted key, compared as Go compares strings (UTF-8 bytes)
            List<String[]> pairs = new java.util.ArrayList<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                pairs.add(new String[] {nested(e.getKey()), nested(e.getValue())});
            }
            pairs.sort((a, b) -> java.util.Arrays.compareUnsigned(a[0].getBytes(StandardCharsets.UTF_8),
                    b[0].getBytes(StandardCharsets.UTF_8)));
            StringBuilder sb = new StringBuilder("{");
            for (int i = 0; i < pairs.size(); i++) {
                sb.append(i == 0 ? "" : ", ").append(pairs.get(i)[0]).append(':').append(pairs.get(i)[1]);
            }
            return sb.append('}').toString();
        }
        // cel-go ext/formatting.go: anything else (optional, Quantity, IP, URL, ...) cannot be formatted, at the top
        // level or nested (formatting_test.go TestStringFormat "object not allowed", "object inside list")
        throw new FormatException("error during formatting: string clause can only be used on strings, bools, bytes,"
                + " ints, doubles, maps, lists, types, durations, and timestamps, was given " + typeName(v));
    }

    /**
     * A double inside a list or map: cel-go's legacy {@code clauseForType} prints {@code %.6f} (never grouped),
     * and {@code quoteForCEL} quotes infinities and NaN ({@code "+Inf"}, {@code "-Inf"}, {@code "NaN"}).
     */
    static String nestedDouble(double d) {
        if (Double.isNaN(d)) {
            return "\"NaN\"";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "\"+Inf\"" : "\"-Inf\"";
        }
        boolean negative = d < 0 || (d == 0 && 1 / d < 0);
        return (negative ? "-" : "") + new BigDecimal(Math.abs(d)).setScale(6, RoundingMode.HALF_EVEN).toPlainString();
    }

    /** A type value ({@code type('x')} is {@code string}). */
    private static String typeValueName(CelType t) {
        if (t.kind() == CelKind.TYPE && !t.parameters().isEmpty()) {
            CelType inner = t.parameters().get(0);
            return switch (inner.kind()) {
                case LIST -> "list";
                case MAP -> "map";
                default -> inner.name();
            };
        }
        return t.name();
    }

    /** Go's {@code time.RFC3339Nano} in UTC: the fraction with trailing zeros dropped. */
    static String timestamp(Instant t) {
        String base = DateTimeFormatter.ISO_INSTANT.format(Instant.ofEpochSecond(t.getEpochSecond()));
        if (t.getNano() == 0) {
            return base;
        }
        String fraction = String.format("%09d", t.getNano()).replaceFirst("0+$", "");
        return base.substring(0, base.length() - 1) + "." + fraction + "Z";
    }

    /** Go's protobuf duration text: seconds with up to 9 fractional digits, trailing zeros dropped. */
    static String duration(Duration d) {
        BigDecimal seconds = BigDecimal.valueOf(d.getSeconds()).add(BigDecimal.valueOf(d.getNano(), 9));
        String s = seconds.stripTrailingZeros().toPlainString();
        return s + "s";
    }

    /** Go's {@code strconv.FormatFloat(d, 'g', -1, 64)}, the shortest representation. */
    static String goFloatG(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "+Inf" : "-Inf";
        }
        if (d == 0) {
            return (1 / d < 0) ? "-0" : "0";
        }
        BigDecimal shortest = new BigDecimal(Double.toString(Math.abs(d))).stripTrailingZeros();
        String digits = shortest.unscaledValue().toString();
        int exp = digits.length() - 1 - shortest.scale();
        String sign = d < 0 ? "-" : "";
        // strconv: with the shortest precision, %e is used from exponent 6 (fmt.Println(1e6) is "1e+06")
        if (exp < -4 || exp >= 6) {
            String mant = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            String e = Integer.toString(Math.abs(exp));
            return sign + mant + "e" + (exp < 0 ? "-" : "+") + (e.length() < 2 ? "0" + e : e);
        }
        return sign + shortest.toPlainString();
    }

    private static String typeName(Object v) {
        if (v instanceof Long) {
            return "int";
        }
        if (v instanceof UnsignedLong) {
            return "uint";
        }
        if (v instanceof Double) {
            return "double";
        }
        if (v instanceof String) {
            return "string";
        }
        if (v instanceof Boolean) {
            return "bool";
        }
        if (isBytes(v)) {
            return "bytes";
        }
        if (v instanceof Duration) {
            return "google.protobuf.Duration";
        }
        if (v instanceof Instant) {
            return "google.protobuf.Timestamp";
        }
        if (v instanceof List) {
            return "list";
        }
        if (v instanceof Map) {
            return "map";
        }
        if (v == null || isNull(v)) {
            return "null_type";
        }
        if (v instanceof CelType) {
            return "type";
        }
        if (v instanceof Optional<?>) {
            return "optional_type";
        }
        if (v instanceof dev.cel.common.values.CelValue c) {
            return c.celType().name();
        }
        return v.getClass().getSimpleName();
    }

    static boolean isNull(Object v) {
        return v != null && v.getClass().getSimpleName().equals("NullValue");
    }

    static boolean isBytes(Object v) {
        return v instanceof com.google.protobuf.ByteString || v instanceof dev.cel.common.values.CelByteString;
    }

    static byte[] bytes(Object v) {
        if (v instanceof com.google.protobuf.ByteString b) {
            return b.toByteArray();
        }
        return ((dev.cel.common.values.CelByteString) v).toByteArray();
    }

    private static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder();
        for (byte b : bytes) {
            sb.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        return sb.toString();
    }

    /** Go's {@code strconv.Quote}-like quoting used by {@code %s} for nested strings. */
    static final class Strings {
        private Strings() {
        }

        static String quote(String s) {
            StringBuilder sb = new StringBuilder("\"");
            s.codePoints().forEach(cp -> {
                switch (cp) {
                    case '"' -> sb.append("\\\"");
                    case '\\' -> sb.append("\\\\");
                    case '\n' -> sb.append("\\n");
                    case '\r' -> sb.append("\\r");
                    case '\t' -> sb.append("\\t");
                    case 0x07 -> sb.append("\\a");
                    case '\b' -> sb.append("\\b");
                    case '\f' -> sb.append("\\f");
                    case 0x0B -> sb.append("\\v");
                    default -> {
                        if (cp < 0x20 || cp == 0x7F) {
                            sb.append(String.format("\\x%02x", cp));
                        } else if (Character.isSurrogate((char) cp) && cp <= 0xFFFF) {
                            sb.append("\\ufffd"); // not valid UTF-8: Go has U+FFFD, which it escapes
                        } else if (!isGoPrint(cp)) {
                            sb.append(cp <= 0xFFFF ? String.format("\\u%04x", cp) : String.format("\\U%08x", cp));
                        } else {
                            sb.appendCodePoint(cp);
                        }
                    }
                }
            });
            return sb.append('"').toString();
        }

        /** Go's {@code strconv.IsPrint}: letters, marks, numbers, punctuation, symbols and the ASCII space. */
        static boolean isGoPrint(int cp) {
            if (cp == ' ') {
                return true;
            }
            return switch (Character.getType(cp)) {
                case Character.UPPERCASE_LETTER, Character.LOWERCASE_LETTER, Character.TITLECASE_LETTER,
                        Character.MODIFIER_LETTER, Character.OTHER_LETTER, Character.NON_SPACING_MARK,
                        Character.ENCLOSING_MARK, Character.COMBINING_SPACING_MARK, Character.DECIMAL_DIGIT_NUMBER,
                        Character.LETTER_NUMBER, Character.OTHER_NUMBER, Character.CONNECTOR_PUNCTUATION,
                        Character.DASH_PUNCTUATION, Character.START_PUNCTUATION, Character.END_PUNCTUATION,
                        Character.INITIAL_QUOTE_PUNCTUATION, Character.FINAL_QUOTE_PUNCTUATION,
                        Character.OTHER_PUNCTUATION, Character.MATH_SYMBOL, Character.CURRENCY_SYMBOL,
                        Character.MODIFIER_SYMBOL, Character.OTHER_SYMBOL -> true;
                default -> false;
            };
        }
    }

    /** Go's {@code %v} of a CEL value in an error message ({@code join: invalid input: 1}). */
    static String goValue(Object v) {
        if (v == null || isNull(v)) {
            return "NULL_VALUE";
        }
        if (v instanceof Double d) {
            return goFloatG(d);
        }
        return v.toString();
    }
}

package dev.policyset.aps.core.cel;

import com.google.common.primitives.UnsignedLong;
import dev.cel.runtime.CelEvaluationException;

import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * cel-go's conversions from strings ({@code common/types/string.go String.ConvertToType}, which calls Go's
 * {@code strconv} and {@code time} parsers) and its timestamp/duration accessors
 * ({@code common/types/timestamp.go}, {@code duration.go}), where cel-java's Java parsers accept or reject
 * other strings: {@code double(' 1')} or {@code double('1d')} (Java accepts, Go does not), {@code double('inf')}
 * (Go accepts), {@code int('٣')} (Java reads Unicode digits), {@code bool('T')} (Go accepts), a time zone
 * {@code '+0530'} (Java accepts, Go does not), {@code duration.getMilliseconds()} (Go: the whole duration in ms).
 */
final class GoConversions {
    private GoConversions() {
    }

    private static CelEvaluationException conversionError(String target) {
        return new CelEvaluationException("type conversion error from 'string' to '" + target + "'");
    }

    /** strconv.ParseBool. */
    static Object toBool(String s) throws CelEvaluationException {
        return switch (s) {
            case "1", "t", "T", "TRUE", "true", "True" -> true;
            case "0", "f", "F", "FALSE", "false", "False" -> false;
            default -> throw conversionError("bool");
        };
    }

    private static final Pattern DECIMAL_INT = Pattern.compile("[+-]?[0-9]+");
    private static final Pattern DECIMAL_UINT = Pattern.compile("[0-9]+");

    /** strconv.ParseInt(s, 10, 64): ASCII digits only, an optional sign. */
    static Object toInt(String s) throws CelEvaluationException {
        if (!DECIMAL_INT.matcher(s).matches()) {
            throw conversionError("int");
        }
        BigInteger v = new BigInteger(s);
        if (v.bitLength() > 63) {
            throw conversionError("int");
        }
        return v.longValue();
    }

    /** strconv.ParseUint(s, 10, 64): ASCII digits only, no sign. */
    static Object toUint(String s) throws CelEvaluationException {
        if (!DECIMAL_UINT.matcher(s).matches()) {
            throw conversionError("uint");
        }
        BigInteger v = new BigInteger(s);
        if (v.bitLength() > 64) {
            throw conversionError("uint");
        }
        return UnsignedLong.valueOf(v);
    }

    private static final Pattern GO_DECIMAL_FLOAT = Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");
    private static final Pattern GO_HEX_FLOAT =
            Pattern.compile("[+-]?0[xX](_?[0-9a-fA-F])*(\\.[0-9a-fA-F_]*)?[pP][+-]?[0-9]+");

    /**
     * strconv.ParseFloat(s, 64): decimal and hexadecimal (with a {@code p} exponent) forms, {@code inf},
     * {@code infinity} and {@code nan} in any case (a sign only before the infinities); no spaces, no Java
     * suffixes ({@code 1d}); a value out of range is an error.
     */
    static Object toDouble(String s) throws CelEvaluationException {
        String lower = s.toLowerCase(Locale.ROOT);
        switch (lower) {
            case "nan":
                return Double.NaN;
            case "inf", "+inf", "infinity", "+infinity":
                return Double.POSITIVE_INFINITY;
            case "-inf", "-infinity":
                return Double.NEGATIVE_INFINITY;
            default:
                break;
        }
        double d;
        if (GO_DECIMAL_FLOAT.matcher(s).matches()) {
            d = Double.parseDouble(s);
        } else if (GO_HEX_FLOAT.matcher(s).matches() && !s.contains("__") && !s.endsWith("_")) {
            d = Double.parseDouble(s.replace("_", ""));
        } else {
            throw conversionError("double");
        }
        if (Double.isInfinite(d)) {
            throw conversionError("double"); // strconv.ErrRange
        }
        return d;
    }

    private static final Pattern DURATION_PART = Pattern.compile("([0-9]*)(\\.[0-9]*)?(ns|us|µs|μs|ms|s|m|h)");

    /** time.ParseDuration, with its range (about ±292 years) and syntax. */
    static Object toDuration(String text) throws CelEvaluationException {
        Duration d = parseGoDuration(text);
        if (d == null) {
            throw conversionError("google.protobuf.Duration");
        }
        return d;
    }

    /** time.ParseDuration; {@code null} when Go refuses the text. */
    static Duration parseGoDuration(String text) {
        String s = text;
        boolean negative = false;
        if (!s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
            negative = s.charAt(0) == '-';
            s = s.substring(1);
        }
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        if (s.isEmpty()) {
            return null;
        }
        BigInteger totalNanos = BigInteger.ZERO;
        Matcher m = DURATION_PART.matcher(s);
        int at = 0;
        while (at < s.length()) {
            if (!m.find(at) || m.start() != at) {
                return null;
            }
            String whole = m.group(1);
            String frac = m.group(2) == null ? "" : m.group(2).substring(1);
            if (whole.isEmpty() && frac.isEmpty()) {
                return null; // "no digits", as ".s" in Go
            }
            BigInteger unit = BigInteger.valueOf(switch (m.group(3)) {
                case "ns" -> 1L;
                case "us", "µs", "μs" -> 1_000L;
                case "ms" -> 1_000_000L;
                case "s" -> 1_000_000_000L;
                case "m" -> 60_000_000_000L;
                default -> 3_600_000_000_000L;
            });
            java.math.BigDecimal value = new java.math.BigDecimal((whole.isEmpty() ? "0" : whole) + "." + (frac.isEmpty() ? "0" : frac));
            totalNanos = totalNanos.add(value.multiply(new java.math.BigDecimal(unit)).toBigInteger());
            if (totalNanos.bitLength() > 63) {
                return null; // "invalid duration" (overflow)
            }
            at = m.end();
        }
        long nanos = totalNanos.longValue();
        return Duration.ofNanos(negative ? -nanos : nanos);
    }

    /** cel-go DurationGetMilliseconds: {@code time.Duration.Milliseconds()}, the whole duration. */
    static Object durationMilliseconds(Duration d) {
        return d.toNanos() / 1_000_000L;
    }

    /**
     * cel-go {@code timeZone}: a name for Go's {@code time.LoadLocation} ({@code ""} and {@code UTC} are UTC), or,
     * when it has a colon, {@code [+-]HH:MM} read with {@code strconv.Atoi} on each side. cel-go v0.29
     * (Kubernetes 1.37) also refuses minutes outside [0, 59] (cel-go #1336).
     */
    static ZonedDateTime inZone(Instant t, String tz, boolean checkMinutes) throws CelEvaluationException {
        int colon = tz.indexOf(':');
        if (colon < 0) {
            return t.atZone(loadLocation(tz));
        }
        int hours = atoi(tz.substring(0, colon));
        int minutes = atoi(tz.substring(colon + 1));
        if (checkMinutes && (minutes < 0 || minutes > 59)) {
            throw new CelEvaluationException("timezone offset minutes out of range [0, 59]: " + tz);
        }
        long offsetMinutes = tz.charAt(0) == '-' ? hours * 60L - minutes : hours * 60L + minutes;
        // time.FixedZone accepts any offset; java.time only ±18h, so shift the instant and read it as UTC
        return t.plusSeconds(offsetMinutes * 60).atZone(ZoneOffset.UTC);
    }

    private static final Set<String> JAVA_ONLY_ZONE_FORMS = Set.of("Z");
    private static final Set<String> ZONE_IDS = Set.copyOf(ZoneId.getAvailableZoneIds());

    private static ZoneId loadLocation(String name) throws CelEvaluationException {
        if (name.isEmpty() || name.equals("UTC") || name.equals("Local")) {
            return ZoneOffset.UTC; // a kube-apiserver's Local is UTC in its container image
        }
        if (name.contains("..") || name.startsWith("/") || name.startsWith("\\")) {
            throw new CelEvaluationException("time: invalid location name");
        }
        // Go reads IANA names only; java.time also takes offsets ("+0530", "Z") and prefixes ("UTC+1")
        if (!JAVA_ONLY_ZONE_FORMS.contains(name) && ZONE_IDS.contains(name)) {
            try {
                return ZoneId.of(name);
            } catch (DateTimeException e) {
                // fall through
            }
        }
        throw new CelEvaluationException("unknown time zone " + name);
    }

    /** strconv.Atoi: an optional sign and ASCII digits. */
    private static int atoi(String s) throws CelEvaluationException {
        if (!DECIMAL_INT.matcher(s).matches()) {
            throw new CelEvaluationException("strconv.Atoi: parsing " + goQuote(s) + ": invalid syntax");
        }
        BigInteger v = new BigInteger(s);
        if (v.bitLength() > 63) {
            throw new CelEvaluationException("strconv.Atoi: parsing " + goQuote(s) + ": value out of range");
        }
        return v.intValue();
    }

    private static String goQuote(String s) {
        return StringFormat.Strings.quote(s);
    }

    /** A timestamp accessor with a time zone argument. */
    static Object withZone(Instant t, String tz, boolean checkMinutes, ToLongFunction<ZonedDateTime> field)
            throws CelEvaluationException {
        return field.applyAsLong(inZone(t, tz, checkMinutes));
    }

    // common/types/overflow.go: time arithmetic is checked against Go's int64 nanosecond durations and the
    // timestamp range [0001-01-01, 9999-12-31]; cel-java's durations reach ±10,000 years and never overflow here.
    private static final long MIN_UNIX_TIME = -62135596800L;
    private static final long MAX_UNIX_TIME = 253402300799L;

    private static long nanos(Duration d) throws CelEvaluationException {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            throw new CelEvaluationException("integer overflow");
        }
    }

    /** addDurationChecked. */
    static Object addDurations(Duration a, Duration b) throws CelEvaluationException {
        try {
            return Duration.ofNanos(Math.addExact(nanos(a), nanos(b)));
        } catch (ArithmeticException e) {
            throw new CelEvaluationException("integer overflow");
        }
    }

    /** subtractDurationChecked. */
    static Object subtractDurations(Duration a, Duration b) throws CelEvaluationException {
        try {
            return Duration.ofNanos(Math.subtractExact(nanos(a), nanos(b)));
        } catch (ArithmeticException e) {
            throw new CelEvaluationException("integer overflow");
        }
    }

    /** addTimeDurationChecked. */
    static Object addTimestampDuration(Instant t, Duration d) throws CelEvaluationException {
        Instant sum = t.plusNanos(nanos(d));
        if (sum.getEpochSecond() < MIN_UNIX_TIME || sum.getEpochSecond() > MAX_UNIX_TIME) {
            throw new CelEvaluationException("timestamp overflow");
        }
        return sum;
    }

    /** subtractTimeDurationChecked: the negation first (MinInt64 overflows), then the addition. */
    static Object subtractTimestampDuration(Instant t, Duration d) throws CelEvaluationException {
        long n = nanos(d);
        if (n == Long.MIN_VALUE) {
            throw new CelEvaluationException("integer overflow");
        }
        return addTimestampDuration(t, Duration.ofNanos(-n));
    }

    /** subtractTimeChecked: the difference must be an int64 of nanoseconds. */
    static Object subtractTimestamps(Instant a, Instant b) throws CelEvaluationException {
        return Duration.ofNanos(nanos(Duration.between(b, a)));
    }
}

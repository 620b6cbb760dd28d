package dev.policyset.aps.core.cel.lib;

import dev.cel.common.types.OpaqueType;
import dev.cel.common.values.OpaqueValue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;

/**
 * The {@code kubernetes.Quantity} value: a port of apimachinery's {@code resource.Quantity} numeric core
 * ({@code ParseQuantity}, {@code Add}, {@code Sub}, {@code Cmp}, {@code Sign}, {@code AsInt64},
 * {@code AsApproximateFloat64}). Like Go it keeps either an int64 amount ({@code value × 10^scale}) or an
 * arbitrary-precision decimal; the distinction is visible through {@code isInteger}/{@code asInteger}
 * ({@code '2000m'} and {@code '1.5Gi'} are not "integers" although their values are whole). Immutable.
 */
public final class Quantity extends OpaqueValue implements Comparable<Quantity> {
    static final String FORMAT_WRONG =
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
    static final String NUMERIC = "unable to parse numeric part of quantity";
    static final String SUFFIX = "unable to parse quantity's suffix";

    private static final int NANO = -9;
    private static final int MAX_INT64_FACTORS = 18;
    private static final BigDecimal MAX_ALLOWED = BigDecimal.valueOf(Long.MAX_VALUE);
    private static final Map<String, Integer> DEC_SUFFIXES = Map.of(
            "n", -9, "u", -6, "m", -3, "", 0, "k", 3, "M", 6, "G", 9, "T", 12, "P", 15, "E", 18);
    private static final Map<String, Integer> BIN_SUFFIXES = Map.of(
            "Ki", 10, "Mi", 20, "Gi", 30, "Ti", 40, "Pi", 50, "Ei", 60);

    /** Non-null in decimal form ({@code q.d.Dec != nil}); otherwise {@link #value} and {@link #scale}. */
    private final BigDecimal dec;
    private final long value;
    private final int scale;

    private Quantity(long value, int scale) {
        this.dec = null;
        this.value = value;
        this.scale = scale;
    }

    private Quantity(BigDecimal dec) {
        this.dec = dec;
        this.value = 0;
        this.scale = 0;
    }

    /** A parse failure with apimachinery's message. */
    static final class ParseException extends Exception {
        ParseException(String message) {
            super(message);
        }
    }

    static Quantity ofInt(long v) {
        return new Quantity(v, 0);
    }

    private enum Format { DECIMAL_EXPONENT, DECIMAL_SI, BINARY_SI }

    /** {@code resource.ParseQuantity}. */
    static Quantity parse(String str) throws ParseException {
        if (str.isEmpty()) {
            throw new ParseException(FORMAT_WRONG);
        }
        if (str.equals("0")) {
            return new Quantity(0, 0);
        }
        // parseQuantityString
        boolean positive = true;
        int pos = 0;
        int end = str.length();
        String num = null;
        String denom = "";
        String value = null;
        String suf = null;
        if (str.charAt(0) == '-') {
            positive = false;
            pos++;
        } else if (str.charAt(0) == '+') {
            pos++;
        }
        while (pos < end && str.charAt(pos) == '0') {
            pos++;
        }
        if (pos >= end) {
            num = "0";
            value = num;
            suf = "";
        } else {
            int i = pos;
            while (i < end && isDigit(str.charAt(i))) {
                i++;
            }
            num = str.substring(pos, i);
            if (i >= end) {
                value = str;
                suf = "";
            } else {
                pos = i;
                if (num.isEmpty()) {
                    num = "0";
                }
                boolean done = false;
                if (str.charAt(pos) == '.') {
                    pos++;
                    int j = pos;
                    while (j < end && isDigit(str.charAt(j))) {
                        j++;
                    }
                    denom = str.substring(pos, j);
                    if (j >= end) {
                        value = str;
                        suf = "";
                        done = true;
                    }
                    pos = j;
                }
                if (!done) {
                    value = str.substring(0, pos);
                    int suffixStart = pos;
                    int k = pos;
                    while (k < end && "eEinumkKMGTP".indexOf(str.charAt(k)) >= 0) {
                        k++;
                    }
                    if (k < end) {
                        pos = k;
                        if (str.charAt(pos) == '-' || str.charAt(pos) == '+') {
                            pos++;
                        }
                        while (pos < end && isDigit(str.charAt(pos))) {
                            pos++;
                        }
                        if (pos < end) {
                            throw new ParseException(FORMAT_WRONG);
                        }
                    }
                    suf = str.substring(suffixStart);
                }
            }
        }

        // interpret the suffix
        int base;
        int exponent;
        Format format;
        if (DEC_SUFFIXES.containsKey(suf)) {
            base = 10;
            exponent = DEC_SUFFIXES.get(suf);
            format = Format.DECIMAL_SI;
        } else if (BIN_SUFFIXES.containsKey(suf)) {
            base = 2;
            exponent = BIN_SUFFIXES.get(suf);
            format = Format.BINARY_SI;
        } else if (suf.length() > 1 && (suf.charAt(0) == 'E' || suf.charAt(0) == 'e')) {
            long parsed;
            try {
                parsed = Long.parseLong(suf.substring(1));
            } catch (NumberFormatException e) {
                throw new ParseException(SUFFIX);
            }
            base = 10;
            exponent = (int) parsed; // Go: int32(parsed)
            format = Format.DECIMAL_EXPONENT;
        } else {
            throw new ParseException(SUFFIX);
        }

        int precision = 0;
        int scale = 0;
        long mantissa = 1;
        if (format == Format.BINARY_SI) {
            if (exponent >= 0 && denom.isEmpty()) {
                mantissa = mantissa << exponent;
                precision = 15 - num.length() - (int) ((float) exponent * 3 / 10) - 1;
            } else {
                precision = -1;
            }
        } else {
            scale = exponent;
            precision = MAX_INT64_FACTORS - (num.length() + denom.length());
        }

        if (precision >= 0) {
            scale -= denom.length();
            if (scale >= NANO) {
                String shifted = num + denom;
                long v;
                try {
                    v = Long.parseLong(shifted);
                } catch (NumberFormatException e) {
                    throw new ParseException(NUMERIC);
                }
                long result;
                try {
                    result = Math.multiplyExact(v, mantissa);
                    if (!positive) {
                        result = -result;
                    }
                    return new Quantity(result, scale);
                } catch (ArithmeticException overflow) {
                    // fall through to the decimal form
                }
            }
        }

        BigDecimal amount;
        try {
            if (value.isEmpty() || value.equals("+") || value.equals("-") || value.endsWith(".") && value.length() == 1) {
                throw new NumberFormatException();
            }
            amount = new BigDecimal(value);
        } catch (NumberFormatException e) {
            throw new ParseException(NUMERIC);
        }
        if (base == 10) {
            amount = new BigDecimal(amount.unscaledValue(), amount.scale() - exponent);
        } else {
            amount = new BigDecimal(amount.unscaledValue().shiftLeft(exponent), amount.scale());
        }
        int sign = amount.signum();
        if (sign == -1) {
            amount = amount.negate();
        }
        if (amount.unscaledValue().signum() != 0) {
            amount = amount.setScale(-NANO, RoundingMode.UP);
        }
        if (format == Format.BINARY_SI && amount.compareTo(MAX_ALLOWED) > 0) {
            amount = MAX_ALLOWED;
        }
        if (sign == -1) {
            amount = amount.negate();
        }
        return new Quantity(amount);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private BigDecimal asDec() {
        return dec != null ? dec : new BigDecimal(BigInteger.valueOf(value), -scale);
    }

    private boolean isZero() {
        return dec != null ? dec.signum() == 0 : value == 0;
    }

    /** {@code Quantity.Add} (on a copy). */
    Quantity add(Quantity y) {
        if (dec == null && y.dec == null) {
            Quantity r = addInt64(value, scale, y.value, y.scale);
            if (r != null) {
                return r;
            }
        }
        return new Quantity(asDec().add(y.asDec()));
    }

    /** {@code Quantity.Sub} (on a copy); subtracting from zero yields the decimal form, as in Go. */
    Quantity sub(Quantity y) {
        if (isZero()) {
            return new Quantity(y.asDec().negate());
        }
        if (dec == null && y.dec == null && y.value != Long.MIN_VALUE) {
            Quantity r = addInt64(value, scale, -y.value, y.scale);
            if (r != null) {
                return r;
            }
        }
        return new Quantity(asDec().subtract(y.asDec()));
    }

    /** {@code int64Amount.Add}; null when it would overflow. */
    private static Quantity addInt64(long av, int as, long bv, int bs) {
        if (bv == 0) {
            return new Quantity(av, as);
        }
        if (av == 0) {
            return new Quantity(bv, bs);
        }
        try {
            if (as == bs) {
                return new Quantity(Math.addExact(av, bv), as);
            } else if (as > bs) {
                Long c = positiveScale(av, as - bs);
                return c == null ? null : new Quantity(Math.addExact(c, bv), bs);
            } else {
                Long c = positiveScale(bv, bs - as);
                return c == null ? null : new Quantity(Math.addExact(av, c), as);
            }
        } catch (ArithmeticException e) {
            return null;
        }
    }

    private static Long positiveScale(long base, long scale) {
        long result = base;
        for (long i = 0; i < scale; i++) {
            try {
                result = Math.multiplyExact(result, 10L);
            } catch (ArithmeticException e) {
                return null;
            }
            if (result == 0) {
                return 0L;
            }
        }
        return result;
    }

    int sign() {
        return dec != null ? dec.signum() : Long.signum(value);
    }

    /** {@code AsInt64}: only the int64 form with a non-negative scale that fits. */
    Long asInt64() {
        if (dec != null || scale < 0) {
            return null;
        }
        return scale == 0 ? Long.valueOf(value) : positiveScale(value, scale);
    }

    /** {@code AsApproximateFloat64}. */
    double asApproximateFloat() {
        double base;
        int exponent;
        if (dec != null) {
            base = new BigDecimal(dec.unscaledValue()).doubleValue();
            exponent = -dec.scale();
        } else {
            base = value;
            exponent = scale;
        }
        if (exponent == 0) {
            return base;
        }
        return base * pow10(exponent);
    }

    private static final double[] POW10_TAB = {
        1e00, 1e01, 1e02, 1e03, 1e04, 1e05, 1e06, 1e07, 1e08, 1e09, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29, 1e30, 1e31};
    private static final double[] POW10_POS32 = {1e00, 1e32, 1e64, 1e96, 1e128, 1e160, 1e192, 1e224, 1e256, 1e288};
    private static final double[] POW10_NEG32 = {
        1e-00, 1e-32, 1e-64, 1e-96, 1e-128, 1e-160, 1e-192, 1e-224, 1e-256, 1e-288, 1e-320};

    /** Go's {@code math.Pow10}, which is not always {@code Math.pow(10, n)} to the last bit. */
    static double pow10(int n) {
        if (n >= 0 && n <= 308) {
            return POW10_POS32[n / 32] * POW10_TAB[n % 32];
        }
        if (n >= -323 && n <= 0) {
            return POW10_NEG32[-n / 32] / POW10_TAB[-n % 32];
        }
        return n > 0 ? Double.POSITIVE_INFINITY : 0;
    }

    @Override
    public int compareTo(Quantity o) {
        return Integer.signum(asDec().compareTo(o.asDec()));
    }

    /** A CelValue so that cel-java's {@code type()} reports the library type. */
    @Override
    public Object value() {
        return this;
    }

    @Override
    public OpaqueType celType() {
        return QuantityLibrary.QUANTITY_TYPE;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Quantity q && compareTo(q) == 0;
    }

    @Override
    public int hashCode() {
        BigDecimal d = asDec();
        return d.signum() == 0 ? 0 : d.stripTrailingZeros().hashCode();
    }

    @Override
    public String toString() {
        return asDec().toPlainString();
    }
}

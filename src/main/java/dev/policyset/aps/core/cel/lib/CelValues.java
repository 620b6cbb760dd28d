package dev.policyset.aps.core.cel.lib;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.values.CelByteString;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * CEL ordering and equality on cel-java's runtime values (Long, UnsignedLong, Double, Boolean, String,
 * CelByteString, Duration, Instant, List, Map, Optional), as cel-go's {@code Compare}/{@code Equal} traits
 * define them: numbers compare across int/uint/double, everything else only within its own type.
 */
final class CelValues {
    private CelValues() {
    }

    /** True when cel-go's {@code traits.Comparer} covers the value. */
    static boolean isComparable(Object v) {
        return v instanceof Long || v instanceof UnsignedLong || v instanceof Double || v instanceof Boolean
                || v instanceof String || v instanceof CelByteString || v instanceof Duration || v instanceof Instant;
    }

    /** -1, 0 or 1; empty when the two values have no ordering (cel-go: no such overload). */
    static Optional<Integer> compare(Object a, Object b) {
        if (isNumber(a) && isNumber(b)) {
            if (a instanceof Double da && Double.isNaN(da) || b instanceof Double db && Double.isNaN(db)) {
                return Optional.empty();
            }
            return Optional.of(Integer.signum(toBig(a).compareTo(toBig(b))));
        }
        if (a instanceof Boolean x && b instanceof Boolean y) {
            return Optional.of(Boolean.compare(x, y));
        }
        if (a instanceof String x && b instanceof String y) {
            return Optional.of(Integer.signum(compareCodePoints(x, y)));
        }
        if (a instanceof CelByteString x && b instanceof CelByteString y) {
            return Optional.of(Integer.signum(compareBytes(x.toByteArray(), y.toByteArray())));
        }
        if (a instanceof Duration x && b instanceof Duration y) {
            return Optional.of(Integer.signum(x.compareTo(y)));
        }
        if (a instanceof Instant x && b instanceof Instant y) {
            return Optional.of(Integer.signum(x.compareTo(y)));
        }
        return Optional.empty();
    }

    /** CEL heterogeneous equality ({@code ==}). */
    static boolean equal(Object a, Object b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (isNumber(a) && isNumber(b)) {
            if (a instanceof Double da && Double.isNaN(da) || b instanceof Double db && Double.isNaN(db)) {
                return false;
            }
            return toBig(a).compareTo(toBig(b)) == 0;
        }
        if (a instanceof List<?> la && b instanceof List<?> lb) {
            if (la.size() != lb.size()) {
                return false;
            }
            Iterator<?> ia = la.iterator();
            Iterator<?> ib = lb.iterator();
            while (ia.hasNext()) {
                if (!equal(ia.next(), ib.next())) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof Map<?, ?> ma && b instanceof Map<?, ?> mb) {
            if (ma.size() != mb.size()) {
                return false;
            }
            for (Map.Entry<?, ?> e : ma.entrySet()) {
                Object key = findKey(mb, e.getKey());
                if (key == null || !equal(e.getValue(), mb.get(key))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof Optional<?> oa && b instanceof Optional<?> ob) {
            return oa.isPresent() == ob.isPresent() && (oa.isEmpty() || equal(oa.get(), ob.get()));
        }
        return a.equals(b);
    }

    private static Object findKey(Map<?, ?> map, Object key) {
        if (map.containsKey(key)) {
            return key;
        }
        for (Object k : map.keySet()) {
            if (equal(k, key)) {
                return k;
            }
        }
        return null;
    }

    static boolean isNumber(Object v) {
        return v instanceof Long || v instanceof UnsignedLong || v instanceof Double;
    }

    private static BigDecimal toBig(Object v) {
        if (v instanceof Long l) {
            return BigDecimal.valueOf(l);
        }
        if (v instanceof UnsignedLong u) {
            return new BigDecimal(u.bigIntegerValue());
        }
        double d = (Double) v;
        if (Double.isInfinite(d)) {
            return d > 0 ? BigDecimal.valueOf(Double.MAX_VALUE).multiply(BigDecimal.TEN)
                    : BigDecimal.valueOf(-Double.MAX_VALUE).multiply(BigDecimal.TEN);
        }
        return new BigDecimal(d);
    }

    /** Go compares strings byte-wise in UTF-8, which orders like code points. */
    private static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    private static int compareBytes(byte[] a, byte[] b) {
        int n = Math.min(a.length, b.length);
        for (int i = 0; i < n; i++) {
            int c = Integer.compare(a[i] & 0xff, b[i] & 0xff);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.length, b.length);
    }

    static BigInteger unsigned(UnsignedLong u) {
        return u.bigIntegerValue();
    }
}

package dev.policyset.aps.core.cel.cost;

/**
 * A cost range, cel-go's {@code checker.CostEstimate}: arithmetic saturates instead of overflowing (at
 * {@link Long#MAX_VALUE}, where cel-go saturates at the uint64 maximum).
 */
public record CostEstimate(long min, long max) {
    public static final CostEstimate ZERO = new CostEstimate(0, 0);
    public static final CostEstimate ONE = new CostEstimate(1, 1);

    public static CostEstimate fixed(long cost) {
        return new CostEstimate(cost, cost);
    }

    public CostEstimate add(CostEstimate o) {
        return new CostEstimate(addNoOverflow(min, o.min), addNoOverflow(max, o.max));
    }

    public CostEstimate multiply(CostEstimate o) {
        return new CostEstimate(multiplyNoOverflow(min, o.min), multiplyNoOverflow(max, o.max));
    }

    public CostEstimate multiplyByCostFactor(double factor) {
        return new CostEstimate(multiplyByCostFactor(min, factor), multiplyByCostFactor(max, factor));
    }

    public CostEstimate union(CostEstimate o) {
        return new CostEstimate(Math.min(min, o.min), Math.max(max, o.max));
    }

    static long addNoOverflow(long x, long y) {
        return y > 0 && x > Long.MAX_VALUE - y ? Long.MAX_VALUE : x + y;
    }

    static long multiplyNoOverflow(long x, long y) {
        return y != 0 && x > Long.MAX_VALUE / y ? Long.MAX_VALUE : x * y;
    }

    /** cel-go's {@code multiplyByCostFactor}: the product rounded up. */
    static long multiplyByCostFactor(long x, double factor) {
        double product = Math.ceil((double) x * factor);
        return product >= (double) Long.MAX_VALUE ? Long.MAX_VALUE : (long) product;
    }
}

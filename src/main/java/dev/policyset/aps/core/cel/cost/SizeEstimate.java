package dev.policyset.aps.core.cel.cost;

/**
 * The size range of a string (code points), bytes, list or map, cel-go's {@code checker.SizeEstimate}.
 * {@link #UNKNOWN} is cel-go's {@code UnknownSizeEstimate()}.
 */
public record SizeEstimate(long min, long max) {
    public static final SizeEstimate UNKNOWN = new SizeEstimate(0, Long.MAX_VALUE);

    public static SizeEstimate fixed(long size) {
        return new SizeEstimate(size, size);
    }

    public SizeEstimate add(SizeEstimate o) {
        return new SizeEstimate(CostEstimate.addNoOverflow(min, o.min), CostEstimate.addNoOverflow(max, o.max));
    }

    public SizeEstimate multiply(SizeEstimate o) {
        return new SizeEstimate(CostEstimate.multiplyNoOverflow(min, o.min), CostEstimate.multiplyNoOverflow(max, o.max));
    }

    public CostEstimate multiplyByCostFactor(double factor) {
        return new CostEstimate(CostEstimate.multiplyByCostFactor(min, factor),
                CostEstimate.multiplyByCostFactor(max, factor));
    }

    public CostEstimate multiplyByCost(CostEstimate cost) {
        return new CostEstimate(CostEstimate.multiplyNoOverflow(min, cost.min()),
                CostEstimate.multiplyNoOverflow(max, cost.max()));
    }

    public SizeEstimate union(SizeEstimate o) {
        return new SizeEstimate(Math.min(min, o.min), Math.max(max, o.max));
    }

    public CostEstimate asCost() {
        return new CostEstimate(min, max);
    }
}

package dev.policyset.aps.core.cel.cost;

import dev.cel.common.CelAbstractSyntaxTree;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An admission expression's estimated cost and the inputs that drive it: the request-bounded paths
 * ({@link AdmissionSizeEstimator}) without which the worst case would be at most half as large.
 *
 * @param estimate the cel-go estimate with admission sizes
 * @param drivers  the unbounded inputs that make the worst case (all unbounded inputs the estimate used when
 *                 no single one does), in the order the expression reads them
 * @param growth   how the worst case grows with the size of those inputs
 */
public record CostAnalysis(CostEstimate estimate, List<Driver> drivers, Growth growth) {
    /**
     * How the worst case grows with its inputs. A linear expression reaches the per-call limit only on data
     * near the request-size bound: a request built to be huge, never an ordinary object. A superlinear one
     * (a loop in a loop, {@code indexOf} inside {@code map}) reaches it on objects far smaller.
     */
    public enum Growth {
        /** No request-bounded input: the estimate is what every evaluation can cost. */
        FIXED,
        /** At most proportional to the inputs' size. */
        LINEAR,
        /** Faster than the inputs' size: quadratic or worse. */
        SUPERLINEAR,
        /**
         * Not measurable: the estimate is unbounded even on small inputs, because a size the estimator cannot
         * know (a conversion's result, a value built in the expression) multiplies it.
         */
        UNKNOWN
    }

    /**
     * Growth is measured between two request sizes a thousand and ten thousand times below the limit: far
     * enough down that the estimate does not saturate, ten times apart so that a linear estimate shrinks about
     * tenfold and a quadratic one about a hundredfold.
     */
    private static final long NEAR = 1_000;
    private static final long FAR = 10_000;
    /** Between the tenfold of a linear and the hundredfold of a quadratic estimate (on a log scale). */
    private static final long SUPERLINEAR_RATIO = 30;

    /** An input whose size only the request size bounds, and what it is. */
    public record Driver(List<String> path, AdmissionSizeEstimator.Unbounded kind) {
        public String display() {
            return AdmissionSizeEstimator.format(path);
        }
    }

    /** Estimates a checked expression with admission sizes and names the inputs that drive the maximum. */
    public static CostAnalysis of(CelAbstractSyntaxTree checked) {
        AdmissionSizeEstimator sizes = AdmissionSizeEstimator.forExpression(checked.getExpr());
        CostEstimate estimate = CostEstimator.estimate(checked, sizes);
        List<Driver> all = new ArrayList<>();
        List<Driver> drivers = new ArrayList<>();
        for (Map.Entry<List<String>, AdmissionSizeEstimator.Unbounded> e : sizes.unbounded().entrySet()) {
            Driver d = new Driver(e.getKey(), e.getValue());
            all.add(d);
            CostEstimate bounded = CostEstimator.estimate(checked, sizes.withBound(e.getKey(), 0));
            if (bounded.max() <= estimate.max() / 2) {
                drivers.add(d);
            }
        }
        return new CostAnalysis(estimate, drivers.isEmpty() ? all : drivers, growth(checked, sizes, all));
    }

    private static Growth growth(CelAbstractSyntaxTree checked, AdmissionSizeEstimator sizes, List<Driver> unbounded) {
        if (unbounded.isEmpty()) {
            return Growth.FIXED;
        }
        long near = CostEstimator.estimate(checked, sizes.scaledDown(NEAR)).max();
        long far = CostEstimator.estimate(checked, sizes.scaledDown(FAR)).max();
        if (near >= Long.MAX_VALUE / SUPERLINEAR_RATIO) {
            return Growth.UNKNOWN; // unbounded even on a small request: a size the estimator cannot know
        }
        return near > SUPERLINEAR_RATIO * Math.max(1, far) ? Growth.SUPERLINEAR : Growth.LINEAR;
    }
}

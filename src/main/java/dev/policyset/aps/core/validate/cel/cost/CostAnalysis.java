package dev.policyset.aps.core.validate.cel.cost;

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
 */
public record CostAnalysis(CostEstimate estimate, List<Driver> drivers) {
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
        return new CostAnalysis(estimate, drivers.isEmpty() ? all : drivers);
    }
}

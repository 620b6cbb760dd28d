package dev.policyset.aps.core.cel;

import dev.policyset.aps.core.model.KubeVersion;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The evaluator stops where the API server stops: cel-go's per-call limit ({@code celconfig.PerCallLimit},
 * {@code interpreter/runtimecost.go}) and the admission plugin's per-policy budget
 * ({@code admission/plugin/cel/activation.go: Evaluate}).
 */
class CelRuntimeCostTest {
    private static final KubernetesCelEnvironment ENV = KubernetesCelEnvironment.create(new KubeVersion(1, 35),
            KubernetesCelEnvironment.Declarations.validation());

    private static CelEvaluator.Activation objectWithItems(int n, String item) {
        List<Object> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            items.add(item);
        }
        return new CelEvaluator.Activation(Map.of("items", items), null, null, null, null, null, null);
    }

    @Test
    void costCountsAsCelGo() {
        // cel-go: object 1 + .items 1; per item: loop condition 2, step (__result__ 1, s 1, startsWith ceil(1*0.1)=1) 3;
        // result 1
        CelEvaluator.Result r = CelEvaluator.evaluate(ENV, "object.items.all(s, s.startsWith('a'))", objectWithItems(10, "abc"));
        assertEquals(Boolean.TRUE, r.value());
        assertEquals(2 + 10 * 5 + 1, r.cost());
    }

    @Test
    void perCallLimitStopsTheExpressionWithCelGosMessage() {
        CelEvaluator.Result r = CelEvaluator.evaluate(ENV, "object.items.all(s, s.startsWith('a'))",
                objectWithItems(250_000, "abc"));
        assertNull(r.value());
        assertEquals("operation cancelled: actual cost limit exceeded", r.error());
        assertTrue(r.cost() > CelEvaluator.PER_CALL_LIMIT);
    }

    @Test
    void stringSizesCountLikeCelGo() {
        String big = "x".repeat(100_000);
        // matches: ceil((1 + 100000) * 0.1) * ceil(3 * 0.25) = 10001; object.s 2
        CelEvaluator.Result r = CelEvaluator.evaluate(ENV, "object.s.matches('x+$')",
                new CelEvaluator.Activation(Map.of("s", big), null, null, null, null, null, null));
        assertEquals(Boolean.TRUE, r.value());
        assertEquals(10_001 + 2, r.cost());
    }

    @Test
    void policyBudgetStopsFurtherExpressions() {
        CelEvaluator.CostBudget budget = new CelEvaluator.CostBudget(120);
        var activation = objectWithItems(10, "abc");
        var compiled = ENV.compile("object.items.all(s, s.startsWith('a'))");
        assertTrue(CelEvaluator.evaluate(ENV, compiled, activation, budget).ok());
        assertEquals(120 - 53, budget.remaining());
        assertTrue(CelEvaluator.evaluate(ENV, compiled, activation, budget).ok());
        CelEvaluator.Result third = CelEvaluator.evaluate(ENV, compiled, activation, budget);
        assertEquals("validation failed due to running out of cost budget, no further validation rules will be run",
                third.error());
        assertTrue(budget.exhausted());
        assertEquals(third.error(), CelEvaluator.evaluate(ENV, ENV.compile("true"), activation, budget).error());
    }
}

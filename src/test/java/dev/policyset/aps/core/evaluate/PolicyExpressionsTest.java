package dev.policyset.aps.core.evaluate;

import dev.policyset.aps.core.cel.CelChecker;
import dev.policyset.aps.core.cel.CelEvaluator;
import dev.policyset.aps.core.cel.ExpressionKind;
import dev.policyset.aps.core.cel.lib.CelAuthorizer;
import dev.policyset.aps.core.model.KubeVersion;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Variables are evaluated lazily and once per run, as upstream's composition environment does. */
class PolicyExpressionsTest {
    private final AtomicInteger checks = new AtomicInteger();
    private final CelAuthorizer counting = attributes -> {
        checks.incrementAndGet();
        return new CelAuthorizer.Decision(CelAuthorizer.Decision.Kind.ALLOW, "", null);
    };

    private PolicyExpressions.Context context(Map<String, String> variables) {
        PolicyExpressions p = new PolicyExpressions(CelChecker.PolicyType.VALIDATING, false, new KubeVersion(1, 36), variables);
        return p.context(new CelEvaluator.Activation(Map.of("spec", Map.of("replicas", 3L)), null, null,
                Map.of("operation", "CREATE"), null, counting, null));
    }

    @Test
    void aVariableIsEvaluatedOnceForEveryExpressionOfARunThatReadsIt() {
        Map<String, String> vars = new LinkedHashMap<>();
        vars.put("canCreate", "authorizer.group('').resource('pods').check('create').allowed()");
        vars.put("both", "variables.canCreate && object.spec.replicas > 1");
        PolicyExpressions.Run run = context(vars).run();
        CelEvaluator.Result first = run.evaluate(ExpressionKind.VALIDATION, "variables.canCreate");
        assertEquals(true, first.value(), String.valueOf(first));
        assertTrue(run.variableCost() > 0, "the first reader pays for the variable");
        assertEquals(true, run.evaluate(ExpressionKind.VALIDATION, "variables.both").value());
        assertEquals(true, run.evaluate(ExpressionKind.VALIDATION, "variables.canCreate || false").value());
        assertEquals(0, run.variableCost(), "a cached variable costs its reader nothing");
        assertEquals(1, checks.get(), "the authorizer variable must be evaluated once");
    }

    @Test
    void eachRunEvaluatesItsVariablesAgain() {
        // upstream: every ForInput builds a new activation, and with it a new lazy variables map
        Map<String, String> vars = new LinkedHashMap<>();
        vars.put("canCreate", "authorizer.group('').resource('pods').check('create').allowed()");
        PolicyExpressions.Context c = context(vars);
        assertEquals(true, c.run().evaluate(ExpressionKind.VALIDATION, "variables.canCreate").value());
        assertEquals(true, c.run().evaluate(ExpressionKind.VALIDATION, "variables.canCreate").value());
        assertEquals(2, checks.get());
    }

    @Test
    void aVariableNobodyReadsIsNeverEvaluated() {
        Map<String, String> vars = new LinkedHashMap<>();
        vars.put("unused", "authorizer.group('').resource('pods').check('create').allowed()");
        vars.put("broken", "object.spec.missing > 1");
        PolicyExpressions.Context c = context(vars);
        CelEvaluator.Result r = c.evaluate(ExpressionKind.VALIDATION, "object.spec.replicas == 3");
        assertEquals(true, r.value());
        assertEquals(0, checks.get());
    }

    @Test
    void aFailingVariableFailsOnlyItsReaders() {
        Map<String, String> vars = new LinkedHashMap<>();
        vars.put("broken", "object.spec.missing > 1");
        PolicyExpressions.Context c = context(vars);
        CelEvaluator.Result failing = c.evaluate(ExpressionKind.VALIDATION, "variables.broken");
        assertTrue(failing.error().startsWith("composited variable \"broken\" fails to evaluate: no such key: missing"),
                failing.error());
        // short-circuit: the failing variable is not needed
        CelEvaluator.Result ok = c.evaluate(ExpressionKind.VALIDATION, "true || variables.broken");
        assertNull(ok.error());
        assertEquals(true, ok.value());
    }
}

package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.cel.CelEvaluator;
import dev.policyset.aps.core.cel.ExpressionKind;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code spec.matchConditions}: {@code k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions/matcher.go:
 * Matcher.Match}. Any false condition skips the policy (even when others errored); otherwise any error is an
 * error under failurePolicy Fail and a skip under Ignore.
 */
final class MatchConditions {
    /**
     * @param error  the aggregated error when the request must fail (failurePolicy Fail)
     * @param errors every condition error met, ignored or not
     */
    record Result(boolean matches, String failedCondition, String error, List<String> errors) {}

    private MatchConditions() {}

    /**
     * All conditions are evaluated first, in one run with their own budget ({@code celconfig.
     * RuntimeCELCostBudgetMatchConditions}), then read in order. When the budget runs out the filter fails as a
     * whole: under Fail that is the error, under Ignore the policy is skipped, whatever the conditions said.
     */
    static Result evaluate(JsonNode conditions, PolicyExpressions.Context context, ExpressionKind kind, boolean fail) {
        List<String> expressions = new ArrayList<>();
        conditions.forEach(c -> expressions.add(c.path("expression").asText("")));
        Expressions.ForInput evaluated = Expressions.forInput(context, kind, expressions, CelEvaluator.CostBudget.matchConditions());
        if (evaluated.outOfBudget()) {
            return new Result(false, null, fail ? evaluated.error() : null, List.of(evaluated.error()));
        }
        List<String> errors = new ArrayList<>();
        for (int i = 0; i < expressions.size(); i++) {
            Expressions r = evaluated.results().get(i);
            if (r.failed()) {
                errors.add(r.error());
            } else if (Boolean.FALSE.equals(r.value())) {
                return new Result(false, conditions.get(i).path("name").asText(""), null, errors);
            }
        }
        if (!errors.isEmpty()) {
            if (!fail) {
                return new Result(false, null, null, errors);
            }
            // utilerrors.NewAggregate: one error as it is, several as "[a, b]"
            String aggregate = errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]";
            return new Result(false, null, aggregate, errors);
        }
        return new Result(true, null, null, errors);
    }
}

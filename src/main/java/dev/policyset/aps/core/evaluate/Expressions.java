package dev.policyset.aps.core.evaluate;

import dev.policyset.aps.core.cel.CelEvaluator;
import dev.policyset.aps.core.cel.ExpressionKind;
import dev.policyset.aps.core.cel.cost.CostConstants;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One expression's outcome as the admission plugins see it: a value, or the error text
 * {@code k8s.io/apiserver/pkg/admission/plugin/cel/activation.go: evaluationActivation.Evaluate} makes of a
 * failure.
 */
record Expressions(Object value, String error) {
    boolean failed() {
        return error != null;
    }

    /**
     * Upstream's {@code ForInput} ({@code cel/condition.go}, {@code cel/mutation.go}): each expression evaluated in
     * order in one {@link PolicyExpressions.Run}, all spending {@code budget} ({@link CelEvaluator.CostBudget#perPolicy()}
     * or {@link CelEvaluator.CostBudget#matchConditions()}, or what an earlier list left).
     *
     * @param results   one per expression, {@code null} where the expression was {@code null} (upstream's
     *                  placeholder: a validation without messageExpression); empty when out of budget
     * @param remaining the budget left, for the next list (messageExpressions get what the validations left)
     * @param error     {@link CostConstants#OUT_OF_BUDGET} when the budget ran out: the whole list fails and no
     *                  further expression of it was evaluated
     */
    record ForInput(List<Expressions> results, CelEvaluator.CostBudget remaining, String error) {
        boolean outOfBudget() {
            return error != null;
        }
    }

    /**
     * Evaluates {@code expressions} as {@code ForInput} does. Per expression ({@code Evaluate}): a compile error is
     * {@code compilation error: ...} at no cost; otherwise the variables it read first are charged, then its own
     * runtime cost, and when either is more than what remains the list ends with {@code validation failed due to
     * running out of cost budget, no further validation rules will be run}. An evaluation error, including
     * cel-go's per-call limit ({@code celconfig.PerCallLimit}: {@code operation cancelled: actual cost limit
     * exceeded}, its cost being what was spent until it stopped), is {@code expression '<e>' resulted in error:
     * <error>} as long as the budget covers it.
     */
    static ForInput forInput(PolicyExpressions.Context context, ExpressionKind kind, List<String> expressions,
                             CelEvaluator.CostBudget budget) {
        PolicyExpressions.Run run = context.run();
        List<Expressions> results = new ArrayList<>(expressions.size());
        for (String expression : expressions) {
            if (expression == null) {
                results.add(null);
                continue;
            }
            CelEvaluator.Result r = run.evaluate(kind, expression);
            if (r.compileError() != null) {
                results.add(new Expressions(null, "compilation error: " + r.compileError()));
                continue;
            }
            // composited variables are charged first (activation.go: compositionCtx.GetAndResetCost)
            if (!budget.spend(run.variableCost()) || !budget.spend(r.cost())) {
                return outOfBudget(budget);
            }
            if (r.error() != null) {
                results.add(new Expressions(null, "expression '" + expression + "' resulted in error: " + r.error()));
            } else {
                results.add(new Expressions(r.value(), null));
            }
        }
        return new ForInput(Collections.unmodifiableList(results), budget, null);
    }

    /** One expression in a run of its own: a mutation's ({@code cel/mutation.go: mutatingEvaluator.ForInput}). */
    static ForInput forInput(PolicyExpressions.Context context, ExpressionKind kind, String expression,
                             CelEvaluator.CostBudget budget) {
        return forInput(context, kind, List.of(expression), budget);
    }

    private static ForInput outOfBudget(CelEvaluator.CostBudget budget) {
        return new ForInput(List.of(), budget, CostConstants.OUT_OF_BUDGET);
    }
}

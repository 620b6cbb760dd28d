package dev.policyset.aps.core.evaluate;

import dev.policyset.aps.core.validate.cel.CelEvaluator;
import dev.policyset.aps.core.validate.cel.ExpressionKind;

/**
 * One expression's outcome as the admission plugins see it: a value, or the error text
 * {@code k8s.io/apiserver/pkg/admission/plugin/cel/filter.go: ForInput} makes of a failure.
 */
record Expressions(Object value, String error) {
    boolean failed() {
        return error != null;
    }

    static Expressions evaluate(PolicyExpressions.Context context, ExpressionKind kind, String expression) {
        CelEvaluator.Result r = context.evaluate(kind, expression);
        if (r.compileError() != null) {
            return new Expressions(null, "compilation error: " + r.compileError());
        }
        if (r.error() != null) {
            if (r.error().startsWith("operation cancelled: actual cost limit exceeded")) {
                return new Expressions(null, "validation failed due to running out of cost budget, "
                        + "no further validation rules will be run");
            }
            return new Expressions(null, "expression '" + expression + "' resulted in error: " + r.error());
        }
        return new Expressions(r.value(), null);
    }
}

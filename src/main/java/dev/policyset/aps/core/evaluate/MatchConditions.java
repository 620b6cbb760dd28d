package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.validate.cel.ExpressionKind;

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

    static Result evaluate(JsonNode conditions, PolicyExpressions.Context context, ExpressionKind kind, boolean fail) {
        List<String> errors = new ArrayList<>();
        for (JsonNode c : conditions) {
            Expressions r = Expressions.evaluate(context, kind, c.path("expression").asText(""));
            if (r.failed()) {
                errors.add(r.error());
            } else if (Boolean.FALSE.equals(r.value())) {
                return new Result(false, c.path("name").asText(""), null, errors);
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

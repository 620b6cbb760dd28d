package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.cel.CelEvaluator;
import dev.policyset.aps.core.cel.ExpressionKind;

import java.util.ArrayList;
import java.util.List;

/**
 * One ValidatingAdmissionPolicy evaluated for one request and one param:
 * {@code k8s.io/apiserver/pkg/admission/plugin/policy/validating/validator.go: validator.Validate}.
 */
final class ValidatingPolicyEvaluator {
    /** {@code celconfig.MaxEvaluatedMessageExpressionSizeBytes}. */
    static final int MAX_MESSAGE_BYTES = 5 * 1024;

    /** An audit annotation's outcome: a value to publish, or an error (only under failurePolicy Fail). */
    record AuditAnnotation(String key, String value, String error) {}

    /**
     * @param matched false when a matchCondition was false (nothing else is evaluated)
     */
    record Result(boolean matched, String failedCondition, List<PolicyDecision> decisions,
                  List<AuditAnnotation> auditAnnotations, List<String> errors) {}

    private ValidatingPolicyEvaluator() {}

    /**
     * As {@code validator.Validate}: matchConditions with their own budget; the validations in one run with the
     * policy budget ({@code celconfig.RuntimeCELCostBudget}); every messageExpression (of failing and passing
     * validations alike) in a run with what the validations left; the auditAnnotations in a run with a whole
     * budget of their own. A run that goes over its budget fails the policy with one error decision (under
     * Ignore: admitted), except the messageExpressions', which turns every validation that did not fail itself
     * into {@code failed messageExpression: <error>}.
     */
    static Result validate(JsonNode spec, PolicyExpressions.Context context) {
        boolean fail = !"Ignore".equals(spec.path("failurePolicy").asText("Fail"));
        List<String> errors = new ArrayList<>();

        MatchConditions.Result match = MatchConditions.evaluate(spec.path("matchConditions"), context,
                ExpressionKind.MATCH_CONDITION, fail);
        errors.addAll(match.errors());
        if (match.error() != null) {
            return new Result(true, null, List.of(new PolicyDecision(fail, true, match.error(), "", -1)), List.of(), errors);
        }
        if (!match.matches()) {
            return new Result(false, match.failedCondition(), List.of(), List.of(), errors);
        }

        JsonNode validations = spec.path("validations");
        List<String> expressions = new ArrayList<>();
        List<String> messageExpressions = new ArrayList<>();
        for (JsonNode v : validations) {
            expressions.add(v.path("expression").asText(""));
            String messageExpression = v.path("messageExpression").asText("");
            messageExpressions.add(messageExpression.isEmpty() ? null : messageExpression);
        }
        Expressions.ForInput evaluated = Expressions.forInput(context, ExpressionKind.VALIDATION, expressions,
                CelEvaluator.CostBudget.perPolicy());
        if (evaluated.outOfBudget()) {
            errors.add(evaluated.error());
            return new Result(true, null, List.of(new PolicyDecision(fail, true, evaluated.error(), "", -1)), List.of(), errors);
        }
        // messageExpressions and auditAnnotations run without an authorizer (validator.go; CelAuthorizer.UNBOUND)
        Expressions.ForInput messages = Expressions.forInput(context.withoutAuthorizer(), ExpressionKind.MESSAGE_EXPRESSION,
                messageExpressions, evaluated.remaining());
        if (messages.outOfBudget()) {
            errors.add("messageExpression: " + messages.error());
        }

        List<PolicyDecision> decisions = new ArrayList<>();
        for (int i = 0; i < validations.size(); i++) {
            JsonNode v = validations.get(i);
            Expressions result = evaluated.results().get(i);
            if (result.failed()) {
                errors.add(result.error());
                decisions.add(new PolicyDecision(fail, true, result.error(), "", i));
            } else if (messages.outOfBudget()) {
                decisions.add(new PolicyDecision(fail, true, "failed messageExpression: " + messages.error(), "", i));
            } else if (!Boolean.TRUE.equals(result.value())) {
                String reason = v.path("reason").asText("");
                Expressions message = messages.results().get(i);
                decisions.add(new PolicyDecision(true, false, message(v, message, errors), reason.isEmpty() ? "Invalid" : reason, i));
            } else {
                decisions.add(new PolicyDecision(false, false, "", "", i));
            }
        }

        JsonNode audit = spec.path("auditAnnotations");
        List<String> valueExpressions = new ArrayList<>();
        audit.forEach(a -> valueExpressions.add(a.path("valueExpression").asText("")));
        Expressions.ForInput values = Expressions.forInput(context.withoutAuthorizer(), ExpressionKind.AUDIT_ANNOTATION_VALUE,
                valueExpressions, CelEvaluator.CostBudget.perPolicy());
        if (values.outOfBudget()) {
            // upstream returns this one decision alone: the validations' decisions are dropped
            errors.add(values.error());
            return new Result(true, null, List.of(new PolicyDecision(fail, true, values.error(), "", -1)), List.of(), errors);
        }
        List<AuditAnnotation> annotations = new ArrayList<>();
        for (int i = 0; i < audit.size(); i++) {
            String key = audit.get(i).path("key").asText("");
            Expressions result = values.results().get(i);
            if (result.failed()) {
                errors.add(result.error());
                if (fail) {
                    annotations.add(new AuditAnnotation(key, null, result.error()));
                }
            } else if (result.value() instanceof String s) {
                String value = s.trim();
                if (!value.isEmpty()) {
                    annotations.add(new AuditAnnotation(key, value, null));
                }
            } else if (result.value() != null) {
                annotations.add(new AuditAnnotation(key, null, "valueExpression '" + valueExpressions.get(i)
                        + "' resulted in unsupported return type: " + result.value().getClass().getSimpleName()
                        + ". Return type must be either string or null."));
            }
        }
        return new Result(true, null, decisions, annotations, errors);
    }

    /**
     * The denial message: the messageExpression's result when it is a non-blank single-line string of at most
     * 5 KiB, else {@code message}, else {@code failed expression: <expression>} (validator.go).
     */
    private static String message(JsonNode validation, Expressions messageResult, List<String> errors) {
        String message = "";
        if (messageResult != null) {
            if (messageResult.failed()) {
                errors.add("messageExpression: " + messageResult.error());
            } else if (messageResult.value() instanceof String s) {
                message = s.trim();
                if (message.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_MESSAGE_BYTES
                        || message.contains("\n")) {
                    message = "";
                }
            }
        }
        if (message.isEmpty()) {
            message = validation.path("message").asText("").trim();
        }
        if (message.isEmpty()) {
            message = "failed expression: " + validation.path("expression").asText("").trim();
        }
        return message;
    }
}

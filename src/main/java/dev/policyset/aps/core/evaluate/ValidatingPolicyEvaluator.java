package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.validate.cel.ExpressionKind;

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

        List<PolicyDecision> decisions = new ArrayList<>();
        JsonNode validations = spec.path("validations");
        for (int i = 0; i < validations.size(); i++) {
            JsonNode v = validations.get(i);
            String expression = v.path("expression").asText("");
            Expressions result = Expressions.evaluate(context, ExpressionKind.VALIDATION, expression);
            if (result.failed()) {
                errors.add(result.error());
                decisions.add(new PolicyDecision(fail, true, result.error(), "", i));
            } else if (!Boolean.TRUE.equals(result.value())) {
                String reason = v.path("reason").asText("");
                decisions.add(new PolicyDecision(true, false, message(v, context, errors), reason.isEmpty() ? "Invalid" : reason, i));
            } else {
                decisions.add(new PolicyDecision(false, false, "", "", i));
            }
        }

        List<AuditAnnotation> annotations = new ArrayList<>();
        JsonNode audit = spec.path("auditAnnotations");
        for (int i = 0; i < audit.size(); i++) {
            String key = audit.get(i).path("key").asText("");
            String valueExpression = audit.get(i).path("valueExpression").asText("");
            Expressions result = Expressions.evaluate(context, ExpressionKind.AUDIT_ANNOTATION_VALUE, valueExpression);
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
                annotations.add(new AuditAnnotation(key, null, "valueExpression '" + valueExpression
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
    private static String message(JsonNode validation, PolicyExpressions.Context context, List<String> errors) {
        String message = "";
        String messageExpression = validation.path("messageExpression").asText("");
        if (!messageExpression.isEmpty()) {
            Expressions result = Expressions.evaluate(context, ExpressionKind.MESSAGE_EXPRESSION, messageExpression);
            if (result.failed()) {
                errors.add("messageExpression: " + result.error());
            } else if (result.value() instanceof String s) {
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

package dev.policyset.aps.core.validate.apiserver;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.cel.ExpressionKind;
import dev.policyset.aps.core.util.NameFormats;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code validation.go: validateValidatingAdmissionPolicySpec}: validations, messageExpressions,
 * auditAnnotations, after what {@link PolicyCommon} checks.
 */
final class ValidatingPolicyValidation {
    static final List<String> REASONS = List.of("Forbidden", "Invalid", "RequestEntityTooLarge");
    static final int MAX_AUDIT_ANNOTATIONS = 20;
    static final int MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION = 5 * 1024;

    private ValidatingPolicyValidation() {}

    static void validate(String policyName, ObjectNode spec, CelExpressions cel, Errors errors) {
        FieldPath specPath = FieldPath.root("spec");
        PolicyCommon.validateFailurePolicy(Json.string(spec, "failurePolicy"), specPath.child("failurePolicy"), errors);
        PolicyCommon.validateMatching(spec, specPath, cel, errors);
        List<ObjectNode> variables = Json.objects(spec, "variables");
        PolicyCommon.validateVariables(variables, specPath.child("variables"), cel, errors);

        List<ObjectNode> validations = Json.objects(spec, "validations");
        List<ObjectNode> audits = Json.objects(spec, "auditAnnotations");
        if (validations.isEmpty() && audits.isEmpty()) {
            String detail = "validations or auditAnnotations must contain at least one item";
            errors.required(specPath.child("validations"), detail);
            errors.required(specPath.child("auditAnnotations"), detail);
            return;
        }
        for (int i = 0; i < validations.size(); i++) {
            validation(validations.get(i), specPath.child("validations").index(i), cel, errors);
        }
        if (audits.size() > MAX_AUDIT_ANNOTATIONS) {
            errors.invalid(specPath.child("auditAnnotations"), audits.size() + " auditAnnotations",
                    "must not have more than " + MAX_AUDIT_ANNOTATIONS + " auditAnnotations");
        }
        Set<String> keys = new HashSet<>();
        for (int i = 0; i < audits.size(); i++) {
            FieldPath at = specPath.child("auditAnnotations").index(i);
            auditAnnotation(policyName, audits.get(i), at, cel, errors);
            String key = Json.text(audits.get(i), "key");
            if (!keys.add(key)) {
                errors.duplicate(at.child("key"), key);
            }
        }
    }

    private static void validation(ObjectNode validation, FieldPath path, CelExpressions cel, Errors errors) {
        String expression = Json.text(validation, "expression");
        if (expression.isBlank()) {
            errors.required(path.child("expression"), "expression is not specified; write a CEL expression that "
                    + "evaluates to bool");
        } else {
            cel.check(ExpressionKind.VALIDATION, expression, path.child("expression"));
        }
        String messageExpression = Json.text(validation, "messageExpression");
        if (!messageExpression.isEmpty() && messageExpression.isBlank()) {
            errors.invalid(path.child("messageExpression"), messageExpression, "must be non-empty if specified");
        } else if (!messageExpression.isBlank()) {
            cel.check(ExpressionKind.MESSAGE_EXPRESSION, messageExpression, path.child("messageExpression"));
        }
        String message = Json.text(validation, "message");
        if (!message.isEmpty() && message.isBlank()) {
            errors.invalid(path.child("message"), message, "message must be non-empty if specified");
        } else if (message.strip().contains("\n") || message.strip().contains("\r")) {
            errors.invalid(path.child("message"), message, "message must not contain line breaks; write it on one line");
        }
        String reason = Json.string(validation, "reason");
        if (reason != null && !REASONS.contains(reason)) {
            errors.notSupported(path.child("reason"), reason, REASONS);
        }
    }

    private static void auditAnnotation(String policyName, ObjectNode audit, FieldPath path, CelExpressions cel,
                                        Errors errors) {
        String key = Json.text(audit, "key");
        if (policyName.isEmpty()) {
            errors.invalid(path.child("key"), key, "requires metadata.name be non-empty");
        } else {
            String qualified = policyName + "/" + key;
            for (String problem : NameFormats.qualifiedNameProblems(qualified)) {
                errors.invalid(path.child("key"), qualified, problem);
            }
        }
        String valueExpression = Json.text(audit, "valueExpression").strip();
        if (valueExpression.isEmpty()) {
            errors.required(path.child("valueExpression"), "valueExpression is not specified");
        } else if (NameFormats.byteLength(valueExpression) > MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION) {
            errors.required(path.child("valueExpression"), "must not exceed " + MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION
                    + " bytes in length; shorten the expression");
        } else {
            cel.check(ExpressionKind.AUDIT_ANNOTATION_VALUE, valueExpression, path.child("valueExpression"));
        }
    }
}

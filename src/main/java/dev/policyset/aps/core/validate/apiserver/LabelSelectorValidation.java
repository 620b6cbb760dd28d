package dev.policyset.aps.core.validate.apiserver;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.util.NameFormats;

import java.util.List;

/**
 * {@code metav1validation.ValidateLabelSelector}, strict (label values checked), as on every create:
 * policy and binding selectors, webhook selectors, {@code paramRef.selector}.
 */
final class LabelSelectorValidation {
    static final List<String> OPERATORS = List.of("In", "NotIn", "Exists", "DoesNotExist");

    private LabelSelectorValidation() {}

    static void validate(ObjectNode selector, FieldPath path, Errors errors) {
        if (selector == null) {
            return;
        }
        ObjectMetaValidation.validateLabels(Json.stringMap(selector, "matchLabels"), path.child("matchLabels"), errors);
        List<ObjectNode> expressions = Json.objects(selector, "matchExpressions");
        for (int i = 0; i < expressions.size(); i++) {
            requirement(expressions.get(i), path.child("matchExpressions").index(i), errors);
        }
    }

    private static void requirement(ObjectNode requirement, FieldPath path, Errors errors) {
        String operator = Json.text(requirement, "operator");
        List<String> values = Json.strings(requirement, "values");
        switch (operator) {
            case "In", "NotIn" -> {
                if (values.isEmpty()) {
                    errors.required(path.child("values"), "must be specified when `operator` is 'In' or 'NotIn'");
                }
            }
            case "Exists", "DoesNotExist" -> {
                if (!values.isEmpty()) {
                    errors.forbidden(path.child("values"),
                            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'; remove the values");
                }
            }
            default -> errors.invalid(path.child("operator"), operator,
                    "not a valid selector operator; use one of In, NotIn, Exists, DoesNotExist");
        }
        String key = Json.text(requirement, "key");
        for (String problem : NameFormats.qualifiedNameProblems(key)) {
            errors.invalid(path.child("key"), key, problem);
        }
        for (int i = 0; i < values.size(); i++) {
            for (String problem : NameFormats.labelValueProblems(values.get(i))) {
                errors.invalid(path.child("values").index(i), values.get(i), problem);
            }
        }
    }
}

package dev.policyset.aps.core.validate.apiserver;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.cel.ExpressionKind;
import dev.policyset.aps.core.util.NameFormats;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code validation.go: validateMatchConditions, validateMatchCondition} for policies and for each webhook:
 * at most 64, names required, qualified and unique within one list, expressions required and boolean.
 */
final class MatchConditionValidation {
    static final int MAX_MATCH_CONDITIONS = 64;

    private MatchConditionValidation() {}

    static void validate(List<ObjectNode> conditions, FieldPath path, ExpressionKind kind, CelExpressions cel,
                         Errors errors) {
        if (conditions.size() > MAX_MATCH_CONDITIONS) {
            errors.tooMany(path, conditions.size(), MAX_MATCH_CONDITIONS);
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < conditions.size(); i++) {
            ObjectNode condition = conditions.get(i);
            FieldPath at = path.index(i);
            String expression = Json.text(condition, "expression").strip();
            if (expression.isEmpty()) {
                errors.required(at.child("expression"), "write a CEL expression that evaluates to bool");
            } else {
                cel.check(kind, expression, at.child("expression"));
            }
            String name = Json.text(condition, "name");
            if (name.isEmpty()) {
                errors.required(at.child("name"), "give the match condition a name, e.g. 'exclude-leases'");
            } else {
                for (String problem : NameFormats.qualifiedNameProblems(name)) {
                    errors.invalid(at.child("name"), name, problem);
                }
                if (!names.add(name)) {
                    errors.duplicate(at.child("name"), name);
                }
            }
        }
    }
}

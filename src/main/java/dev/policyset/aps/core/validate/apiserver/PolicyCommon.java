package dev.policyset.aps.core.validate.apiserver;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.cel.ExpressionKind;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What ValidatingAdmissionPolicy and MutatingAdmissionPolicy specs share: failurePolicy, paramKind,
 * matchConstraints, matchConditions and variables ({@code validateVariable, isCELIdentifier}).
 */
final class PolicyCommon {
    static final List<String> FAILURE_POLICIES = List.of("Fail", "Ignore");
    private static final Pattern CEL_IDENTIFIER = Pattern.compile("[_a-zA-Z][_a-zA-Z0-9]*");
    private static final Set<String> CEL_RESERVED = Set.of("true", "false", "null", "in", "as", "break", "const",
            "continue", "else", "for", "function", "if", "import", "let", "loop", "package", "namespace", "return",
            "var", "void", "while");

    private PolicyCommon() {}

    static void validateFailurePolicy(String failurePolicy, FieldPath path, Errors errors) {
        if (failurePolicy == null) {
            errors.required(path, "set Fail or Ignore");
        } else if (!FAILURE_POLICIES.contains(failurePolicy)) {
            errors.notSupported(path, failurePolicy, FAILURE_POLICIES);
        }
    }

    /** paramKind, matchConstraints (with at least one resourceRule) and matchConditions, in upstream's order. */
    static void validateMatching(ObjectNode spec, FieldPath specPath, CelExpressions cel, Errors errors) {
        ObjectNode paramKind = Json.object(spec, "paramKind");
        if (paramKind != null) {
            ParamValidation.validateParamKind(paramKind, specPath.child("paramKind"), errors);
        }
        ObjectNode constraints = Json.object(spec, "matchConstraints");
        if (constraints == null) {
            errors.required(specPath.child("matchConstraints"),
                    "set matchConstraints.resourceRules to the resources the policy applies to");
        } else {
            MatchResourcesValidation.validate(constraints, specPath.child("matchConstraints"), errors);
            if (Json.objects(constraints, "resourceRules").isEmpty()) {
                errors.required(specPath.child("matchConstraints", "resourceRules"),
                        "add at least one resource rule: it gives the expressions their type information");
            }
        }
        MatchConditionValidation.validate(Json.objects(spec, "matchConditions"), specPath.child("matchConditions"),
                ExpressionKind.MATCH_CONDITION, cel, errors);
    }

    static boolean isCelIdentifier(String name) {
        return CEL_IDENTIFIER.matcher(name).matches() && !CEL_RESERVED.contains(name);
    }

    /** Each variable, in order: a valid one is declared so later expressions see it typed. */
    static void validateVariables(List<ObjectNode> variables, FieldPath path, CelExpressions cel, Errors errors) {
        for (int i = 0; i < variables.size(); i++) {
            ObjectNode variable = variables.get(i);
            FieldPath at = path.index(i);
            String name = Json.text(variable, "name");
            boolean validName = false;
            if (name.isBlank()) {
                errors.required(at.child("name"), "name is not specified; give the variable a CEL identifier as name");
            } else if (!isCelIdentifier(name)) {
                errors.invalid(at.child("name"), name, "name is not a valid CEL identifier; use letters, digits "
                        + "and '_', starting with a letter or '_', and not a reserved word");
            } else {
                validName = true;
            }
            String expression = Json.text(variable, "expression");
            if (expression.isBlank()) {
                errors.required(at.child("expression"), "expression is not specified");
            } else if (validName) {
                cel.declareVariable(name, expression, at.child("expression"));
            } else {
                cel.check(ExpressionKind.VARIABLE, expression, at.child("expression"));
            }
        }
    }
}

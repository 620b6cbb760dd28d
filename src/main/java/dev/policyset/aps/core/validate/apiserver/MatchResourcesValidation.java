package dev.policyset.aps.core.validate.apiserver;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * {@code validation.go: validateMatchResources} for a policy's {@code spec.matchConstraints} and a binding's
 * {@code spec.matchResources}, plus the mutating kinds' rule that DELETE cannot be mutated (reported without
 * indices, as upstream does).
 */
final class MatchResourcesValidation {
    static final List<String> MATCH_POLICIES = List.of("Equivalent", "Exact");
    static final List<String> MUTATING_OPERATIONS = List.of("*", "CONNECT", "CREATE", "UPDATE");

    private MatchResourcesValidation() {}

    static void validate(ObjectNode match, FieldPath path, Errors errors) {
        if (match == null) {
            return;
        }
        String matchPolicy = Json.string(match, "matchPolicy");
        if (matchPolicy == null) {
            errors.required(path.child("matchPolicy"), "set Exact or Equivalent");
        } else if (!MATCH_POLICIES.contains(matchPolicy)) {
            errors.notSupported(path.child("matchPolicy"), matchPolicy, MATCH_POLICIES);
        }
        for (String selector : List.of("namespaceSelector", "objectSelector")) {
            ObjectNode value = Json.object(match, selector);
            if (value == null) {
                errors.required(path.child(selector), "use {} to match everything");
            } else {
                LabelSelectorValidation.validate(value, path.child(selector), errors);
            }
        }
        List<ObjectNode> rules = Json.objects(match, "resourceRules");
        for (int i = 0; i < rules.size(); i++) {
            RuleValidation.validateNamedRuleWithOperations(rules.get(i), path.child("resourceRules").index(i), errors);
        }
        List<ObjectNode> excluded = Json.objects(match, "excludeResourceRules");
        for (int i = 0; i < excluded.size(); i++) {
            RuleValidation.validateNamedRuleWithOperations(excluded.get(i), path.child("excludeResourceRules").index(i), errors);
        }
    }

    /** MAP and MAP binding: only CREATE, UPDATE and CONNECT can be mutated; {@code excludeResourceRules} are free. */
    static void validateMutatingOperations(ObjectNode match, FieldPath path, Errors errors) {
        FieldPath operationsPath = path.child("resourceRules", "operations");
        for (ObjectNode rule : Json.objects(match, "resourceRules")) {
            for (String operation : Json.strings(rule, "operations")) {
                if (!MUTATING_OPERATIONS.contains(operation)) {
                    errors.notSupported(operationsPath, operation, MUTATING_OPERATIONS);
                }
            }
        }
    }
}

package dev.policyset.aps.core.validate.apiserver;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.util.NameFormats;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code validation.go: validateValidatingAdmissionPolicyBindingSpec, validateMutatingAdmissionPolicyBindingSpec,
 * validateValidationActions}. The policy a binding names need not exist (that is APS401's business).
 */
final class BindingValidation {
    static final List<String> VALIDATION_ACTIONS = List.of("Audit", "Deny", "Warn");

    private BindingValidation() {}

    static void validate(ObjectNode spec, boolean mutating, Errors errors) {
        FieldPath specPath = FieldPath.root("spec");
        String policyName = Json.text(spec, "policyName");
        if (policyName.isEmpty()) {
            errors.required(specPath.child("policyName"), "name the policy this binding applies");
        } else {
            for (String problem : NameFormats.subdomainProblems(policyName)) {
                errors.invalid(specPath.child("policyName"), policyName, problem);
            }
        }
        ParamValidation.validateParamRef(Json.object(spec, "paramRef"), specPath.child("paramRef"), errors);
        ObjectNode match = Json.object(spec, "matchResources");
        MatchResourcesValidation.validate(match, specPath.child("matchResources"), errors);
        if (mutating) {
            if (match != null) {
                MatchResourcesValidation.validateMutatingOperations(match, specPath.child("matchResources"), errors);
            }
        } else {
            validateValidationActions(Json.strings(spec, "validationActions"), specPath.child("validationActions"), errors);
        }
    }

    static void validateValidationActions(List<String> actions, FieldPath path, Errors errors) {
        Set<String> seen = new LinkedHashSet<>();
        for (int i = 0; i < actions.size(); i++) {
            String action = actions.get(i);
            if (!VALIDATION_ACTIONS.contains(action)) {
                errors.notSupported(path.index(i), action, VALIDATION_ACTIONS);
            }
            if (!seen.add(action)) {
                errors.duplicate(path.index(i), action);
            }
        }
        if (seen.contains("Deny") && seen.contains("Warn")) {
            errors.invalid(path, actions, "must not contain both Deny and Warn (repeating the same validation failure "
                    + "information in the API response and headers serves no purpose); use [Deny] or [Warn, Audit]");
        }
        if (seen.isEmpty()) {
            errors.required(path, "at least one validation action is required: Deny, Warn or Audit");
        }
    }
}

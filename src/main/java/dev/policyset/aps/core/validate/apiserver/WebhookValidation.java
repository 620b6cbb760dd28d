package dev.policyset.aps.core.validate.apiserver;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.cel.ExpressionKind;
import dev.policyset.aps.core.util.NameFormats;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code validation.go: validateValidatingWebhookConfiguration, validateMutatingWebhookConfiguration,
 * validate*Webhook, validateAdmissionReviewVersions} with the create-time options: side effects must be
 * None/NoneOnDryRun, a recognised AdmissionReview version is required, webhook names are unique, selectors
 * are strict. Paths start at {@code webhooks}: these kinds have no {@code spec}.
 */
final class WebhookValidation {
    static final List<String> FAILURE_POLICIES = List.of("Fail", "Ignore");
    static final List<String> MATCH_POLICIES = List.of("Equivalent", "Exact");
    static final List<String> NO_SIDE_EFFECTS = List.of("None", "NoneOnDryRun");
    static final List<String> REINVOCATION_POLICIES = List.of("IfNeeded", "Never");
    static final List<String> ACCEPTED_REVIEW_VERSIONS = List.of("v1", "v1beta1");

    private WebhookValidation() {}

    static void validate(ObjectNode configuration, boolean mutating, CelExpressions cel, Errors errors) {
        Set<String> names = new HashSet<>();
        List<ObjectNode> hooks = Json.objects(configuration, "webhooks");
        for (int i = 0; i < hooks.size(); i++) {
            ObjectNode hook = hooks.get(i);
            FieldPath path = FieldPath.root("webhooks").index(i);
            webhook(hook, mutating, path, cel, errors);
            admissionReviewVersions(Json.strings(hook, "admissionReviewVersions"), path.child("admissionReviewVersions"),
                    errors);
            String name = Json.text(hook, "name");
            if (!name.isEmpty() && !names.add(name)) {
                errors.duplicate(path.child("name"), name);
            }
        }
    }

    private static void webhook(ObjectNode hook, boolean mutating, FieldPath path, CelExpressions cel, Errors errors) {
        fullyQualifiedName(Json.text(hook, "name"), path.child("name"), errors);
        List<ObjectNode> rules = Json.objects(hook, "rules");
        for (int i = 0; i < rules.size(); i++) {
            RuleValidation.validateRuleWithOperations(rules.get(i), path.child("rules").index(i), errors);
        }
        String failurePolicy = Json.string(hook, "failurePolicy");
        if (failurePolicy != null && !FAILURE_POLICIES.contains(failurePolicy)) {
            errors.notSupported(path.child("failurePolicy"), failurePolicy, FAILURE_POLICIES);
        }
        String matchPolicy = Json.string(hook, "matchPolicy");
        if (matchPolicy != null && !MATCH_POLICIES.contains(matchPolicy)) {
            errors.notSupported(path.child("matchPolicy"), matchPolicy, MATCH_POLICIES);
        }
        String sideEffects = Json.string(hook, "sideEffects");
        if (sideEffects == null) {
            errors.required(path.child("sideEffects"), "must specify one of None, NoneOnDryRun (there is no default in "
                    + "admissionregistration.k8s.io/v1)");
        } else if (!NO_SIDE_EFFECTS.contains(sideEffects)) {
            errors.notSupported(path.child("sideEffects"), sideEffects, NO_SIDE_EFFECTS);
        }
        Long timeout = Json.integer(hook, "timeoutSeconds");
        if (timeout != null && (timeout > 30 || timeout < 1)) {
            errors.invalid(path.child("timeoutSeconds"), timeout, "the timeout value must be between 1 and 30 seconds");
        }
        LabelSelectorValidation.validate(Json.object(hook, "namespaceSelector"), path.child("namespaceSelector"), errors);
        LabelSelectorValidation.validate(Json.object(hook, "objectSelector"), path.child("objectSelector"), errors);
        if (mutating) {
            String reinvocation = Json.string(hook, "reinvocationPolicy");
            if (reinvocation != null && !REINVOCATION_POLICIES.contains(reinvocation)) {
                errors.notSupported(path.child("reinvocationPolicy"), reinvocation, REINVOCATION_POLICIES);
            }
        }
        ObjectNode clientConfig = Json.object(hook, "clientConfig");
        ClientConfigValidation.validate(clientConfig, path.child("clientConfig"), errors);
        MatchConditionValidation.validate(Json.objects(hook, "matchConditions"), path.child("matchConditions"),
                ExpressionKind.WEBHOOK_MATCH_CONDITION, cel, errors);
    }

    /** {@code utilvalidation.IsFullyQualifiedName}: at most one error. */
    static void fullyQualifiedName(String name, FieldPath path, Errors errors) {
        if (name.isEmpty()) {
            errors.required(path, "name the webhook with a fully qualified domain name, e.g. image-policy.example.com");
            return;
        }
        List<String> problems = NameFormats.subdomainProblems(name);
        if (!problems.isEmpty()) {
            errors.invalid(path, name, String.join(",", problems));
            return;
        }
        if (name.split("\\.", -1).length < 3) {
            errors.invalid(path, name, "should be a domain with at least three segments separated by dots, "
                    + "e.g. image-policy.example.com");
        }
    }

    static void admissionReviewVersions(List<String> versions, FieldPath path, Errors errors) {
        if (versions.isEmpty()) {
            errors.required(path, "must specify one of v1, v1beta1");
            return;
        }
        Set<String> seen = new HashSet<>();
        boolean accepted = false;
        for (int i = 0; i < versions.size(); i++) {
            String version = versions.get(i);
            if (!seen.add(version)) {
                errors.invalid(path.index(i), version, "duplicate version");
                continue;
            }
            for (String problem : NameFormats.dns1035LabelProblems(version)) {
                errors.invalid(path.index(i), version, problem);
            }
            accepted |= ACCEPTED_REVIEW_VERSIONS.contains(version);
        }
        if (!accepted) {
            errors.invalid(path, versions, "must include at least one of v1, v1beta1");
        }
    }
}

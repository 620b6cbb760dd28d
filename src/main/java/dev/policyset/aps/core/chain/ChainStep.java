package dev.policyset.aps.core.chain;

import dev.policyset.aps.core.intercept.Verdict;

import java.util.List;

/**
 * One step of the admission chain for one request.
 *
 * @param phase             where it runs
 * @param type              what it is
 * @param name              the plugin's name, the webhook's name, or the policy's name
 * @param object            the object that defines it ({@code MutatingWebhookConfiguration/x},
 *                          {@code ValidatingAdmissionPolicyBinding/b}); empty for built-in steps
 * @param outcome           MATCHES: the request reaches it; UNDECIDED: it does unless a matchCondition this tool
 *                          does not evaluate is false; NO_MATCH: it does not (listed apart, with the reason)
 * @param reasons           what matched it, or what rules it out (the interception model's reasons)
 * @param openConditions    the matchConditions left undecided, as {@code path "name": expression}
 * @param failurePolicy     Fail or Ignore (defaults applied); empty for built-in steps
 * @param timeoutSeconds    the webhook's timeout (default 10); 0 for steps that are not HTTP calls
 * @param validationActions a ValidatingAdmissionPolicyBinding's validationActions; empty otherwise
 * @param note              how the API server runs it (sequential, parallel, reinvoked...), for the listing
 */
public record ChainStep(Phase phase, Type type, String name, String object, Verdict.Outcome outcome,
                        List<String> reasons, List<String> openConditions, String failurePolicy, int timeoutSeconds,
                        List<String> validationActions, String note) {
    public enum Phase { MUTATING, SCHEMA_VALIDATION, VALIDATING }

    public enum Type { BUILTIN_PLUGIN, MUTATING_POLICY, MUTATING_WEBHOOK, REINVOCATION, SCHEMA, VALIDATING_POLICY, VALIDATING_WEBHOOK }

    public ChainStep {
        reasons = List.copyOf(reasons);
        openConditions = List.copyOf(openConditions);
        validationActions = List.copyOf(validationActions);
    }

    static ChainStep builtin(Phase phase, Type type, String name, String note) {
        return new ChainStep(phase, type, name, "", Verdict.Outcome.MATCHES, List.of(), List.of(), "", 0, List.of(), note);
    }

    public boolean isWebhook() {
        return type == Type.MUTATING_WEBHOOK || type == Type.VALIDATING_WEBHOOK;
    }
}

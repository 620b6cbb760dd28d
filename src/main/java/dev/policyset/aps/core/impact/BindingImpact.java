package dev.policyset.aps.core.impact;

import java.util.List;

/**
 * What one binding of one ValidatingAdmissionPolicy would do to the existing objects it intercepts.
 *
 * @param actions         the binding's validationActions as written
 * @param failClosed      the policy's failurePolicy is Fail (evaluation errors then count as failed validations)
 * @param matched         objects the policy and binding intercept whose matchConditions hold (evaluated)
 * @param deniedUnderDeny objects that a binding with {@code Deny} would refuse: a failed validation, an error under
 *                        failurePolicy Fail, or a binding/audit-annotation error that denies whatever the actions
 * @param denied          objects the binding refuses with its actions as they are
 * @param warned          objects whose write would carry a warning ({@code Warn})
 * @param audited         objects whose write would carry the validation_failure audit annotation ({@code Audit})
 * @param errors          objects whose evaluation failed (whatever failurePolicy makes of it)
 * @param samples         the first objects with something to say, at most the scan's sample limit
 * @param verdicts        every matched object's verdict, passes included, when the scan was asked to keep them
 *                        ({@link ImpactScan.Options#verdicts()}, for policy reports); empty otherwise
 */
public record BindingImpact(String policy, String binding, List<String> actions, boolean failClosed, int matched,
                            int deniedUnderDeny, int denied, int warned, int audited, int errors, List<Sample> samples,
                            List<ObjectVerdict> verdicts) {
    public BindingImpact {
        actions = List.copyOf(actions);
        samples = List.copyOf(samples);
        verdicts = List.copyOf(verdicts);
    }

    public BindingImpact(String policy, String binding, List<String> actions, boolean failClosed, int matched,
                         int deniedUnderDeny, int denied, int warned, int audited, int errors, List<Sample> samples) {
        this(policy, binding, actions, failClosed, matched, deniedUnderDeny, denied, warned, audited, errors, samples,
                List.of());
    }

    /**
     * One object with its verdict.
     *
     * @param object    {@code Kind namespace/name} ({@code Kind name} when cluster-scoped)
     * @param operation the request asked: UPDATE (written as it is) or CREATE (re-created)
     * @param outcome   {@code violation} (a validation is false), {@code error} (evaluation failed; denies under
     *                  failurePolicy Fail) or {@code denied} (denies whatever the actions)
     * @param message   the validation's message, or the error
     */
    public record Sample(String object, String operation, String outcome, String message) {}

    public boolean enforces() {
        return actions.contains("Deny");
    }
}

package dev.policyset.aps.core.impact;

import java.util.List;

/**
 * What one binding of one MutatingAdmissionPolicy would do to the existing objects it intercepts. Every matched
 * object is exactly one of changed, no-op or refused ({@code matched == changed + noop + refused}); errors and
 * not-idempotent are counted across them.
 *
 * @param failClosed    the policy's failurePolicy is Fail (an error then refuses the write)
 * @param reinvoked     the policy's reinvocationPolicy is IfNeeded
 * @param matched       objects the policy and binding intercept whose matchConditions hold
 * @param changed       objects the write would change, and the server would accept
 * @param noop          objects the mutation leaves as they are
 * @param refused       objects whose write the server would refuse because of this binding: an error under
 *                      failurePolicy Fail, an internal error (strict decoding), or an immutable field changed on UPDATE
 * @param errors        objects whose mutation failed (evaluation, patch or schema errors), whatever failurePolicy
 *                      makes of it
 * @param errorsAdmitted of those, the ones whose write is admitted all the same (failurePolicy Ignore drops the
 *                      failed mutation)
 * @param notIdempotent changed objects that the mutation, applied again to its own output, changes again (or fails on)
 * @param notIdempotentOnUpdate of those, the ones asked as UPDATE: every later write of the stored object meets the
 *                      mutation again
 * @param samples       the objects with something to say, flagged ones first, at most the scan's sample limit
 */
public record MutatingBindingImpact(String policy, String binding, boolean failClosed, boolean reinvoked, int matched,
                                    int changed, int noop, int refused, int errors, int errorsAdmitted, int notIdempotent, int notIdempotentOnUpdate,
                                    List<Sample> samples) {
    public static final String CHANGED = "changed";
    public static final String REFUSED = "refused";
    public static final String NOT_IDEMPOTENT = "not-idempotent";
    public static final String ERROR = "error";

    public MutatingBindingImpact {
        samples = List.copyOf(samples);
    }

    /**
     * One object with what the mutation did to it.
     *
     * @param object    {@code Kind namespace/name} ({@code Kind name} when cluster-scoped)
     * @param operation the request asked: UPDATE (written as it is) or CREATE (re-created)
     * @param outcome   {@code refused} (the write fails), {@code not-idempotent} (changed, and changed again when
     *                  applied to its own output), {@code error} (the mutation failed and failurePolicy Ignore
     *                  admitted the write unmutated) or {@code changed}
     * @param reason    for {@code refused}: {@code immutable} (an UPDATE changes a field the kind's update validation
     *                  refuses to change), {@code schema} (the patched object does not decode as its kind: strict
     *                  decoding, an undeclared field, a type mismatch, an atomic list or struct in an apply
     *                  configuration) or {@code error} (an evaluation error under failurePolicy Fail); empty otherwise
     * @param message   the API server's refusal, the error, or for not-idempotent what the second application
     *                  changes; empty for a plain change
     * @param changes   what the (first) application changed, at most {@link ObjectChanges#MAX_PER_SAMPLE}
     * @param omittedChanges changes not listed
     */
    public record Sample(String object, String operation, String outcome, String reason, String message,
                         List<ObjectChanges.Change> changes, int omittedChanges) {
        public Sample {
            changes = List.copyOf(changes);
        }
    }
}

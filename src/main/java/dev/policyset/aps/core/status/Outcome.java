package dev.policyset.aps.core.status;

/** What one reconcile of a set came to, most blocking first. Exactly one per reconcile. */
public enum Outcome {
    /** {@code spec.paused}: nothing was looked at or changed. */
    PAUSED,
    /** The cluster serves no MutatingAdmissionPolicy version and the set has mutating policies. */
    MUTATING_POLICY_NOT_SERVED,
    /** An error finding (after exemptions and enforcement) blocked the apply. */
    VALIDATION_FAILED,
    /** A generated object already exists and is not the set's (APS403). */
    OWNERSHIP_CONFLICT,
    /** The API server rejected at least one server-side dry run. */
    DRY_RUN_REJECTED,
    /** An API call failed; the operator retries. Objects may be partly applied, none was deleted. */
    API_ERROR,
    /** Every object is applied and matches the set. */
    APPLIED
}

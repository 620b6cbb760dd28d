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
    APPLIED;

    /** The Ready condition's reason for this outcome (and the reason of its event). */
    public String reason() {
        return switch (this) {
            case PAUSED -> Conditions.REASON_PAUSED;
            case MUTATING_POLICY_NOT_SERVED -> Conditions.REASON_MUTATING_POLICY_NOT_SERVED;
            case VALIDATION_FAILED -> Conditions.REASON_VALIDATION_FAILED;
            case OWNERSHIP_CONFLICT -> Conditions.REASON_OWNERSHIP_CONFLICT;
            case DRY_RUN_REJECTED -> Conditions.REASON_DRY_RUN_REJECTED;
            case API_ERROR -> Conditions.REASON_API_ERROR;
            case APPLIED -> Conditions.REASON_APPLIED;
        };
    }

    /** Blocked outcomes: nothing of this generation is applied, and the last good objects are still protected. */
    public boolean isBlocked() {
        return this == MUTATING_POLICY_NOT_SERVED || this == VALIDATION_FAILED || this == OWNERSHIP_CONFLICT
                || this == DRY_RUN_REJECTED;
    }
}

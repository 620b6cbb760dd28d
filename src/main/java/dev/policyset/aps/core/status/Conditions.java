package dev.policyset.aps.core.status;

/**
 * Condition types and reasons the operator writes (DESIGN §3). Types follow kstatus: {@code Ready} is the
 * summary, {@code Reconciling} and {@code Stalled} are abnormal-true (True only while work is in progress, or
 * while progress needs a spec change or an admin). Reasons are stable: GitOps tools and alerts match on them.
 */
public final class Conditions {
    private Conditions() {}

    public static final String READY = "Ready";
    public static final String VALIDATED = "Validated";
    public static final String APPLIED = "Applied";
    public static final String RECONCILING = "Reconciling";
    public static final String STALLED = "Stalled";

    /** Every object of this generation validated, dry-run, applied and confirmed. */
    public static final String REASON_APPLIED = "Applied";
    /** Validation found no error that blocks the apply (warnings may remain). */
    public static final String REASON_VALIDATED = "Validated";
    /** An error finding blocks the apply; nothing of this generation was applied, the last good objects stay. */
    public static final String REASON_VALIDATION_FAILED = "ValidationFailed";
    /** The API server rejected a server-side dry run; nothing was applied. */
    public static final String REASON_DRY_RUN_REJECTED = "DryRunRejected";
    /** An object the set would generate exists and belongs to someone else (APS403); nothing was applied. */
    public static final String REASON_OWNERSHIP_CONFLICT = "OwnershipConflict";
    /** The set has mutating policies and the cluster serves no MutatingAdmissionPolicy version. */
    public static final String REASON_MUTATING_POLICY_NOT_SERVED = "MutatingPolicyNotServed";
    /** {@code spec.paused}: nothing is reconciled; the objects in the cluster are left as they are. */
    public static final String REASON_PAUSED = "Paused";
    /** Work is in progress (e.g. objects are being applied). */
    public static final String REASON_PROGRESSING = "Progressing";
    /** An API call failed (conflict, server error, timeout); the operator retries with backoff. */
    public static final String REASON_API_ERROR = "ApiError";
    /** Neutral reason for an abnormal-true condition that is False. */
    public static final String REASON_NONE = "AsExpected";
}

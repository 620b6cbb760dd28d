package dev.policyset.aps.core.plan;

/** A Kubernetes Event the operator records about the set once the plan is carried out. */
public record PlanEvent(boolean warning, String reason, String message) {
    public static final String APPLIED = "Applied";
    public static final String PRUNED = "Pruned";
    public static final String DRIFT_REPAIRED = "DriftRepaired";
    /** The operator wrote a param-informer anchor that the set's params need ({@link ParamInformerAnchorWrites}). */
    public static final String PARAM_INFORMER_ANCHORED = "ParamInformerAnchored";
    /** Warning: another field manager keeps a field the set owns, after the repairs ran out (APS405). */
    public static final String CONTESTED = "Contested";
}

package dev.policyset.aps.core.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.model.ClusterView;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The operator's validating webhook decision for one write of an AdmissionPolicySet, pure: the {@link Planner}'s
 * own judgement of the new object, so the webhook refuses exactly what a reconcile would block (read, render,
 * validate, with the set's {@code spec.safety} exemptions and enforcement), and no more.
 *
 * <ul>
 *   <li><b>Denied</b>: error findings that block an apply. APS403 (an object belongs to someone else) is not one of
 *       them: the reconciler waits for the owner to let go, so it is a warning here, as it is a condition there.
 *   <li><b>Paused</b> sets are judged as if resumed: a bad paused set would be blocked the moment it is resumed.
 *   <li><b>Ratcheting</b> on UPDATE (as the API server ratchets CRD validation, KEP-4008): an update that leaves
 *       {@code spec} as it was (labels, annotations, finalizers — the operator's own finalizer write among them) or
 *       that is part of a deletion is admitted without judging; an error finding the stored object already had
 *       (same rule, object and field) does not block the update, it is reported as a warning. Otherwise a set
 *       stored before the webhook existed could not even be paused or fixed one finding at a time.
 * </ul>
 * Warnings are the warning-severity findings; info findings (exemptions among them) are left to the status.
 */
public final class SetAdmission {
    private static final String OWNERSHIP_RULE = "APS403";

    private final Planner planner;

    public SetAdmission(Planner planner) {
        this.planner = planner;
    }

    /**
     * @param denying   error findings that refuse the write (empty: allowed)
     * @param ratcheted error findings the stored object already had: reported, not refused
     * @param warnings  warning findings, and APS403 conflicts
     * @param judged    false when the write was admitted without judging (spec unchanged, or a deletion)
     */
    public record Decision(List<Finding> denying, List<Finding> ratcheted, List<Finding> warnings, boolean judged) {
        public Decision {
            denying = List.copyOf(denying);
            ratcheted = List.copyOf(ratcheted);
            warnings = List.copyOf(warnings);
        }

        public boolean allowed() {
            return denying.isEmpty();
        }

        static Decision unjudged() {
            return new Decision(List.of(), List.of(), List.of(), false);
        }
    }

    /**
     * @param object    the set being written (the AdmissionReview's {@code request.object})
     * @param oldObject the stored set on UPDATE ({@code request.oldObject}); null on CREATE
     * @param cluster   what the cluster holds, as a reconcile would see it
     */
    public Decision judge(ObjectNode object, ObjectNode oldObject, ClusterView cluster) {
        if (oldObject != null && (deleting(object) || object.path("spec").equals(oldObject.path("spec")))) {
            return Decision.unjudged();
        }
        List<Finding> findings = findings(object, cluster);
        List<Finding> errors = findings.stream().filter(SetAdmission::blocks).toList();
        Set<String> before = oldObject == null || errors.isEmpty() ? Set.of()
                : findings(oldObject, cluster).stream().filter(SetAdmission::blocks).map(SetAdmission::key)
                .collect(Collectors.toSet());
        List<Finding> denying = new ArrayList<>();
        List<Finding> ratcheted = new ArrayList<>();
        for (Finding f : errors) {
            (before.contains(key(f)) ? ratcheted : denying).add(f);
        }
        List<Finding> warnings = findings.stream()
                .filter(f -> f.severity() == Severity.WARNING || (f.isError() && OWNERSHIP_RULE.equals(f.rule())))
                .toList();
        return new Decision(denying, ratcheted, warnings, true);
    }

    /** What a reconcile of this document would find, paused or not (no previous status: nothing to restore). */
    private List<Finding> findings(ObjectNode set, ClusterView cluster) {
        ObjectNode resumed = set.deepCopy();
        if (resumed.get("spec") instanceof ObjectNode spec) {
            spec.remove("paused");
        }
        return planner.plan(new PlanInput(resumed, null), cluster).findings();
    }

    private static boolean blocks(Finding f) {
        return f.isError() && !OWNERSHIP_RULE.equals(f.rule());
    }

    private static String key(Finding f) {
        return f.rule() + "\u0000" + f.object() + "\u0000" + f.field();
    }

    private static boolean deleting(JsonNode object) {
        JsonNode ts = object.path("metadata").path("deletionTimestamp");
        return ts.isTextual() && !ts.asText().isEmpty();
    }
}

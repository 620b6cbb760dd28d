package dev.policyset.aps.core.plan;

import dev.policyset.aps.core.finding.Finding;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The contested-field guard (APS405). A drift repair forces the set's fields back; when another field manager
 * (istiod, Argo CD, a script in a loop) keeps writing one of them, every repair is answered by another write, an
 * endless flip-flop nobody sees. So repairs are counted per object and generation ({@code status.resources[].repairs}):
 * the first {@code maxRepairs} are forced (a hand edit or a one-off tool run is put right, as before); after that
 * the operator applies without force, the API server answers 409 Conflict naming the other manager and the
 * fields, the object stays as that manager set it, and the row says {@code Contested} with a warning finding.
 * A new generation starts again from zero (its update is forced).
 */
public final class RepairGuard {
    public static final String RULE = "APS405";
    /**
     * Three: one hand edit or one run of another tool takes one repair, a second is a coincidence; a third within
     * one generation is a loop (each repair was answered). Low enough that the webhook's failure policy does not
     * flip for long, high enough that an occasional edit never stops the repair.
     */
    public static final int DEFAULT_MAX_REPAIRS = 3;

    private RepairGuard() {}

    /** The write for a drift at a generation already repaired {@code repairsSoFar} times: forced while repairs last. */
    static Write.Action nextRepair(int repairsSoFar, int maxRepairs) {
        return repairsSoFar < maxRepairs ? Write.Action.REPAIR : Write.Action.CONTESTED_REPAIR;
    }

    /** The row's message after a forced repair: how many so far, and who had changed the set's fields. */
    static String repairMessage(int repair, int maxRepairs, long generation, Map<String, List<String>> others) {
        StringBuilder m = new StringBuilder("restored after a change made outside the set");
        if (!others.isEmpty()) {
            List<String> by = new ArrayList<>();
            others.forEach((manager, fields) -> by.add("\"" + manager + "\" (" + String.join(", ", fields) + ")"));
            m.append(" by field manager ").append(String.join(", ", by));
        }
        m.append("; repair ").append(repair).append(" of ").append(maxRepairs).append(" at generation ").append(generation);
        if (repair == maxRepairs) {
            m.append(": the next change is left in place and reported (APS405)");
        }
        return m.toString();
    }

    /** The row's message for an apply without force that the server accepted (the other manager let go). */
    static String unforcedMessage(int repairs, long generation) {
        return "applied without force after " + repairs + " repairs at generation " + generation
                + " (APS405 guard): no other field manager holds the set's fields now";
    }

    /**
     * The plan once the applies without force are answered: each 409 makes its row {@code Contested} and an APS405
     * warning; the refused write is dropped (nothing was written, so no event claims it).
     */
    public static Plan afterConflicts(Plan plan, List<ApplyConflict> conflicts) {
        if (conflicts.isEmpty()) {
            return plan;
        }
        Map<String, ApplyConflict> byId = new HashMap<>();
        conflicts.forEach(c -> byId.put(c.objectId(), c));
        List<Finding> findings = new ArrayList<>(plan.findings());
        List<ObjectResult> rows = new ArrayList<>();
        for (ObjectResult row : plan.objects()) {
            ApplyConflict c = byId.get(row.id());
            if (c == null) {
                rows.add(row);
                continue;
            }
            findings.add(finding(c, row.repairs(), plan.generation()));
            rows.add(row.with(ObjectState.CONTESTED, "left as field manager " + quoted(c.managers()) + " set "
                    + String.join(", ", c.fields()) + " after " + row.repairs() + " repairs at generation "
                    + plan.generation() + " (APS405): " + c.message()));
        }
        List<Write> written = plan.writes().stream().filter(w -> !byId.containsKey(w.id())).toList();
        return new Plan(plan.generation(), plan.outcome(), plan.detail(), findings, written, plan.removals(), rows,
                plan.lastApplied(), plan.previous(), plan.impact(), plan.held(), plan.scanned());
    }

    /** The warning: which object, which fields, who else writes them, and the three ways out. */
    static Finding finding(ApplyConflict c, int repairs, long generation) {
        List<String> fields = c.fields();
        String managers = quoted(c.managers());
        String field = fields.isEmpty() ? "" : fields.get(0).startsWith(".") ? fields.get(0).substring(1) : fields.get(0);
        return Finding.warning(RULE, c.objectId(), field, "field manager " + managers + " keeps writing "
                + (fields.isEmpty() ? "fields" : String.join(", ", fields)) + ", which the set also renders: after "
                + repairs + " repairs at generation " + generation + " the operator stopped forcing them back and left "
                + c.objectId() + " as " + managers + " set it (the API server: " + c.message() + "). Stop the other writer, "
                + "or remove the field from the set, or exclude it in the other tool (e.g. Argo CD ignoreDifferences with "
                + "managedFieldsManagers: [" + ManagedFieldOwners.FIELD_MANAGER + "] and RespectIgnoreDifferences=true); "
                + "a new generation of the set forces the set's value once more");
    }

    private static String quoted(List<String> managers) {
        return managers.isEmpty() ? "(unnamed)" : String.join(", ", managers.stream().map(m -> "\"" + m + "\"").toList());
    }
}

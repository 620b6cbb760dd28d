package dev.policyset.aps.core.plan;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySetStatus;
import dev.policyset.aps.api.v1alpha1.FindingStatus;
import dev.policyset.aps.api.v1alpha1.ImpactStatus;
import dev.policyset.aps.api.v1alpha1.LastAppliedStatus;
import dev.policyset.aps.api.v1alpha1.ResourceStatus;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.status.Outcome;
import dev.policyset.aps.core.status.StatusCalculator;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The planner's answer for one set: what it came to, what to write (in apply order) and delete (in removal
 * order), what to say about each object, and what status and events follow once it is carried out. The operator
 * dry-runs the writes, asks {@link Planner#afterDryRun} again with the refusals, then applies and deletes.
 *
 * @param detail      one sentence for Ready's message when the outcome is not APPLIED; may be empty
 * @param writes      server-side applies; for a blocked outcome, only restores of the last good generation
 * @param objects     one row per generated object (empty when the set could not be read)
 * @param lastApplied what {@code status.lastApplied} holds once the plan is carried out
 * @param previous    the status the plan started from (conditions keep their transition times)
 * @param impact      {@code status.impact} once carried out (null: the previous one is kept)
 * @param held        bindings held at their previous actions by {@code requireNoViolationsBeforeDeny}, one sentence
 *                    each; null when the set does not ask for the gate
 * @param scanned     the generation's rendered objects, as the impact scan reads them (its policies and bindings
 *                    before the Deny gate); null unless the generation is applied
 */
public record Plan(long generation, Outcome outcome, String detail, List<Finding> findings, List<Write> writes,
                   List<Removal> removals, List<ObjectResult> objects, LastAppliedStatus lastApplied,
                   AdmissionPolicySetStatus previous, ImpactStatus impact, List<String> held,
                   List<dev.policyset.aps.core.render.RenderedObject> scanned) {
    public Plan(long generation, Outcome outcome, String detail, List<Finding> findings, List<Write> writes,
                List<Removal> removals, List<ObjectResult> objects, LastAppliedStatus lastApplied,
                AdmissionPolicySetStatus previous, ImpactStatus impact, List<String> held) {
        this(generation, outcome, detail, findings, writes, removals, objects, lastApplied, previous, impact, held, null);
    }

    /** A plan that leaves the impact status and the Deny gate as they were. */
    public Plan(long generation, Outcome outcome, String detail, List<Finding> findings, List<Write> writes,
                List<Removal> removals, List<ObjectResult> objects, LastAppliedStatus lastApplied,
                AdmissionPolicySetStatus previous) {
        this(generation, outcome, detail, findings, writes, removals, objects, lastApplied, previous, null, null);
    }

    public Plan {
        held = held == null ? null : List.copyOf(held);
        scanned = scanned == null ? null : List.copyOf(scanned);
        detail = detail == null ? "" : detail;
        findings = findings.stream().sorted(Finding.ORDER).distinct().toList();
        writes = List.copyOf(writes);
        removals = List.copyOf(removals);
        objects = List.copyOf(objects);
    }

    /** The status once the plan is carried out ({@code previous} paused rows are kept as they were). */
    public AdmissionPolicySetStatus status(Instant now, int maxFindings) {
        List<ResourceStatus> rows = outcome == Outcome.PAUSED || outcome == Outcome.API_ERROR
                ? previousRows() : objects.stream().map(ObjectResult::toStatus).toList();
        AdmissionPolicySetStatus status = StatusCalculator.compute(new StatusCalculator.Input(
                generation, outcome, detail, findings, rows, previous, now, maxFindings));
        status.setLastApplied(lastApplied);
        status.setImpact(impact != null ? impact : previous == null ? null : previous.getImpact());
        if (held != null && outcome == Outcome.APPLIED) {
            status.getConditions().add(EnforcementCondition.of(held, previous, generation, now));
        } else if (previous != null && previous.getConditions() != null) {
            // not decided by this plan: the gate's last word stays
            previous.getConditions().stream().filter(c -> EnforcementCondition.TYPE.equals(c.getType()))
                    .findFirst().ifPresent(c -> status.getConditions().add(c));
        }
        return status;
    }

    /**
     * The plan for a reconcile that failed on an API error (after retries): the previous findings, rows and last
     * applied generation stay; Ready says what failed.
     */
    public static Plan apiError(long generation, String detail, AdmissionPolicySetStatus previous) {
        List<Finding> findings = new ArrayList<>();
        if (previous != null && previous.getFindings() != null) {
            for (FindingStatus f : previous.getFindings()) {
                findings.add(new Finding(f.getRule(), severity(f.getSeverity()), f.getObject(), f.getField(), f.getMessage()));
            }
        }
        return new Plan(generation, Outcome.API_ERROR, detail, findings, List.of(), List.of(), List.of(),
                previous == null ? null : previous.getLastApplied(), previous);
    }

    /** Normal events that describe the writes and removals, once they succeeded. */
    public List<PlanEvent> events() {
        List<PlanEvent> events = new ArrayList<>();
        List<Write> anchors = writes.stream().filter(w -> w.action() == Write.Action.ANCHOR).toList();
        if (!anchors.isEmpty()) {
            events.add(new PlanEvent(false, PlanEvent.PARAM_INFORMER_ANCHORED, "wrote " + anchors.stream().map(Write::id)
                    .toList() + " (the operator's, not the set's): kube-apiserver keeps the param informers of built-in "
                    + "paramKinds only while a binding uses them (kubernetes/kubernetes#130887)"));
        }
        List<Write> writes = this.writes.stream().filter(w -> w.action() != Write.Action.ANCHOR).toList();
        List<String> written = writes.stream().map(Write::id).toList();
        if (outcome.isBlocked() && !writes.isEmpty()) {
            events.add(new PlanEvent(false, PlanEvent.DRIFT_REPAIRED, "restored " + written + " to the last good generation "
                    + lastApplied.getGeneration() + " (generation " + generation + " is blocked)"));
        } else if (!writes.isEmpty() && writes.stream().allMatch(w -> w.action() == Write.Action.REPAIR
                || w.action() == Write.Action.CONTESTED_REPAIR)) {
            events.add(new PlanEvent(false, PlanEvent.DRIFT_REPAIRED, "restored " + written + " to generation " + generation));
        } else if (!writes.isEmpty()) {
            events.add(new PlanEvent(false, PlanEvent.APPLIED, "applied " + writes.size() + " object(s) of generation "
                    + generation + ": " + written));
        }
        if (!removals.isEmpty()) {
            events.add(new PlanEvent(false, PlanEvent.PRUNED, "deleted " + removals.stream().map(Removal::id).toList()
                    + ": no longer in the set"));
        }
        return events;
    }

    /** The Warning event for an outcome that needs someone's attention (recorded when the status changes). */
    public Optional<PlanEvent> warning() {
        if (outcome == Outcome.APPLIED) {
            // applied, but another writer keeps fields of these objects: someone has to decide between the two
            List<String> contested = objects.stream().filter(o -> o.state() == ObjectState.CONTESTED)
                    .map(o -> o.id() + ": " + o.message()).toList();
            return contested.isEmpty() ? Optional.empty()
                    : Optional.of(new PlanEvent(true, PlanEvent.CONTESTED, String.join("; ", contested)));
        }
        if (outcome == Outcome.PAUSED) {
            return Optional.empty();
        }
        return Optional.of(new PlanEvent(true, outcome.reason(), detail.isEmpty() ? outcome.name() : detail));
    }

    Plan withoutWrites(String newDetail) {
        return new Plan(generation, outcome, newDetail, findings, List.of(), removals, objects, lastApplied, previous,
                impact, held, scanned);
    }

    private List<ResourceStatus> previousRows() {
        return previous == null || previous.getResources() == null ? List.of() : previous.getResources();
    }

    private static Severity severity(String label) {
        try {
            return Severity.valueOf(label.toUpperCase(Locale.ROOT));
        } catch (RuntimeException e) {
            return Severity.WARNING;
        }
    }
}

package dev.policyset.aps.core.status;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySetStatus;
import dev.policyset.aps.api.v1alpha1.FindingStatus;
import dev.policyset.aps.api.v1alpha1.ResourceStatus;
import dev.policyset.aps.api.v1alpha1.StatusSummary;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.model.MutatingPolicyVersions;
import io.fabric8.kubernetes.api.model.Condition;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The one place a set's status is computed. Conditions per outcome:
 *
 * <pre>
 * outcome                     Ready               Validated          Applied              Reconciling     Stalled
 * APPLIED                     True  Applied       True  Validated    True  Applied        False           False
 * VALIDATION_FAILED           False ValidationF.  False ValidationF. False ValidationF.   False           True ValidationFailed
 * OWNERSHIP_CONFLICT          False Ownership...  True  Validated    False OwnershipC.    False           True OwnershipConflict
 * DRY_RUN_REJECTED            False DryRunRej.    True  Validated    False DryRunRej.     False           True DryRunRejected
 * MUTATING_POLICY_NOT_SERVED  False MutatingP...  False MutatingP... False MutatingP...    False           True MutatingPolicyNotServed
 * API_ERROR                   False ApiError      (kept)             False ApiError       True  ApiError  False
 * PAUSED                      False Paused        (kept)             (kept)               False Paused    False Paused
 * </pre>
 *
 * "Applied False" always means "nothing of this generation was applied"; the objects of the last good
 * generation stay in the cluster (a bad generation never tears down a good one), and the message says so.
 */
public final class StatusCalculator {
    /** Findings kept in status; the rest are counted in {@code findingsOmitted}, keeping the object small. */
    public static final int DEFAULT_MAX_FINDINGS = 50;

    private StatusCalculator() {}

    /**
     * @param generation the set's {@code metadata.generation}
     * @param outcome    what the reconcile came to
     * @param detail     one sentence for Ready's message when the outcome is not APPLIED (which finding,
     *                   which object, which API error); may be empty
     * @param findings   every finding of this reconcile (validator, ownership, dry run, cluster warnings)
     * @param resources  one row per generated object
     * @param previous   the status now on the object (its conditions keep their transition times), or null
     * @param now        the time to stamp on conditions that flip
     */
    public record Input(long generation, Outcome outcome, String detail, List<Finding> findings,
                        List<ResourceStatus> resources, AdmissionPolicySetStatus previous, Instant now,
                        int maxFindings) {
        public Input {
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(now, "now");
            detail = detail == null ? "" : detail;
            findings = List.copyOf(findings);
            resources = List.copyOf(resources);
        }

        public Input(long generation, Outcome outcome, String detail, List<Finding> findings,
                     List<ResourceStatus> resources, AdmissionPolicySetStatus previous, Instant now) {
            this(generation, outcome, detail, findings, resources, previous, now, DEFAULT_MAX_FINDINGS);
        }
    }

    public static AdmissionPolicySetStatus compute(Input in) {
        AdmissionPolicySetStatus status = new AdmissionPolicySetStatus();
        status.setObservedGeneration(in.generation());
        List<Condition> previous = in.previous() == null || in.previous().getConditions() == null
                ? List.of() : in.previous().getConditions();
        Builder b = new Builder(previous, in.generation(), in.now());
        String notApplied = "nothing of generation " + in.generation()
                + " was applied; the objects of the last good generation are unchanged";
        String detail = in.detail().isEmpty() ? "" : in.detail();
        switch (in.outcome()) {
            case APPLIED -> {
                long contested = in.resources().stream().filter(r -> "Contested".equals(r.getState())).count();
                String applied = contested == 0 ? in.resources().size() + " object(s) applied and in sync"
                        : (in.resources().size() - contested) + " object(s) applied and in sync, " + contested
                        + " contested by another field manager and left as it set them (APS405; see status.findings)";
                b.set(Conditions.READY, true, Conditions.REASON_APPLIED, applied);
                b.set(Conditions.VALIDATED, true, Conditions.REASON_VALIDATED, validatedMessage(in.findings()));
                b.set(Conditions.APPLIED, true, Conditions.REASON_APPLIED, applied);
                b.set(Conditions.RECONCILING, false, Conditions.REASON_NONE, "");
                b.set(Conditions.STALLED, false, Conditions.REASON_NONE, "");
            }
            case VALIDATION_FAILED -> stalled(b, Conditions.REASON_VALIDATION_FAILED,
                    or(detail, errorCount(in.findings()) + " error finding(s) block the apply; see status.findings"),
                    false, notApplied);
            case OWNERSHIP_CONFLICT -> stalled(b, Conditions.REASON_OWNERSHIP_CONFLICT,
                    or(detail, "an object the set generates belongs to someone else (APS403); see status.findings"),
                    true, notApplied);
            case DRY_RUN_REJECTED -> stalled(b, Conditions.REASON_DRY_RUN_REJECTED,
                    or(detail, "the API server rejected a server-side dry run; see status.findings"), true, notApplied);
            case MUTATING_POLICY_NOT_SERVED -> stalled(b, Conditions.REASON_MUTATING_POLICY_NOT_SERVED,
                    or(detail, MutatingPolicyVersions.notServedMessage()),
                    false, notApplied);
            case API_ERROR -> {
                String msg = or(detail, "an API request failed; retrying with backoff");
                b.set(Conditions.READY, false, Conditions.REASON_API_ERROR, msg);
                b.keep(Conditions.VALIDATED);
                b.set(Conditions.APPLIED, false, Conditions.REASON_API_ERROR,
                        "generation " + in.generation() + " is not fully applied yet; no object was deleted");
                b.set(Conditions.RECONCILING, true, Conditions.REASON_API_ERROR, msg);
                b.set(Conditions.STALLED, false, Conditions.REASON_NONE, "");
            }
            case PAUSED -> {
                String msg = "spec.paused is true: nothing is reconciled and the objects in the cluster are left as they are";
                b.set(Conditions.READY, false, Conditions.REASON_PAUSED, msg);
                b.keep(Conditions.VALIDATED);
                b.keep(Conditions.APPLIED);
                b.set(Conditions.RECONCILING, false, Conditions.REASON_PAUSED, msg);
                b.set(Conditions.STALLED, false, Conditions.REASON_PAUSED, msg);
            }
            default -> throw new IllegalStateException("unknown outcome " + in.outcome());
        }
        status.setConditions(b.conditions);

        List<Finding> sorted = in.findings().stream().sorted(Finding.ORDER).distinct().toList();
        int max = Math.max(0, in.maxFindings());
        List<FindingStatus> shown = new ArrayList<>();
        for (Finding f : sorted.subList(0, Math.min(max, sorted.size()))) {
            shown.add(new FindingStatus(f.rule(), f.severity().label(), f.object(), f.field(), f.message()));
        }
        status.setFindings(shown);
        status.setFindingsOmitted(sorted.size() > max ? sorted.size() - max : null);
        status.setResources(new ArrayList<>(in.resources()));
        status.setSummary(summary(b.conditions, in.resources().size(), sorted));
        return status;
    }

    /** What {@code kubectl get aps} shows: Ready as the conditions say it, and counts over every finding. */
    private static StatusSummary summary(List<Condition> conditions, int objects, List<Finding> findings) {
        Condition ready = conditions.stream().filter(c -> Conditions.READY.equals(c.getType())).findFirst().orElseThrow();
        int errors = (int) findings.stream().filter(f -> f.severity() == Severity.ERROR).count();
        int warnings = (int) findings.stream().filter(f -> f.severity() == Severity.WARNING).count();
        return new StatusSummary(ready.getStatus(), ready.getReason(), objects, errors, warnings);
    }

    private static void stalled(Builder b, String reason, String message, boolean validated, String notApplied) {
        b.set(Conditions.READY, false, reason, message);
        if (validated) {
            b.set(Conditions.VALIDATED, true, Conditions.REASON_VALIDATED, "no error finding blocks the apply");
        } else {
            b.set(Conditions.VALIDATED, false, reason, message);
        }
        b.set(Conditions.APPLIED, false, reason, notApplied);
        b.set(Conditions.RECONCILING, false, Conditions.REASON_NONE, "");
        b.set(Conditions.STALLED, true, reason, message);
    }

    private static String validatedMessage(List<Finding> findings) {
        long warnings = findings.stream().filter(f -> !f.isError()).count();
        return warnings == 0 ? "no findings" : "no error finding blocks the apply; " + warnings + " other finding(s)";
    }

    private static long errorCount(List<Finding> findings) {
        return findings.stream().filter(Finding::isError).count();
    }

    private static String or(String value, String fallback) {
        return value == null || value.isEmpty() ? fallback : value;
    }

    /** RFC 3339 at second precision, as metav1.Time serialises. */
    public static String timestamp(Instant now) {
        return now.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    private static final class Builder {
        private final List<Condition> previous;
        private final long generation;
        private final Instant now;
        private final List<Condition> conditions = new ArrayList<>();

        Builder(List<Condition> previous, long generation, Instant now) {
            this.previous = previous;
            this.generation = generation;
            this.now = now;
        }

        void set(String type, boolean value, String reason, String message) {
            String status = value ? "True" : "False";
            Optional<Condition> old = find(type);
            String since = old.filter(c -> status.equals(c.getStatus()))
                    .map(Condition::getLastTransitionTime)
                    .filter(t -> t != null && !t.isEmpty())
                    .orElse(timestamp(now));
            Condition c = new Condition();
            c.setType(type);
            c.setStatus(status);
            c.setReason(reason);
            c.setMessage(message);
            c.setObservedGeneration(generation);
            c.setLastTransitionTime(since);
            conditions.add(c);
        }

        /** Keeps a condition as it was (it still describes the generation it names), or Unknown if absent. */
        void keep(String type) {
            Optional<Condition> old = find(type);
            if (old.isPresent()) {
                Condition c = old.get();
                Condition copy = new Condition(c.getLastTransitionTime(), c.getMessage(), c.getObservedGeneration(),
                        c.getReason(), c.getStatus(), c.getType());
                conditions.add(copy);
            } else {
                Condition c = new Condition(timestamp(now), "not evaluated yet", generation, "NotEvaluated", "Unknown", type);
                conditions.add(c);
            }
        }

        private Optional<Condition> find(String type) {
            return previous.stream().filter(c -> type.equals(c.getType())).findFirst();
        }
    }
}

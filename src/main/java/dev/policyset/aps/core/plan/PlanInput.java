package dev.policyset.aps.core.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySetStatus;

/**
 * One set as the planner sees it: its whole document (metadata, spec) as JSON, and the status now stored on it
 * (the previous reconcile's answer, which carries the last applied generation).
 */
public record PlanInput(ObjectNode set, AdmissionPolicySetStatus previous, Scan scan) {
    /**
     * An impact scan to run in this plan (the operator asks for one at most once per aps.impact.interval, and when
     * the generation changed): where the existing objects are, the time to stamp on it, and its bounds; with
     * {@code reports} (aps.reports.enabled) the plan also carries the scan as OpenReports.
     */
    public record Scan(dev.policyset.aps.core.impact.ExistingObjectSource source, String now, int maxObjects,
                       int samples, dev.policyset.aps.core.impact.OpenReports.Options reports) {
        /** A scan without policy reports. */
        public Scan(dev.policyset.aps.core.impact.ExistingObjectSource source, String now, int maxObjects, int samples) {
            this(source, now, maxObjects, samples, null);
        }
    }

    /** A plan without an impact scan: {@code status.impact} is carried over. */
    public PlanInput(ObjectNode set, AdmissionPolicySetStatus previous) {
        this(set, previous, null);
    }

    public String name() {
        return set.path("metadata").path("name").asText("");
    }

    public String uid() {
        return set.path("metadata").path("uid").asText("");
    }

    public long generation() {
        return set.path("metadata").path("generation").asLong(0);
    }

    public boolean paused() {
        JsonNode paused = set.path("spec").path("paused");
        return paused.isBoolean() && paused.asBoolean();
    }
}

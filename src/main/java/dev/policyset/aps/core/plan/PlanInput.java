package dev.policyset.aps.core.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySetStatus;

/**
 * One set as the planner sees it: its whole document (metadata, spec) as JSON, and the status now stored on it
 * (the previous reconcile's answer, which carries the last applied generation, and the last finished impact scan in
 * {@code status.impact}, which the operator's scan executor writes).
 */
public record PlanInput(ObjectNode set, AdmissionPolicySetStatus previous) {
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

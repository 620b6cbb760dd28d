package dev.policyset.aps.core.status;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySetStatus;
import dev.policyset.aps.api.v1alpha1.ResourceStatus;
import dev.policyset.aps.api.v1alpha1.StatusSummary;
import dev.policyset.aps.core.finding.Finding;
import io.fabric8.kubernetes.api.model.Condition;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class StatusCalculatorTest {
    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00.123Z");
    private static final Instant T1 = Instant.parse("2026-11-30T11:00:00Z");
    private static final Instant T2 = Instant.parse("2026-11-30T12:00:00Z");
    private static final List<ResourceStatus> ROWS = List.of(new ResourceStatus(
            "admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy", "p", "Applied", ""));

    private static AdmissionPolicySetStatus compute(long gen, Outcome outcome, List<Finding> findings,
                                                    AdmissionPolicySetStatus previous, Instant now) {
        return StatusCalculator.compute(new StatusCalculator.Input(gen, outcome, "", findings, ROWS, previous, now));
    }

    private static Condition condition(AdmissionPolicySetStatus s, String type) {
        return s.getConditions().stream().filter(c -> c.getType().equals(type)).findFirst().orElseThrow();
    }

    @Test
    void appliedIsReadyAndNotReconcilingOrStalled() {
        AdmissionPolicySetStatus s = compute(3, Outcome.APPLIED, List.of(), null, T0);
        assertEquals(3L, s.getObservedGeneration());
        assertEquals(List.of("Ready", "Validated", "Applied", "Reconciling", "Stalled"),
                s.getConditions().stream().map(Condition::getType).toList());
        assertEquals("True", condition(s, "Ready").getStatus());
        assertEquals("Applied", condition(s, "Ready").getReason());
        assertEquals("False", condition(s, "Stalled").getStatus());
        assertEquals("False", condition(s, "Reconciling").getStatus());
        assertEquals("2026-11-30T10:00:00Z", condition(s, "Ready").getLastTransitionTime());
        s.getConditions().forEach(c -> assertEquals(3L, c.getObservedGeneration()));
        assertEquals(ROWS, s.getResources());
    }

    @Test
    void sameInputsGiveAnEqualStatusSoTheOperatorCanSkipTheWrite() {
        AdmissionPolicySetStatus first = compute(1, Outcome.APPLIED, List.of(), null, T0);
        AdmissionPolicySetStatus again = compute(1, Outcome.APPLIED, List.of(), first, T1);
        assertEquals(io.fabric8.kubernetes.client.utils.Serialization.asJson(first),
                io.fabric8.kubernetes.client.utils.Serialization.asJson(again));
    }

    @Test
    void transitionTimeMovesOnlyWhenStatusFlips() {
        AdmissionPolicySetStatus good = compute(1, Outcome.APPLIED, List.of(), null, T0);
        Finding error = Finding.error("api/Invalid", "ValidatingAdmissionPolicy/p", "spec.validations[0].expression", "bad");
        AdmissionPolicySetStatus bad = compute(2, Outcome.VALIDATION_FAILED, List.of(error), good, T1);
        assertEquals("False", condition(bad, "Ready").getStatus());
        assertEquals("ValidationFailed", condition(bad, "Ready").getReason());
        assertEquals("2026-11-30T11:00:00Z", condition(bad, "Ready").getLastTransitionTime());
        assertEquals("True", condition(bad, "Stalled").getStatus());
        assertEquals("False", condition(bad, "Validated").getStatus());
        assertEquals("False", condition(bad, "Applied").getStatus());
        // Reconciling stays False: its transition time is the first one.
        assertEquals("2026-11-30T10:00:00Z", condition(bad, "Reconciling").getLastTransitionTime());

        // Still bad, another generation, later: no flip, no new transition time; reason/message may change.
        AdmissionPolicySetStatus conflict = compute(3, Outcome.OWNERSHIP_CONFLICT, List.of(), bad, T2);
        assertEquals("2026-11-30T11:00:00Z", condition(conflict, "Ready").getLastTransitionTime());
        assertEquals("OwnershipConflict", condition(conflict, "Ready").getReason());
        assertEquals("True", condition(conflict, "Validated").getStatus());
        assertEquals("2026-11-30T12:00:00Z", condition(conflict, "Validated").getLastTransitionTime());
        assertEquals(3L, condition(conflict, "Stalled").getObservedGeneration());

        AdmissionPolicySetStatus fixed = compute(4, Outcome.APPLIED, List.of(), conflict, T2);
        assertEquals("True", condition(fixed, "Ready").getStatus());
        assertEquals("2026-11-30T12:00:00Z", condition(fixed, "Ready").getLastTransitionTime());
    }

    @Test
    void dryRunRejectionIsStalledButValidated() {
        AdmissionPolicySetStatus s = compute(1, Outcome.DRY_RUN_REJECTED, List.of(), null, T0);
        assertEquals("DryRunRejected", condition(s, "Ready").getReason());
        assertEquals("True", condition(s, "Validated").getStatus());
        assertEquals("True", condition(s, "Stalled").getStatus());
        assertEquals("DryRunRejected", condition(s, "Applied").getReason());
    }

    @Test
    void apiErrorIsReconcilingAndKeepsValidated() {
        AdmissionPolicySetStatus good = compute(1, Outcome.APPLIED, List.of(), null, T0);
        AdmissionPolicySetStatus s = compute(2, Outcome.API_ERROR, List.of(), good, T1);
        assertEquals("True", condition(s, "Reconciling").getStatus());
        assertEquals("False", condition(s, "Stalled").getStatus());
        assertEquals(1L, condition(s, "Validated").getObservedGeneration());
        assertEquals("ApiError", condition(s, "Ready").getReason());
    }

    @Test
    void pausedKeepsValidatedAndAppliedAsTheyWere() {
        AdmissionPolicySetStatus good = compute(1, Outcome.APPLIED, List.of(), null, T0);
        AdmissionPolicySetStatus s = compute(2, Outcome.PAUSED, List.of(), good, T1);
        assertEquals("Paused", condition(s, "Ready").getReason());
        assertEquals("False", condition(s, "Ready").getStatus());
        assertEquals("True", condition(s, "Applied").getStatus());
        assertEquals(1L, condition(s, "Applied").getObservedGeneration());
        assertEquals("False", condition(s, "Stalled").getStatus());
        AdmissionPolicySetStatus fresh = compute(1, Outcome.PAUSED, List.of(), null, T1);
        assertEquals("Unknown", condition(fresh, "Validated").getStatus());
    }

    @Test
    void mutatingPolicyNotServedSaysWhatToDo() {
        AdmissionPolicySetStatus s = compute(1, Outcome.MUTATING_POLICY_NOT_SERVED, List.of(), null, T0);
        assertEquals("MutatingPolicyNotServed", condition(s, "Ready").getReason());
        assertEquals("True", condition(s, "Stalled").getStatus());
        assertEquals(true, condition(s, "Ready").getMessage().contains("spec.mutatingPolicies"));
    }

    @Test
    void findingsAreSortedCappedAndCounted() {
        List<Finding> findings = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            findings.add(Finding.warning("APS402", "ValidatingAdmissionPolicy/p" + (100 + i), "", "no binding"));
        }
        findings.add(Finding.error("APS201", "ValidatingWebhookConfiguration/w", "webhooks[0]", "kube-system"));
        AdmissionPolicySetStatus s = StatusCalculator.compute(new StatusCalculator.Input(
                1, Outcome.VALIDATION_FAILED, "", findings, ROWS, null, T0, 10));
        assertEquals(10, s.getFindings().size());
        assertEquals(51, s.getFindingsOmitted());
        assertEquals("APS201", s.getFindings().get(0).getRule());
        assertEquals("error", s.getFindings().get(0).getSeverity());
        AdmissionPolicySetStatus few = compute(1, Outcome.APPLIED, findings.subList(0, 3), null, T0);
        assertEquals(3, few.getFindings().size());
        assertNull(few.getFindingsOmitted());
    }

    @Test
    void summaryCarriesReadyItsReasonAndCountsOverEveryFindingForKubectlGet() {
        List<Finding> findings = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            findings.add(Finding.warning("APS402", "ValidatingAdmissionPolicy/p" + i, "", "no binding"));
        }
        findings.add(Finding.error("APS201", "ValidatingWebhookConfiguration/w", "webhooks[0]", "kube-system"));
        findings.add(Finding.info("input/Skipped", "ConfigMap/c", "", "not an admission object"));
        AdmissionPolicySetStatus bad = StatusCalculator.compute(new StatusCalculator.Input(
                4, Outcome.VALIDATION_FAILED, "", findings, ROWS, null, T0, 5));
        // Counts include the findings the cap left out of status.findings.
        assertEquals(new StatusSummary("False", "ValidationFailed", 1, 1, 12), bad.getSummary());

        AdmissionPolicySetStatus good = compute(5, Outcome.APPLIED, List.of(), bad, T1);
        assertEquals(new StatusSummary("True", "Applied", 1, 0, 0), good.getSummary());

        AdmissionPolicySetStatus paused = compute(6, Outcome.PAUSED, List.of(), good, T2);
        assertEquals(new StatusSummary("False", "Paused", 1, 0, 0), paused.getSummary());
        AdmissionPolicySetStatus retrying = compute(6, Outcome.API_ERROR, List.of(), good, T2);
        assertEquals(new StatusSummary("False", "ApiError", 1, 0, 0), retrying.getSummary());
    }
}

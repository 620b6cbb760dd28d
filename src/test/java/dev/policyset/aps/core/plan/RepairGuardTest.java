package dev.policyset.aps.core.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySetStatus;
import dev.policyset.aps.api.v1alpha1.ResourceStatus;
import dev.policyset.aps.core.cel.KubernetesCelChecker;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.finding.RuleCatalog;
import dev.policyset.aps.core.model.ClusterView;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.model.LiveObject;
import dev.policyset.aps.core.yaml.Yaml;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The contested-field guard (APS405) as core decides it: drift repairs are forced while the count of the row at
 * this generation is below the limit, then applied without force; the server's 409 makes the row Contested with a
 * warning naming the other manager; a new generation starts from zero. Fixtures: the drift-repaired golden case.
 */
class RepairGuardTest {
    private static final Path CASE = Path.of("src/test/resources/golden/plan/drift-repaired");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Planner PLANNER = new Planner(new KubernetesCelChecker(), 3);
    private static final String VAP = "ValidatingAdmissionPolicy/web-labels";

    @Test
    void repairsAreForcedUntilTheLimitThenAppliedWithoutForce() throws Exception {
        List<Integer> counted = new java.util.ArrayList<>();
        List<Write.Action> actions = new java.util.ArrayList<>();
        AdmissionPolicySetStatus status = previous(set());
        for (int reconcile = 0; reconcile < 5; reconcile++) {
            Plan plan = PLANNER.plan(new PlanInput(set(), status), cluster());
            Write vap = plan.writes().stream().filter(w -> w.id().equals(VAP)).findFirst().orElseThrow();
            actions.add(vap.action());
            counted.add(row(plan, VAP).repairs());
            status = plan.status(Instant.EPOCH, 50);
        }
        assertEquals(List.of(Write.Action.REPAIR, Write.Action.REPAIR, Write.Action.REPAIR,
                Write.Action.CONTESTED_REPAIR, Write.Action.CONTESTED_REPAIR), actions);
        assertEquals(List.of(1, 2, 3, 3, 3), counted, "the count stops at the limit");
        assertEquals(3, status.getResources().get(0).getRepairs(), "the count is in status.resources (survives a restart)");
    }

    @Test
    void aConflictMakesTheRowContestedWithAWarningNamingTheOtherManager() throws Exception {
        Plan plan = PLANNER.plan(new PlanInput(set(), withRepairs(previous(set()), 3)), cluster());
        assertFalse(plan.writes().stream().filter(w -> w.id().equals(VAP)).findFirst().orElseThrow().forced());
        ApplyConflict conflict = new ApplyConflict(VAP, "Apply failed with 1 conflict: conflict with \"policy-loop\" "
                + "using admissionregistration.k8s.io/v1: .spec.failurePolicy", List.of(new DryRunRejection.Cause(
                "FieldManagerConflict", ".spec.failurePolicy", "conflict with \"policy-loop\" using admissionregistration.k8s.io/v1")));
        Plan after = RepairGuard.afterConflicts(plan, List.of(conflict));

        ObjectResult row = row(after, VAP);
        assertEquals(ObjectState.CONTESTED, row.state());
        assertTrue(row.message().contains("\"policy-loop\"") && row.message().contains(".spec.failurePolicy"), row.message());
        Finding f = after.findings().stream().filter(x -> x.rule().equals(RepairGuard.RULE)).findFirst().orElseThrow();
        assertTrue(f.severity().label().equals("warning"));
        assertEquals(VAP, f.object());
        assertEquals("spec.failurePolicy", f.field());
        for (String part : List.of("\"policy-loop\"", ".spec.failurePolicy", "3 repairs", "Stop the other writer",
                "remove the field from the set", "ignoreDifferences")) {
            assertTrue(f.message().contains(part), part + " missing: " + f.message());
        }
        assertTrue(after.writes().stream().noneMatch(w -> w.id().equals(VAP)), "the refused write is not reported as written");
        assertTrue(RuleCatalog.find(RepairGuard.RULE).isPresent());

        AdmissionPolicySetStatus status = after.status(Instant.EPOCH, 50);
        ResourceStatus stored = status.getResources().stream().filter(r -> r.getName().equals("web-labels")).findFirst().orElseThrow();
        assertEquals("Contested", stored.getState());
        assertEquals("True", status.getConditions().get(0).getStatus(), "the rest of the set is applied: Ready stays True");
        assertTrue(status.getConditions().get(0).getMessage().contains("1 contested"), status.getConditions().get(0).getMessage());

        PlanEvent warning = after.warning().orElseThrow(() -> new AssertionError("no Warning event for a contested row"));
        assertTrue(warning.warning());
        assertEquals(PlanEvent.CONTESTED, warning.reason());
        assertTrue(warning.message().startsWith(VAP + ": ") && warning.message().contains("\"policy-loop\""), warning.message());
        assertTrue(plan.warning().isEmpty(), "no warning before the server's answer");
    }

    @Test
    void aNewGenerationResetsTheCountAndForcesAgain() throws Exception {
        ObjectNode next = set();
        next.with("metadata").put("generation", 2);
        Plan plan = PLANNER.plan(new PlanInput(next, withRepairs(previous(set()), 3)), cluster());
        Write vap = plan.writes().stream().filter(w -> w.id().equals(VAP)).findFirst().orElseThrow();
        assertEquals(Write.Action.UPDATE, vap.action());
        assertTrue(vap.forced());
        assertEquals(0, row(plan, VAP).repairs());
    }

    @Test
    void theRepairMessageNamesTheManagerThatOwnsTheRenderedFieldAlone() throws Exception {
        ObjectNode live = (ObjectNode) cluster().find(dev.policyset.aps.core.model.AdmissionKind.VALIDATING_ADMISSION_POLICY,
                "web-labels").orElseThrow().object().deepCopy();
        ArrayNode managed = live.with("metadata").putArray("managedFields");
        managed.add(JSON.readTree("{\"manager\":\"admission-policy-operator\",\"operation\":\"Apply\",\"fieldsV1\":"
                + "{\"f:spec\":{\"f:validations\":{}}}}"));
        managed.add(JSON.readTree("{\"manager\":\"policy-loop\",\"operation\":\"Apply\",\"fieldsV1\":"
                + "{\"f:spec\":{\"f:failurePolicy\":{},\"f:auditAnnotations\":{}}}}"));
        JsonNode desired = JSON.readTree("{\"spec\":{\"failurePolicy\":\"Fail\",\"validations\":[]}}");
        Map<String, List<String>> others = ManagedFieldOwners.others(LiveObject.of(live).orElseThrow(), desired);
        assertEquals(Map.of("policy-loop", List.of(".spec.failurePolicy")), others, "fields the set does not render are not contested");

        JsonNode webhook = JSON.readTree("{\"webhooks\":[{\"name\":\"a.x\",\"failurePolicy\":\"Ignore\"}]}");
        ObjectNode hookLive = JSON.createObjectNode().put("kind", "ValidatingWebhookConfiguration");
        hookLive.with("metadata").put("name", "w").putArray("managedFields").add(JSON.readTree(
                "{\"manager\":\"istiod\",\"fieldsV1\":{\"f:webhooks\":{\"k:{\\\"name\\\":\\\"a.x\\\"}\":{\".\":{},\"f:failurePolicy\":{}}}}}"));
        assertEquals(Map.of("istiod", List.of(".webhooks[name=\"a.x\"].failurePolicy")),
                ManagedFieldOwners.others(LiveObject.of(hookLive).orElseThrow(), webhook));
        assertTrue(RepairGuard.repairMessage(2, 3, 1, others).contains("by field manager \"policy-loop\" (.spec.failurePolicy); repair 2 of 3"));
    }

    // ------------------------------------------------------------------------------------------------ fixtures

    private static ObjectNode set() throws Exception {
        return (ObjectNode) Yaml.parse("in-set.yaml", Files.readString(CASE.resolve("in-set.yaml"))).get(0).content();
    }

    private static AdmissionPolicySetStatus previous(ObjectNode set) {
        return JSON.convertValue(set.get("status"), AdmissionPolicySetStatus.class);
    }

    private static AdmissionPolicySetStatus withRepairs(AdmissionPolicySetStatus status, int repairs) {
        status.getResources().stream().filter(r -> r.getName().equals("web-labels")).forEach(r -> r.setRepairs(repairs));
        return status;
    }

    private static ClusterView cluster() throws Exception {
        Path file = CASE.resolve("in-cluster-vap-edited-by-hand.yaml");
        List<LiveObject> objects = Yaml.parse(file.toString(), Files.readString(file)).stream()
                .map(d -> LiveObject.of((ObjectNode) d.content()).orElseThrow()).toList();
        return ClusterView.of(new KubeVersion(1, 34), Optional.of("v1beta1"), objects);
    }

    private static ObjectResult row(Plan plan, String id) {
        return plan.objects().stream().filter(o -> o.id().equals(id)).findFirst().orElseThrow();
    }
}

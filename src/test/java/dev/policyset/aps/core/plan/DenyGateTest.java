package dev.policyset.aps.core.plan;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySetStatus;
import dev.policyset.aps.core.cel.KubernetesCelChecker;
import dev.policyset.aps.core.impact.ExistingObjectSource;
import dev.policyset.aps.core.impact.ImpactScan;
import dev.policyset.aps.core.impact.ImpactStatuses;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.ClusterView;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.model.LiveObject;
import dev.policyset.aps.core.status.Outcome;
import dev.policyset.aps.core.yaml.Yaml;
import io.fabric8.kubernetes.api.model.Condition;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code spec.safety.requireNoViolationsBeforeDeny}: the plan holds a binding at its previous actions, or lets Deny through. */
class DenyGateTest {
    private static final Planner PLANNER = new Planner(new KubernetesCelChecker());
    private static final Instant NOW = Instant.parse("2026-12-01T19:00:00Z");

    private static final String SET = """
            apiVersion: admission.policyset.dev/v1alpha1
            kind: AdmissionPolicySet
            metadata: {name: team, uid: u-1, generation: 2}
            spec:
              safety: {requireNoViolationsBeforeDeny: %s}
              defaults: {validationActions: [%s]}
              validatingPolicies:
              - name: require-team
                policy:
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
                  validations:
                  - expression: "has(object.metadata.labels) && 'team' in object.metadata.labels"
                    message: team label required
            """;

    @Test
    void aViolatorHoldsTheBindingAtItsLiveActionsWithAConditionSayingWhy() {
        Plan plan = PLANNER.plan(new PlanInput(set(true, "Deny"), scanned(set(true, "Deny"), deployment("a", "db", false))),
                cluster(binding("Warn, Audit")));
        assertEquals(Outcome.APPLIED, plan.outcome());
        assertEquals(List.of("Warn", "Audit"), actionsWritten(plan));
        AdmissionPolicySetStatus status = plan.status(NOW, 50);
        assertEquals(1, status.getImpact().getBindings().get(0).getViolations());
        assertEquals(List.of("Deployment a/db: team label required"), status.getImpact().getBindings().get(0).getSamples());
        Condition held = condition(status);
        assertEquals("True", held.getStatus());
        assertEquals("ViolationsFound", held.getReason());
        assertTrue(held.getMessage().startsWith("ValidatingAdmissionPolicyBinding/require-team-binding asks for [Deny] but the "
                + "impact scan at 2026-12-01T19:00:00Z found 1 existing object(s) it would deny (e.g. Deployment a/db: team "
                + "label required); applied with [Warn, Audit] (its actions in the cluster)"), held.getMessage());
    }

    @Test
    void aCleanScanLetsDenyThrough() {
        Plan plan = PLANNER.plan(new PlanInput(set(true, "Deny"), scanned(set(true, "Deny"), deployment("a", "web", true))),
                cluster(binding("Warn, Audit")));
        assertEquals(List.of("Deny"), actionsWritten(plan));
        Condition c = condition(plan.status(NOW, 50));
        assertEquals("False", c.getStatus());
    }

    @Test
    void withoutAScanANewBindingStartsStagedAndTheNextPlanKeepsTheScanItCarries() {
        Plan first = PLANNER.plan(new PlanInput(set(true, "Deny"), null), cluster());
        assertEquals(List.of("Warn", "Audit"), actionsWritten(first));
        assertTrue(condition(first.status(NOW, 50)).getMessage().contains("no impact scan has covered it yet; applied with "
                + "[Warn, Audit] (a new binding starts staged)"));

        // a clean scan written into status.impact; the next plans let Deny through from it and carry it over
        AdmissionPolicySetStatus scanned = PLANNER.plan(new PlanInput(set(true, "Deny"), scanned(set(true, "Deny"), deployment("a", "web", true))),
                cluster(binding("Warn, Audit"))).status(NOW, 50);
        Plan later = PLANNER.plan(new PlanInput(set(true, "Deny"), scanned), cluster(binding("Warn, Audit")));
        assertEquals(List.of("Deny"), actionsWritten(later));
        assertEquals(scanned.getImpact().getScannedAt(), later.status(NOW, 50).getImpact().getScannedAt());
    }

    @Test
    void anIncompleteScanHoldsAndTheGateOffAppliesDenyAsAsked() {
        Plan held = PLANNER.plan(new PlanInput(set(true, "Deny"), scanned(set(true, "Deny"),
                List.of(new ExistingObjectSource.Resource("", "v1", "pods")))), cluster(binding("Warn")));
        assertEquals(List.of("Warn"), actionsWritten(held));
        assertTrue(condition(held.status(NOW, 50)).getMessage().contains("the impact scan is incomplete: the policy matches "
                + "apps/deployments, which the operator does not list"), condition(held.status(NOW, 50)).getMessage());

        Plan off = PLANNER.plan(new PlanInput(set(false, "Deny"), scanned(set(false, "Deny"), deployment("a", "db", false))),
                cluster(binding("Warn, Audit")));
        assertEquals(List.of("Deny"), actionsWritten(off));
        assertNull(off.status(NOW, 50).getConditions().stream()
                .filter(c -> c.getType().equals("EnforcementHeld")).findFirst().orElse(null));
        assertEquals(1, off.status(NOW, 50).getImpact().getBindings().get(0).getViolations());
    }

    @Test
    void paramsTheOperatorCannotReadMakeTheScanIncomplete() {
        ObjectNode withParams = set(true, "Deny");
        ObjectNode policy = (ObjectNode) withParams.path("spec").path("validatingPolicies").get(0).path("policy");
        policy.putObject("paramKind").put("apiVersion", "v1").put("kind", "ConfigMap");
        ((ObjectNode) withParams.path("spec").path("validatingPolicies").get(0)).putArray("bindings").addObject()
                .put("name", "require-team-binding").putObject("spec").putArray("validationActions").add("Deny");
        Plan plan = PLANNER.plan(new PlanInput(withParams, scanned(withParams, deployment("a", "web", true))), cluster(binding("Warn")));
        assertEquals(List.of("Warn"), actionsWritten(plan));
        assertTrue(condition(plan.status(NOW, 50)).getMessage().contains("its paramKind core/configmaps is not listed"),
                condition(plan.status(NOW, 50)).getMessage());
    }

    @Test
    void aBindingAlreadyEnforcingIsNotHeld() {
        Plan plan = PLANNER.plan(new PlanInput(set(true, "Deny"), scanned(set(true, "Deny"), deployment("a", "db", false))),
                cluster(binding("Deny")));
        assertEquals(List.of("Deny"), actionsWritten(plan));
        assertEquals("False", condition(plan.status(NOW, 50)).getStatus());
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private static List<String> actionsWritten(Plan plan) {
        Write w = plan.writes().stream().filter(x -> x.kind() == AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING
                        && x.action() != Write.Action.ANCHOR) // the set's binding, not a param-informer anchor
                .findFirst().orElseThrow(() -> new AssertionError("no binding written: " + plan.writes()));
        List<String> out = new ArrayList<>();
        w.object().path("spec").path("validationActions").forEach(n -> out.add(n.asText()));
        return out;
    }

    private static Condition condition(AdmissionPolicySetStatus status) {
        return status.getConditions().stream().filter(c -> c.getType().equals("EnforcementHeld")).findFirst()
                .orElseThrow(() -> new AssertionError("no EnforcementHeld condition"));
    }

    private static ObjectNode set(boolean gate, String actions) {
        return yaml(SET.formatted(gate, actions));
    }

    @Test
    void anAppliedGenerationGivesTheScanItsRenderedPoliciesAndABlockedOneNone() {
        Plan applied = PLANNER.plan(new PlanInput(set(true, "Deny"), null), cluster());
        assertEquals(List.of("ValidatingAdmissionPolicy/require-team", "ValidatingAdmissionPolicyBinding/require-team-binding"),
                applied.scanned().stream().map(o -> o.kind().kind() + "/" + o.name()).toList());
        // the scan reads the binding as the set asks for it; the gate holds what is written
        assertEquals(List.of("Deny"), actions(applied.scanned().get(1).manifest()));
        assertEquals(List.of("Warn", "Audit"), actionsWritten(applied));
        ObjectNode broken = set(true, "Deny");
        ((ObjectNode) broken.path("spec").path("validatingPolicies").get(0).path("policy").path("validations").get(0))
                .put("expression", "object.metadata.(");
        Plan blocked = PLANNER.plan(new PlanInput(broken, null), cluster());
        assertEquals(Outcome.VALIDATION_FAILED, blocked.outcome());
        assertNull(blocked.scanned());
    }

    private static List<String> actions(com.fasterxml.jackson.databind.JsonNode manifest) {
        List<String> out = new ArrayList<>();
        manifest.path("spec").path("validationActions").forEach(n -> out.add(n.asText()));
        return out;
    }

    private static final List<ExistingObjectSource.Resource> DEPLOYMENTS_AND_NAMESPACES = List.of(
            new ExistingObjectSource.Resource("apps", "v1", "deployments"), new ExistingObjectSource.Resource("", "v1", "namespaces"));

    /** The status after the operator's scan of the set's applied generation over these Deployments. */
    private static AdmissionPolicySetStatus scanned(ObjectNode set, ObjectNode... deployments) {
        return scanned(set, DEPLOYMENTS_AND_NAMESPACES, deployments);
    }

    private static AdmissionPolicySetStatus scanned(ObjectNode set, List<ExistingObjectSource.Resource> listed,
                                                    ObjectNode... objects) {
        List<RenderedObject> configuration = PLANNER.plan(new PlanInput(set, null), cluster()).scanned();
        ImpactScan.SourceScan scan = ImpactScan.scan(configuration, ExistingObjectSource.of(listed, List.of(objects), 2),
                KubeVersion.NEWEST, new ImpactScan.Options(1000, 5, null));
        AdmissionPolicySetStatus status = new AdmissionPolicySetStatus();
        status.setImpact(ImpactStatuses.of(scan, configuration, set.path("metadata").path("generation").asLong(),
                "2026-12-01T19:00:00Z"));
        return status;
    }

    private static ObjectNode deployment(String ns, String name, boolean labelled) {
        return yaml("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: " + name + ", namespace: " + ns
                + (labelled ? ", labels: {team: t}" : "") + "}\n");
    }

    /** The set's binding in the cluster, labelled and owned, with these actions. */
    private static LiveObject binding(String actions) {
        return LiveObject.of(yaml("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata:
                  name: require-team-binding
                  labels: {admission.policyset.dev/set: team}
                  ownerReferences: [{apiVersion: admission.policyset.dev/v1alpha1, kind: AdmissionPolicySet, name: team, uid: u-1, controller: true}]
                spec: {policyName: require-team, validationActions: [%s]}
                """.formatted(actions))).orElseThrow();
    }

    private static ClusterView cluster(LiveObject... live) {
        return ClusterView.of(KubeVersion.NEWEST, Optional.of("v1"), List.of(live));
    }

    private static ObjectNode yaml(String text) {
        try {
            return (ObjectNode) Yaml.parse("test.yaml", text).get(0).content();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}

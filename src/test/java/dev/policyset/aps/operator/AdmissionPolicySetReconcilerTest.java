package dev.policyset.aps.operator;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.api.v1alpha1.FindingStatus;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.operator.testing.ApplyAwareDispatcher;
import dev.policyset.aps.operator.testing.ApplyAwareDispatcher.Request;
import dev.policyset.aps.operator.testing.ApsMockServer;
import dev.policyset.aps.operator.testing.SetStatus;
import dev.policyset.aps.operator.testing.Sets;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.policyset.aps.operator.testing.SetStatus.assertCondition;
import static dev.policyset.aps.operator.testing.SetStatus.condition;
import static dev.policyset.aps.operator.testing.SetStatus.conditionIs;
import static dev.policyset.aps.operator.testing.SetStatus.objectName;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What only the fabric8 CRUD mock server (extended by {@link ApplyAwareDispatcher}) can show: a refusal injected
 * into a dry run, specs the real API server's schema would refuse before the operator sees them (the operator's own
 * defence), and request-level details of paused and uncompilable sets. Everything a real server can judge
 * (create, no-op resync, update, prune, drift, ownership, deletion, APS601) is in {@link AdmissionPolicySetRealServerTest}.
 * Each test uses its own set and object names; MutatingAdmissionPolicy is served at v1beta1 here.
 */
@QuarkusTest
@QuarkusTestResource(value = ApsMockServer.class, restrictToAnnotatedClass = true)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AdmissionPolicySetReconcilerTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String MAP_VERSION = "v1beta1";

    @Inject
    KubernetesClient client;

    @Inject
    MeterRegistry registry;

    @AfterEach
    void resetHooks() {
        ApsMockServer.dispatcher().admission(null);
        ApsMockServer.dispatcher().failNextWrites(0, 500);
    }

    // ------------------------------------------------------------------------------------------------ tests

    @Test
    @Order(4)
    void badUpdateAppliesNothingKeepsTheLastGoodObjectsAndStalls() {
        create(Sets.six("bad", "good message"));
        awaitReady("bad", 1);
        String vapVersion = live(AdmissionKind.VALIDATING_ADMISSION_POLICY, "bad-vap").orElseThrow().getMetadata().getResourceVersion();
        int mark = ApsMockServer.dispatcher().mark();

        AdmissionPolicySet broken = Sets.six("bad", "changed message");
        broken.getSpec().getDefaults().setWebhookTimeoutSeconds(45);
        replaceSpec("bad", broken);
        AdmissionPolicySet stalled = await().atMost(WAIT).until(() -> get("bad"),
                s -> conditionIs(s, "Stalled", "True") && s.getStatus().getObservedGeneration() == 2);

        assertCondition(stalled, "Ready", "False", "ValidationFailed");
        assertCondition(stalled, "Validated", "False", "ValidationFailed");
        assertCondition(stalled, "Applied", "False", "ValidationFailed");
        assertTrue(stalled.getStatus().getFindings().stream().anyMatch(f -> f.getRule().equals("api/Invalid")
                && f.getField().equals("spec.defaults.webhookTimeoutSeconds")), stalled.getStatus().getFindings().toString());
        assertEquals("good message", SetStatus.vapMessage(client, "bad-vap"));
        assertEquals(vapVersion, live(AdmissionKind.VALIDATING_ADMISSION_POLICY, "bad-vap").orElseThrow().getMetadata().getResourceVersion());
        assertEquals(List.of(), writesTo(mark, "/bad-"), "nothing of the bad generation is written");
        assertEquals("good message", SetStatus.vapMessage(client, "bad-vap"));
        awaitEvent("bad", "ValidationFailed");

        // While blocked, the last good objects are still protected: a hand edit is restored to the last good generation.
        client.genericKubernetesResources(ManagedKinds.context(AdmissionKind.VALIDATING_ADMISSION_POLICY, "v1"))
                .withName("bad-vap").edit(r -> {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> spec = (Map<String, Object>) r.getAdditionalProperties().get("spec");
                    spec.put("failurePolicy", "Ignore");
                    return r;
                });
        await().atMost(WAIT).until(() -> "Fail".equals(SetStatus.vapField(client, "bad-vap", "failurePolicy")));
        assertEquals("good message", SetStatus.vapMessage(client, "bad-vap"), "restored to the last good generation, not the bad one");

        // Fixing the spec recovers: Ready flips back, Stalled clears.
        replaceSpec("bad", Sets.six("bad", "fixed message"));
        AdmissionPolicySet fixed = awaitReady("bad", 3);
        assertCondition(fixed, "Stalled", "False", null);
        assertEquals("fixed message", SetStatus.vapMessage(client, "bad-vap"));
    }

    @Test
    @Order(5)
    void conditionTransitionsMoveOnlyOnFlips() {
        create(Sets.validating("flips", "flips-a"));
        AdmissionPolicySet first = awaitReady("flips", 1);
        String readySince = condition(first, "Ready").getLastTransitionTime();
        String stalledSince = condition(first, "Stalled").getLastTransitionTime();
        sleep(Duration.ofMillis(1100));

        replaceSpec("flips", Sets.validating("flips", "flips-a", "flips-b"));
        AdmissionPolicySet second = awaitReady("flips", 2);
        assertEquals(readySince, condition(second, "Ready").getLastTransitionTime(), "Ready stayed True");
        assertEquals(2L, condition(second, "Ready").getObservedGeneration());

        AdmissionPolicySet broken = Sets.validating("flips", "flips-a");
        broken.getSpec().getDefaults().setWebhookTimeoutSeconds(0);
        replaceSpec("flips", broken);
        AdmissionPolicySet third = await().atMost(WAIT).until(() -> get("flips"), s -> conditionIs(s, "Stalled", "True"));
        assertFalse(readySince.equals(condition(third, "Ready").getLastTransitionTime()), "Ready flipped to False");
        assertFalse(stalledSince.equals(condition(third, "Stalled").getLastTransitionTime()), "Stalled flipped to True");
        assertEquals(3L, condition(third, "Ready").getObservedGeneration());
    }

    @Test
    @Order(6)
    void dryRunRejectionAppliesNothing() {
        ApsMockServer.dispatcher().admission(r -> r.path().endsWith("/validatingadmissionpolicies/rejectme-vap")
                ? Optional.of(invalid("rejectme-vap", "spec.validations[0].expression",
                "compilation failed: ERROR: <input>:1:5: undeclared reference to 'objekt'"))
                : Optional.empty());
        int mark = ApsMockServer.dispatcher().mark();
        create(Sets.six("rejectme", "m"));
        AdmissionPolicySet rejected = await().atMost(WAIT).until(() -> get("rejectme"), s -> conditionIs(s, "Stalled", "True"));
        assertCondition(rejected, "Ready", "False", "DryRunRejected");
        assertCondition(rejected, "Validated", "True", "Validated");
        FindingStatus finding = rejected.getStatus().getFindings().stream()
                .filter(f -> f.getObject().equals("ValidatingAdmissionPolicy/rejectme-vap")).findFirst().orElseThrow();
        assertEquals("api/Invalid", finding.getRule());
        assertEquals("spec.validations[0].expression", finding.getField());
        assertTrue(finding.getMessage().contains("undeclared reference"), finding.getMessage());
        assertTrue(rejected.getStatus().getResources().stream().anyMatch(r -> r.getState().equals("Rejected")));
        // The policy is the first write: its own apply is its check (refused, so nothing is stored); the others
        // are dry-run only.
        assertTrue(ApsMockServer.dispatcher().since(mark).stream().noneMatch(r -> r.isWrite() && !r.isDryRun()
                && r.path().contains("/rejectme-") && !r.path().endsWith("/rejectme-vap")), "nothing else written");
        for (AdmissionKind kind : AdmissionKind.values()) {
            assertTrue(live(kind, objectName("rejectme", kind)).isEmpty(), kind + " stored");
        }
        assertTrue(live(AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION, "rejectme-vwc").isEmpty());
        awaitEvent("rejectme", "DryRunRejected");
    }

    /**
     * A new policy named by a paramRef binding is created before the dry run (the server authorizes the binding
     * against the stored policy); when the dry run then refuses the generation, the staged policy is deleted again.
     * The refusal is injected (the real server refuses such a binding only for want of RBAC, which also refuses the
     * policy first: AdmissionPolicySetRealServerTest).
     */
    @Test
    @Order(6)
    void aStagedParamPolicyIsRolledBackWhenTheDryRunRefusesTheGeneration() {
        ApsMockServer.dispatcher().admission(r -> r.isDryRun() && r.path().endsWith("/validatingadmissionpolicybindings/staged-binding")
                ? Optional.of(invalid("staged-binding", "spec.paramRef", "user cannot get the param"))
                : Optional.empty());
        int mark = ApsMockServer.dispatcher().mark();
        create(Sets.parse("""
                apiVersion: admission.policyset.dev/v1alpha1
                kind: AdmissionPolicySet
                metadata: {name: staged}
                spec:
                  validatingPolicies:
                    - name: staged
                      policy:
                        paramKind: {apiVersion: v1, kind: ConfigMap}
                        matchConstraints:
                          resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]
                        validations:
                          - expression: "object.spec.replicas <= int(params.data.max)"
                      bindings:
                        - name: staged-binding
                          spec:
                            paramRef: {name: limits, namespace: default, parameterNotFoundAction: Deny}
                """));
        AdmissionPolicySet rejected = await().atMost(WAIT).until(() -> get("staged"), s -> conditionIs(s, "Stalled", "True"));
        assertCondition(rejected, "Ready", "False", "DryRunRejected");
        List<String> policyRequests = ApsMockServer.dispatcher().since(mark).stream()
                .filter(r -> r.isWrite() && r.path().endsWith("/validatingadmissionpolicies/staged"))
                .map(r -> r.method() + (r.isDryRun() ? " (dry run)" : "")).toList();
        assertEquals(List.of("PATCH", "DELETE"), policyRequests.subList(0, 2), "staged, then rolled back: " + policyRequests);
        await().atMost(WAIT).until(() -> live(AdmissionKind.VALIDATING_ADMISSION_POLICY, "staged").isEmpty());
        assertTrue(live(AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING, "staged-binding").isEmpty());
        // The rollback's delete is an event on an owned object: it must not stage the refused generation again
        // (it did, in a loop of create, dry run and delete, until StagingRefusals).
        AdmissionPolicySet after = get("staged");
        after.getMetadata().setAnnotations(new java.util.HashMap<>(java.util.Map.of("touch", "1")));
        client.resource(after).update(); // one more event on the set itself, same generation
        await().pollDelay(Duration.ofSeconds(2)).atMost(WAIT).until(() -> true);
        List<String> allPolicyWrites = ApsMockServer.dispatcher().since(mark).stream()
                .filter(r -> r.isWrite() && r.path().endsWith("/validatingadmissionpolicies/staged")).map(r -> r.method()).toList();
        assertEquals(List.of("PATCH", "DELETE"), allPolicyWrites, "staged once, rolled back once");
    }

    @Test
    @Order(10)
    void pausedReconcilesNothing() {
        AdmissionPolicySet paused = Sets.validating("sleepy", "sleepy-a");
        paused.getSpec().setPaused(true);
        create(paused);
        AdmissionPolicySet status = await().atMost(WAIT).until(() -> get("sleepy"),
                s -> s.getStatus() != null && conditionIs(s, "Ready", "False"));
        assertCondition(status, "Ready", "False", "Paused");
        assertCondition(status, "Stalled", "False", "Paused");
        assertTrue(live(AdmissionKind.VALIDATING_ADMISSION_POLICY, "sleepy-a").isEmpty());

        AdmissionPolicySet resumed = Sets.validating("sleepy", "sleepy-a");
        resumed.getSpec().setPaused(false);
        replaceSpec("sleepy", resumed);
        awaitReady("sleepy", 2);
        assertTrue(live(AdmissionKind.VALIDATING_ADMISSION_POLICY, "sleepy-a").isPresent());

        // Paused again: a spec change is not applied and drift is not repaired.
        AdmissionPolicySet pausedAgain = Sets.validating("sleepy", "sleepy-a", "sleepy-b");
        pausedAgain.getSpec().setPaused(true);
        replaceSpec("sleepy", pausedAgain);
        await().atMost(WAIT).until(() -> get("sleepy"), s -> s.getStatus().getObservedGeneration() == 3);
        client.genericKubernetesResources(ManagedKinds.context(AdmissionKind.VALIDATING_ADMISSION_POLICY, "v1"))
                .withName("sleepy-a").delete();
        sleep(Duration.ofSeconds(3));
        assertTrue(live(AdmissionKind.VALIDATING_ADMISSION_POLICY, "sleepy-b").isEmpty());
        assertTrue(live(AdmissionKind.VALIDATING_ADMISSION_POLICY, "sleepy-a").isEmpty());
    }

    // Retries on injected faults (and that the faults happened): FaultInjectionReconcilerTest.

    @Test
    @Order(15)
    void aCelErrorIsAFindingBeforeAnyRequestToTheCluster() {
        int mark = ApsMockServer.dispatcher().mark();
        AdmissionPolicySet set = Sets.validating("typo", "typo-a");
        set.getSpec().getValidatingPolicies().get(0).getPolicy().getValidations().get(0).setExpression("has(objekt.metadata.labels)");
        create(set);
        AdmissionPolicySet stalled = await().atMost(WAIT).until(() -> get("typo"), s -> conditionIs(s, "Stalled", "True"));
        assertCondition(stalled, "Validated", "False", "ValidationFailed");
        FindingStatus f = stalled.getStatus().getFindings().stream().filter(x -> x.getRule().equals("api/Invalid"))
                .findFirst().orElseThrow(() -> new AssertionError(stalled.getStatus().getFindings().toString()));
        assertEquals("ValidatingAdmissionPolicy/typo-a", f.getObject());
        assertEquals("spec.validations[0].expression", f.getField());
        assertEquals(List.of(), ApsMockServer.dispatcher().since(mark).stream()
                .filter(r -> r.path().contains("/typo-")).toList(), "no dry run, no apply, not even a lookup");
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private AdmissionPolicySet create(AdmissionPolicySet set) {
        return client.resource(set).create();
    }

    private void replaceSpec(String name, AdmissionPolicySet next) {
        SetStatus.replaceSpec(client, name, next);
    }

    private AdmissionPolicySet get(String name) {
        return SetStatus.get(client, name);
    }

    private AdmissionPolicySet awaitReady(String name, long generation) {
        return SetStatus.awaitReady(client, name, generation, WAIT);
    }

    private Optional<GenericKubernetesResource> live(AdmissionKind kind, String name) {
        String version = kind.isMutatingPolicyKind() ? MAP_VERSION : "v1";
        return Optional.ofNullable(client.genericKubernetesResources(ManagedKinds.context(kind, version)).withName(name).get());
    }

    private List<Request> writesTo(int mark, String fragment) {
        return ApsMockServer.dispatcher().since(mark).stream()
                .filter(r -> r.isWrite() && r.path().contains(fragment) && !r.path().contains("/admissionpolicysets/")).toList();
    }

    private void awaitEvent(String set, String reason) {
        await().atMost(WAIT).until(() -> client.v1().events().inNamespace("default").list().getItems().stream()
                .map(Event.class::cast)
                .anyMatch(e -> set.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason())));
    }

    private static io.fabric8.mockwebserver.http.MockResponse invalid(String name, String field, String message) {
        String body = """
                {"apiVersion":"v1","kind":"Status","status":"Failure","code":422,"reason":"Invalid",
                 "message":"ValidatingAdmissionPolicy.admissionregistration.k8s.io \\"%1$s\\" is invalid: %2$s: Invalid value: %3$s",
                 "details":{"name":"%1$s","group":"admissionregistration.k8s.io","kind":"ValidatingAdmissionPolicy",
                  "causes":[{"reason":"FieldValueInvalid","field":"%2$s","message":"Invalid value: %3$s"}]}}
                """.formatted(name, field, message.replace("\"", "\\\""));
        return new io.fabric8.mockwebserver.http.MockResponse().setResponseCode(422)
                .setHeader("Content-Type", "application/json").setBody(body);
    }

    private static int indexOf(List<String> paths, String fragment) {
        for (int i = 0; i < paths.size(); i++) {
            if (paths.get(i).contains(fragment)) {
                return i;
            }
        }
        throw new AssertionError(fragment + " not in " + paths);
    }

    private static int firstIndex(List<Request> requests, java.util.function.Predicate<Request> p) {
        for (int i = 0; i < requests.size(); i++) {
            if (p.test(requests.get(i))) {
                return i;
            }
        }
        return -1;
    }

    private static int lastIndex(List<Request> requests, java.util.function.Predicate<Request> p) {
        int last = -1;
        for (int i = 0; i < requests.size(); i++) {
            if (p.test(requests.get(i))) {
                last = i;
            }
        }
        return last;
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

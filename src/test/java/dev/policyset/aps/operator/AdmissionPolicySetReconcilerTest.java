package dev.policyset.aps.operator;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.api.v1alpha1.DeletionPolicy;
import dev.policyset.aps.api.v1alpha1.FindingStatus;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.operator.testing.ApplyAwareDispatcher;
import dev.policyset.aps.operator.testing.ApplyAwareDispatcher.Request;
import dev.policyset.aps.operator.testing.ApsMockServer;
import dev.policyset.aps.operator.testing.Sets;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.Counter;
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

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The operator against the fabric8 CRUD mock server, extended by {@link ApplyAwareDispatcher} (apply patches,
 * {@code dryRun=All}, request log). Each test uses its own set and object names; the application and the
 * mock server are shared by the whole class. MutatingAdmissionPolicy is served at v1beta1 here.
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
    @Order(1)
    void noOpResyncIssuesZeroWriteRequests() {
        AdmissionPolicySet set = create(Sets.six("steady", "needs a team label"));
        awaitReady(set.getMetadata().getName(), 1);
        // Let the informer events of our own applies settle, then watch several periodic resyncs (PT2S in tests).
        sleep(Duration.ofSeconds(3));
        double before = reconciles();
        int mark = ApsMockServer.dispatcher().mark();
        sleep(Duration.ofSeconds(7));
        List<Request> writes = ApsMockServer.dispatcher().since(mark).stream().filter(Request::isWrite).toList();
        assertTrue(reconciles() - before >= 2, "expected periodic resyncs during the window, got " + (reconciles() - before));
        assertEquals(List.of(), writes, "a no-op resync must not write (not even status or events)");
    }

    @Test
    @Order(2)
    void createAppliesEverythingPoliciesBeforeBindingsAndReportsReady() {
        int mark = ApsMockServer.dispatcher().mark();
        AdmissionPolicySet set = create(Sets.six("fresh", "needs a team label"));
        AdmissionPolicySet ready = awaitReady("fresh", 1);
        List<Request> requests = ApsMockServer.dispatcher().since(mark); // before this test's own lookups below

        for (AdmissionKind kind : AdmissionKind.values()) {
            String objectName = objectName("fresh", kind);
            GenericKubernetesResource live = live(kind, objectName).orElseThrow(() -> new AssertionError(kind + " " + objectName + " missing"));
            assertEquals("fresh", live.getMetadata().getLabels().get(AdmissionPolicySet.SET_LABEL));
            assertEquals(ready.getMetadata().getUid(), live.getMetadata().getOwnerReferences().get(0).getUid());
            assertEquals(Boolean.TRUE, live.getMetadata().getOwnerReferences().get(0).getController());
        }
        assertEquals(6, ready.getStatus().getResources().size());
        assertTrue(ready.getStatus().getResources().stream().allMatch(r -> "Applied".equals(r.getState())));
        assertEquals("admissionregistration.k8s.io/" + MAP_VERSION, ready.getStatus().getResources().stream()
                .filter(r -> r.getKind().equals("MutatingAdmissionPolicy")).findFirst().orElseThrow().getApiVersion());
        assertCondition(ready, "Validated", "True", "Validated");
        assertCondition(ready, "Applied", "True", "Applied");
        assertCondition(ready, "Reconciling", "False", null);
        assertCondition(ready, "Stalled", "False", null);

        List<String> applies = requests.stream().filter(r -> r.method().equals("PATCH") && !r.isDryRun()
                && r.contentType().startsWith(ApplyAwareDispatcher.APPLY_PATCH) && r.path().contains("/fresh-"))
                .map(Request::path).toList();
        assertEquals(6, applies.size(), "one server-side apply per object: " + applies);
        assertTrue(indexOf(applies, "/validatingadmissionpolicies/") < indexOf(applies, "/validatingadmissionpolicybindings/"));
        assertTrue(indexOf(applies, "/mutatingadmissionpolicies/") < indexOf(applies, "/mutatingadmissionpolicybindings/"));
        long dryRuns = requests.stream().filter(r -> r.isDryRun() && r.path().contains("/fresh-")).count();
        assertEquals(5, dryRuns, "every object but the first is dry-run before anything is applied (the first is "
                + "applied first: if refused, nothing is written)");
        assertTrue(requests.stream().noneMatch(r -> r.isDryRun() && r.path().endsWith("/validatingadmissionpolicies/fresh-vap")));
        assertEquals(0, requests.stream().filter(r -> r.method().equals("GET") && r.path().contains("/fresh-")).count(),
                "ownership comes from the informer caches: no GET per object");
        // Accepted writes: a 409 on a stale resourceVersion (the cached set older than JOSDK's own finalizer write,
        // which happens on a busy machine) is answered by the reconciler's read-and-retry, one status write in all.
        List<Request> statusWrites = requests.stream().filter(r -> r.isWrite() && r.path().endsWith("/admissionpolicysets/fresh/status")).toList();
        assertEquals(1, statusWrites.stream().filter(Request::isAcceptedWrite).count(), () -> "one status write: "
                + statusWrites.stream().map(r -> r.method() + " " + r.code() + " " + r.body()).toList());
        int lastDryRun = lastIndex(requests, r -> r.isDryRun() && r.path().contains("/fresh-"));
        int firstApply = firstIndex(requests, r -> !r.isDryRun() && r.method().equals("PATCH") && r.path().contains("/fresh-"));
        assertTrue(lastDryRun < firstApply, "all dry runs precede the first apply");
        awaitEvent("fresh", "Applied");
    }

    @Test
    @Order(3)
    void updateAppliesTheNewGeneration() {
        create(Sets.six("upd", "first message"));
        awaitReady("upd", 1);
        AdmissionPolicySet next = Sets.six("upd", "second message");
        replaceSpec("upd", next);
        awaitReady("upd", 2);
        assertEquals("second message", vapMessage("upd-vap"));
    }

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
        assertEquals("good message", vapMessage("bad-vap"));
        assertEquals(vapVersion, live(AdmissionKind.VALIDATING_ADMISSION_POLICY, "bad-vap").orElseThrow().getMetadata().getResourceVersion());
        assertEquals(List.of(), writesTo(mark, "/bad-"), "nothing of the bad generation is written");
        assertEquals("good message", vapMessage("bad-vap"));
        awaitEvent("bad", "ValidationFailed");

        // While blocked, the last good objects are still protected: a hand edit is restored to the last good generation.
        client.genericKubernetesResources(ManagedKinds.context(AdmissionKind.VALIDATING_ADMISSION_POLICY, "v1"))
                .withName("bad-vap").edit(r -> {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> spec = (Map<String, Object>) r.getAdditionalProperties().get("spec");
                    spec.put("failurePolicy", "Ignore");
                    return r;
                });
        await().atMost(WAIT).until(() -> "Fail".equals(vapField("bad-vap", "failurePolicy")));
        assertEquals("good message", vapMessage("bad-vap"), "restored to the last good generation, not the bad one");

        // Fixing the spec recovers: Ready flips back, Stalled clears.
        replaceSpec("bad", Sets.six("bad", "fixed message"));
        AdmissionPolicySet fixed = awaitReady("bad", 3);
        assertCondition(fixed, "Stalled", "False", null);
        assertEquals("fixed message", vapMessage("bad-vap"));
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

    @Test
    @Order(7)
    void pruneDeletesWhatTheSetNoLongerContainsBindingsFirst() {
        create(Sets.validating("pruning", "pruning-a", "pruning-b"));
        awaitReady("pruning", 1);
        assertTrue(live(AdmissionKind.VALIDATING_ADMISSION_POLICY, "pruning-b").isPresent());
        int mark = ApsMockServer.dispatcher().mark();
        replaceSpec("pruning", Sets.validating("pruning", "pruning-a"));
        awaitReady("pruning", 2);
        await().atMost(WAIT).until(() -> live(AdmissionKind.VALIDATING_ADMISSION_POLICY, "pruning-b").isEmpty()
                && live(AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING, "pruning-b-binding").isEmpty());
        assertTrue(live(AdmissionKind.VALIDATING_ADMISSION_POLICY, "pruning-a").isPresent());
        List<String> deletes = ApsMockServer.dispatcher().since(mark).stream()
                .filter(r -> r.method().equals("DELETE")).map(Request::path).toList();
        assertTrue(indexOf(deletes, "/validatingadmissionpolicybindings/pruning-b-binding")
                < indexOf(deletes, "/validatingadmissionpolicies/pruning-b"), deletes.toString());
        awaitEvent("pruning", "Pruned");

        // prune: false keeps what the spec no longer names.
        AdmissionPolicySet keep = Sets.validating("pruning");
        keep.getSpec().setPrune(false);
        replaceSpec("pruning", keep);
        awaitReady("pruning", 3);
        sleep(Duration.ofSeconds(1));
        assertTrue(live(AdmissionKind.VALIDATING_ADMISSION_POLICY, "pruning-a").isPresent());
    }

    @Test
    @Order(8)
    void driftIsRepaired() {
        create(Sets.six("drift", "original"));
        awaitReady("drift", 1);
        var vaps = client.genericKubernetesResources(ManagedKinds.context(AdmissionKind.VALIDATING_ADMISSION_POLICY, "v1"));
        vaps.withName("drift-vap").edit(r -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> spec = (Map<String, Object>) r.getAdditionalProperties().get("spec");
            spec.put("failurePolicy", "Ignore");
            return r;
        });
        await().atMost(WAIT).until(() -> "Fail".equals(vapField("drift-vap", "failurePolicy")));

        client.genericKubernetesResources(ManagedKinds.context(AdmissionKind.MUTATING_WEBHOOK_CONFIGURATION, "v1"))
                .withName("drift-mwc").delete();
        await().atMost(WAIT).until(() -> live(AdmissionKind.MUTATING_WEBHOOK_CONFIGURATION, "drift-mwc").isPresent());
        awaitEvent("drift", "DriftRepaired");
        AdmissionPolicySet set = awaitReady("drift", 1);
        assertTrue(set.getStatus().getResources().stream().anyMatch(r -> r.getMessage() != null
                && r.getMessage().contains("restored")), set.getStatus().getResources().toString());
    }

    @Test
    @Order(9)
    void ownershipConflictAppliesNothing() {
        // A hand-made policy with the name a set wants.
        GenericKubernetesResource handmade = new GenericKubernetesResource();
        handmade.setApiVersion("admissionregistration.k8s.io/v1");
        handmade.setKind("ValidatingAdmissionPolicy");
        handmade.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("taken").build());
        handmade.setAdditionalProperty("spec", Map.of("failurePolicy", "Ignore"));
        client.genericKubernetesResources(ManagedKinds.context(AdmissionKind.VALIDATING_ADMISSION_POLICY, "v1"))
                .resource(handmade).create();
        int mark = ApsMockServer.dispatcher().mark();

        create(Sets.validating("grabby", "taken", "grabby-own"));
        AdmissionPolicySet conflict = await().atMost(WAIT).until(() -> get("grabby"), s -> conditionIs(s, "Stalled", "True"));
        assertCondition(conflict, "Ready", "False", "OwnershipConflict");
        assertTrue(conflict.getStatus().getFindings().stream().anyMatch(f -> f.getRule().equals("APS403")
                && f.getObject().equals("ValidatingAdmissionPolicy/taken") && f.getSeverity().equals("error")));
        assertEquals("Ignore", vapField("taken", "failurePolicy"), "the hand-made object is untouched");
        Map<String, String> labels = live(AdmissionKind.VALIDATING_ADMISSION_POLICY, "taken").orElseThrow().getMetadata().getLabels();
        assertTrue(labels == null || labels.isEmpty(), "no set label: " + labels);
        assertTrue(live(AdmissionKind.VALIDATING_ADMISSION_POLICY, "grabby-own").isEmpty(), "nothing applied");
        assertEquals(List.of(), writesTo(mark, "/taken"));

        // Another set's object is just as foreign.
        create(Sets.validating("second-claim", "grabby-other", "fresh-vap"));
        AdmissionPolicySet other = await().atMost(WAIT).until(() -> get("second-claim"), s -> conditionIs(s, "Stalled", "True"));
        assertTrue(other.getStatus().getFindings().stream().anyMatch(f -> f.getRule().equals("APS403")
                && f.getMessage().contains("belongs to AdmissionPolicySet fresh")), other.getStatus().getFindings().toString());

        // Removing the hand-made object lets the set proceed on its next look.
        client.genericKubernetesResources(ManagedKinds.context(AdmissionKind.VALIDATING_ADMISSION_POLICY, "v1"))
                .withName("taken").delete();
        awaitReady("grabby", 1);
        assertEquals("grabby", live(AdmissionKind.VALIDATING_ADMISSION_POLICY, "taken").orElseThrow()
                .getMetadata().getLabels().get(AdmissionPolicySet.SET_LABEL));
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

    @Test
    @Order(11)
    void deletionWithDeleteRemovesEverythingBindingsFirst() {
        create(Sets.six("doomed", "m"));
        awaitReady("doomed", 1);
        int mark = ApsMockServer.dispatcher().mark();
        client.resources(AdmissionPolicySet.class).withName("doomed").delete();
        await().atMost(WAIT).until(() -> get("doomed") == null);
        for (AdmissionKind kind : AdmissionKind.values()) {
            assertTrue(client.genericKubernetesResources(ManagedKinds.context(kind, kind.isMutatingPolicyKind() ? MAP_VERSION : "v1"))
                    .withLabel(AdmissionPolicySet.SET_LABEL, "doomed").list().getItems().isEmpty(), kind + " left behind");
        }
        List<String> deletes = ApsMockServer.dispatcher().since(mark).stream()
                .filter(r -> r.method().equals("DELETE") && r.path().contains("/doomed-")).map(Request::path).toList();
        assertEquals(6, deletes.size(), deletes.toString());
        assertTrue(indexOf(deletes, "/validatingadmissionpolicybindings/") < indexOf(deletes, "/validatingadmissionpolicies/"));
        assertTrue(indexOf(deletes, "/mutatingadmissionpolicybindings/") < indexOf(deletes, "/mutatingadmissionpolicies/"));
    }

    @Test
    @Order(12)
    void deletionWithOrphanKeepsTheObjectsAndReleasesThem() {
        AdmissionPolicySet set = Sets.six("orphaned", "m");
        set.getSpec().setDeletionPolicy(DeletionPolicy.Orphan);
        create(set);
        awaitReady("orphaned", 1);
        client.resources(AdmissionPolicySet.class).withName("orphaned").delete();
        await().atMost(WAIT).until(() -> get("orphaned") == null);
        GenericKubernetesResource vap = live(AdmissionKind.VALIDATING_ADMISSION_POLICY, "orphaned-vap").orElseThrow();
        assertTrue(vap.getMetadata().getLabels() == null || !vap.getMetadata().getLabels().containsKey(AdmissionPolicySet.SET_LABEL));
        assertTrue(vap.getMetadata().getOwnerReferences() == null || vap.getMetadata().getOwnerReferences().isEmpty());
        assertTrue(live(AdmissionKind.MUTATING_ADMISSION_POLICY_BINDING, "orphaned-map-binding").isPresent());
    }

    // Retries on injected faults (and that the faults happened): FaultInjectionReconcilerTest.

    @Test
    @Order(14)
    void typeCheckingWarningsFromTheClusterBecomeFindings() {
        create(Sets.validating("typed", "typed-a"));
        awaitReady("typed", 1);
        var vaps = client.genericKubernetesResources(ManagedKinds.context(AdmissionKind.VALIDATING_ADMISSION_POLICY, "v1"));
        vaps.withName("typed-a").edit(r -> {
            // The API server's type checker writes the generation it checked; this one is the current one.
            long generation = r.getMetadata().getGeneration() == null ? 0 : r.getMetadata().getGeneration();
            r.setAdditionalProperty("status", Map.of("observedGeneration", generation, "typeChecking", Map.of("expressionWarnings",
                    List.of(Map.of("fieldRef", "spec.validations[0].expression", "warning", "apps/v1, Kind=Deployment: no such key: lables")))));
            return r;
        });
        AdmissionPolicySet warned = await().atMost(WAIT).until(() -> get("typed"), s -> s.getStatus().getFindings().stream()
                .anyMatch(f -> f.getRule().equals("APS601")));
        FindingStatus f = warned.getStatus().getFindings().stream()
                .filter(x -> x.getRule().equals("APS601")).findFirst().orElseThrow();
        assertEquals("warning", f.getSeverity());
        assertEquals("spec.validations[0].expression", f.getField());
        assertCondition(warned, "Ready", "True", "Applied");
    }

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

    /** The names {@link Sets#six} gives its objects. */
    private static String objectName(String set, AdmissionKind kind) {
        return set + "-" + switch (kind) {
            case VALIDATING_ADMISSION_POLICY -> "vap";
            case VALIDATING_ADMISSION_POLICY_BINDING -> "vap-binding";
            case MUTATING_ADMISSION_POLICY -> "map";
            case MUTATING_ADMISSION_POLICY_BINDING -> "map-binding";
            case VALIDATING_WEBHOOK_CONFIGURATION -> "vwc";
            case MUTATING_WEBHOOK_CONFIGURATION -> "mwc";
        };
    }

    private AdmissionPolicySet create(AdmissionPolicySet set) {
        return client.resource(set).create();
    }

    private void replaceSpec(String name, AdmissionPolicySet next) {
        client.resources(AdmissionPolicySet.class).withName(name).edit(s -> {
            s.setSpec(next.getSpec());
            return s;
        });
    }

    private AdmissionPolicySet get(String name) {
        return client.resources(AdmissionPolicySet.class).withName(name).get();
    }

    private AdmissionPolicySet awaitReady(String name, long generation) {
        return await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> get(name),
                s -> s != null && s.getStatus() != null && s.getStatus().getObservedGeneration() != null
                        && s.getStatus().getObservedGeneration() == generation && conditionIs(s, "Ready", "True"));
    }

    private Optional<GenericKubernetesResource> live(AdmissionKind kind, String name) {
        String version = kind.isMutatingPolicyKind() ? MAP_VERSION : "v1";
        return Optional.ofNullable(client.genericKubernetesResources(ManagedKinds.context(kind, version)).withName(name).get());
    }

    @SuppressWarnings("unchecked")
    private Object vapField(String name, String field) {
        return live(AdmissionKind.VALIDATING_ADMISSION_POLICY, name)
                .map(r -> ((Map<String, Object>) r.getAdditionalProperties().get("spec")).get(field)).orElse(null);
    }

    @SuppressWarnings("unchecked")
    private String vapMessage(String name) {
        List<Map<String, Object>> validations = (List<Map<String, Object>>) vapField(name, "validations");
        return (String) validations.get(0).get("message");
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

    private double reconciles() {
        return registry.find("aps.reconciles").counters().stream().mapToDouble(Counter::count).sum();
    }

    private static Condition condition(AdmissionPolicySet set, String type) {
        return set.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst()
                .orElseThrow(() -> new AssertionError("no condition " + type));
    }

    private static boolean conditionIs(AdmissionPolicySet set, String type, String status) {
        return set != null && set.getStatus() != null && set.getStatus().getConditions() != null
                && set.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals(type) && c.getStatus().equals(status));
    }

    private static void assertCondition(AdmissionPolicySet set, String type, String status, String reason) {
        Condition c = condition(set, type);
        assertEquals(status, c.getStatus(), type + ": " + c.getMessage());
        if (reason != null) {
            assertEquals(reason, c.getReason(), type + ": " + c.getMessage());
        }
        assertEquals(set.getMetadata().getGeneration(), c.getObservedGeneration(), type + " observedGeneration");
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

package dev.policyset.aps.operator;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.operator.testing.ApplyAwareDispatcher.Request;
import dev.policyset.aps.operator.testing.ApsMockServer;
import dev.policyset.aps.operator.testing.Sets;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Faults injected by {@code ApplyAwareDispatcher} while the operator works: server errors, conflicts and throttling
 * on writes, watches closed or expired (410). Each test shows the fault happened, that the operator converged,
 * that nothing of the last good generation was deleted, and that it did not retry in a hot loop (requests counted
 * over a window). The test profile retries a reconcile 3 times from 200 ms. Faults are aimed at the paths of one
 * set's objects, so they hit the operator's requests, not the test's own.
 */
@QuarkusTest
@QuarkusTestResource(value = ApsMockServer.class, restrictToAnnotatedClass = true)
class FaultInjectionReconcilerTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Inject
    KubernetesClient client;

    @AfterEach
    void stopFaults() {
        ApsMockServer.dispatcher().failNextWrites(0, 500);
    }

    @Test
    void transientApiErrorsAreRetriedWithBackoff() {
        int mark = ApsMockServer.dispatcher().mark();
        int before = ApsMockServer.dispatcher().injected().size();
        ApsMockServer.dispatcher().failNextWrites(2, 503, -1, "/flaky-");
        create(Sets.validating("flaky", "flaky-a"));
        awaitReady("flaky", 1);
        assertTrue(live(AdmissionKind.VALIDATING_ADMISSION_POLICY, "flaky-a") != null);
        assertInjectedAndRetried(mark, before, 2);
    }

    @Test
    void serverErrorsDuringAnUpdateLoseNothingOfTheLastGoodGeneration() {
        create(Sets.six("fault500", "generation one"));
        awaitReady("fault500", 1);
        int mark = ApsMockServer.dispatcher().mark();
        int before = ApsMockServer.dispatcher().injected().size();
        ApsMockServer.dispatcher().failNextWrites(3, 500, -1, "/fault500-");
        replaceSpec("fault500", Sets.six("fault500", "generation two"));
        awaitReady("fault500", 2);
        assertInjectedAndRetried(mark, before, 3);
        List<Request> deletes = ApsMockServer.dispatcher().since(mark).stream()
                .filter(r -> r.method().equals("DELETE") && r.path().contains("/fault500-")).toList();
        assertEquals(List.of(), deletes, "a failed pass never deletes");
        for (AdmissionKind kind : AdmissionKind.values()) {
            assertEquals(1, client.genericKubernetesResources(ManagedKinds.context(kind, version(kind)))
                    .withLabel(AdmissionPolicySet.SET_LABEL, "fault500").list().getItems().size(), kind.toString());
        }
    }

    @Test
    void conflictsAreRetriedByTheReconciler() {
        int mark = ApsMockServer.dispatcher().mark();
        int before = ApsMockServer.dispatcher().injected().size();
        ApsMockServer.dispatcher().failNextWrites(2, 409, -1, "/conflicted-");
        create(Sets.validating("conflicted", "conflicted-a"));
        awaitReady("conflicted", 1);
        assertInjectedAndRetried(mark, before, 2);
    }

    @Test
    void throttlingIsRetried() {
        int mark = ApsMockServer.dispatcher().mark();
        int before = ApsMockServer.dispatcher().injected().size();
        ApsMockServer.dispatcher().failNextWrites(1, 429, 2, "/throttled-");
        create(Sets.validating("throttled", "throttled-a"));
        awaitReady("throttled", 1);
        List<Request> injected = assertInjectedAndRetried(mark, before, 1);
        Request throttled = injected.get(0);
        Request retry = ApsMockServer.dispatcher().since(mark).stream()
                .filter(r -> r.nanos() > throttled.nanos() && sameTarget(r, throttled)).findFirst().orElseThrow();
        Duration waited = Duration.ofNanos(retry.nanos() - throttled.nanos());
        // Measured: retried after ~100-200 ms, i.e. Retry-After is NOT what paces it here (docs/operator.md, Faults).
        System.out.printf("FaultInjectionReconcilerTest: 429 with Retry-After: 2 retried after %d ms%n", waited.toMillis());
        assertTrue(waited.toMillis() >= 50, "retried after " + waited.toMillis() + " ms: no back-off at all");
    }

    @Test
    void persistentServerErrorsAreRetriedWithBackoffNotInAHotLoop() {
        create(Sets.validating("stormy", "stormy-a"));
        awaitReady("stormy", 1);
        replaceSpec("stormy", Sets.validating("stormy", "stormy-a", "stormy-b"));
        ApsMockServer.dispatcher().failNextWrites(Integer.MAX_VALUE, 500, -1, "/stormy-");
        int mark = ApsMockServer.dispatcher().mark();
        sleep(Duration.ofSeconds(10));
        long requests = ApsMockServer.dispatcher().since(mark).stream().filter(r -> !r.isWatch()).count();
        ApsMockServer.dispatcher().failNextWrites(0, 500);
        System.out.printf("FaultInjectionReconcilerTest: %d requests in 10 s of failing writes%n", requests);
        // Back-off: fabric8 retries a request 10 times from 100 ms doubling, JOSDK a reconcile from 200 ms doubling.
        // A hot loop would be thousands.
        assertTrue(requests <= 100, requests + " requests in 10 s");
        awaitReady("stormy", 2);
        assertTrue(live(AdmissionKind.VALIDATING_ADMISSION_POLICY, "stormy-a") != null, "the last good policy was kept");
    }

    @Test
    void closedWatchesAreReopenedAndLaterChangesAreSeen() {
        create(Sets.six("closed", "before"));
        awaitReady("closed", 1);
        int mark = ApsMockServer.dispatcher().mark();
        int ended = ApsMockServer.dispatcher().closeWatches("/admissionpolicysets")
                + ApsMockServer.dispatcher().closeWatches("/validatingadmissionpolicies");
        assertTrue(ended >= 2, "closed " + ended + " watches");
        replaceSpec("closed", Sets.six("closed", "after"));
        awaitReady("closed", 2);
        driftIsRepaired("closed-vap");
        assertNoHotLoop(mark);
    }

    @Test
    void expiredWatchesRelistAndLaterChangesAreSeen() {
        create(Sets.six("expired", "before"));
        awaitReady("expired", 1);
        int mark = ApsMockServer.dispatcher().mark();
        int ended = ApsMockServer.dispatcher().expireWatches("/admissionpolicysets")
                + ApsMockServer.dispatcher().expireWatches("/validatingadmissionpolicies");
        assertTrue(ended >= 2, "expired " + ended + " watches");
        replaceSpec("expired", Sets.six("expired", "after"));
        awaitReady("expired", 2);
        driftIsRepaired("expired-vap");
        assertTrue(ApsMockServer.dispatcher().since(mark).stream().anyMatch(r -> r.method().equals("GET") && !r.isWatch()
                && r.path().endsWith("/admissionpolicysets")), "a 410 makes the informer list again");
        assertNoHotLoop(mark);
    }

    // ------------------------------------------------------------------------------------------------ helpers

    /** The expected number of faults happened since {@code before}, and each failed request was sent again later. */
    private List<Request> assertInjectedAndRetried(int mark, int before, int count) {
        List<Request> all = ApsMockServer.dispatcher().injected();
        List<Request> injected = all.subList(before, all.size());
        assertEquals(count, injected.size(), "injected faults: " + injected);
        List<Request> since = ApsMockServer.dispatcher().since(mark);
        for (Request failed : injected) {
            assertTrue(since.stream().anyMatch(r -> r.nanos() > failed.nanos() && sameTarget(r, failed)),
                    failed + " was not retried: " + since);
        }
        return injected;
    }

    private static boolean sameTarget(Request a, Request b) {
        return a.method().equals(b.method()) && a.path().equals(b.path()) && a.isDryRun() == b.isDryRun();
    }

    /** Watches re-opened a few times at most, not in a loop: counted over a 5 s window after the fault. */
    private void assertNoHotLoop(int mark) {
        int start = ApsMockServer.dispatcher().mark();
        sleep(Duration.ofSeconds(5));
        List<Request> window = ApsMockServer.dispatcher().since(start);
        long watches = ApsMockServer.dispatcher().since(mark).stream().filter(Request::isWatch).count();
        System.out.printf("FaultInjectionReconcilerTest: %d requests in a 5 s window after the fault, %d watches re-opened%n",
                window.size(), watches);
        assertTrue(window.size() <= 20, window.size() + " requests in 5 s: " + window);
        assertTrue(watches <= 12, watches + " watch requests");
    }

    private void driftIsRepaired(String vap) {
        client.genericKubernetesResources(ManagedKinds.context(AdmissionKind.VALIDATING_ADMISSION_POLICY, "v1")).withName(vap).edit(r -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> spec = (Map<String, Object>) r.getAdditionalProperties().get("spec");
            spec.put("failurePolicy", "Ignore");
            return r;
        });
        await().atMost(WAIT).until(() -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> spec = (Map<String, Object>) live(AdmissionKind.VALIDATING_ADMISSION_POLICY, vap)
                    .getAdditionalProperties().get("spec");
            return "Fail".equals(spec.get("failurePolicy"));
        });
    }

    private void create(AdmissionPolicySet set) {
        client.resource(set).create();
    }

    private void replaceSpec(String name, AdmissionPolicySet next) {
        client.resources(AdmissionPolicySet.class).withName(name).edit(s -> {
            s.setSpec(next.getSpec());
            return s;
        });
    }

    private void awaitReady(String name, long generation) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(200))
                .until(() -> client.resources(AdmissionPolicySet.class).withName(name).get(),
                        s -> s != null && s.getStatus() != null && s.getStatus().getObservedGeneration() != null
                                && s.getStatus().getObservedGeneration() == generation
                                && s.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True")));
    }

    private GenericKubernetesResource live(AdmissionKind kind, String name) {
        return client.genericKubernetesResources(ManagedKinds.context(kind, version(kind))).withName(name).get();
    }

    private static String version(AdmissionKind kind) {
        return kind.isMutatingPolicyKind() ? "v1beta1" : "v1";
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

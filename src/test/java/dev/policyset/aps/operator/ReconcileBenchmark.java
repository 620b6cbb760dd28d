package dev.policyset.aps.operator;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.operator.testing.ApplyAwareDispatcher.Request;
import dev.policyset.aps.operator.testing.ApsMockServer;
import dev.policyset.aps.operator.testing.SetStatus;
import dev.policyset.aps.operator.testing.Sets;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Not a timed test: a measurement, excluded from the default test run by its name. N sets of six objects each
 * (VAP + binding, MAP + binding, two webhook configurations) reconciled to Ready against the mock server:
 *
 * <pre>
 * mvn -B -o test -Dtest=ReconcileBenchmark -Daps.bench.sets=100 -Dsurefire.failIfNoSpecifiedTests=false
 * mvn -B -o test -Dtest=ReconcileBenchmark -Daps.bench.sets=1000 -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 *
 * Reports wall time to all Ready, API requests per set (by kind of request), heap after steady state (the mock
 * server's store is in the same JVM), and the requests of a full no-op resync (every set reconciled once more;
 * the target is zero writes). Results go to stdout and {@code target/benchmark-N.txt}.
 */
@QuarkusTest
@TestProfile(ReconcileBenchmark.Profile.class)
@QuarkusTestResource(value = ApsMockServer.class, restrictToAnnotatedClass = true)
class ReconcileBenchmark {
    /**
     * The resync interval: 30 s, or 30 ms a set above 1,000 sets (-Daps.bench.resync-seconds overrides), so the
     * no-op resync load stays at ~33 reconciles/s at every N (a 30 s interval at 10,000 sets would ask 333/s of two
     * shared cores, and measure a machine that cannot keep up rather than the operator).
     */
    static final Duration RESYNC = Duration.ofSeconds(Long.getLong("aps.bench.resync-seconds",
            Math.max(30, Integer.getInteger("aps.bench.sets", 100) * 3L / 100)));

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.operator-sdk.controllers.admissionpolicyset.max-reconciliation-interval", "PT" + RESYNC.toSeconds() + "S",
                    "aps.discovery.refresh", "PT10M",
                    "quarkus.log.category.\"dev.policyset\".level", "INFO");
        }
    }

    @Inject
    KubernetesClient client;

    @Inject
    MeterRegistry registry;

    @Test
    void reconcileManySets() throws Exception {
        int n = Integer.getInteger("aps.bench.sets", 100);
        long heapBefore = usedHeapAfterGc();
        int mark = ApsMockServer.dispatcher().mark();
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            client.resource(Sets.six(String.format("bench-%04d", i), "needs a team label")).create();
        }
        long created = System.nanoTime();
        while (readyCount(client, "bench-") < n) {
            Thread.sleep(250);
            if (Duration.ofNanos(System.nanoTime() - start).compareTo(Duration.ofMinutes(20)) > 0) {
                throw new AssertionError("not all Ready after 20 minutes: " + readyCount(client, "bench-") + "/" + n);
            }
        }
        Duration toReady = Duration.ofNanos(System.nanoTime() - start);
        List<Request> converge = operatorRequests(ApsMockServer.dispatcher().since(mark));

        Thread.sleep(3000); // informer echoes of our own applies
        long heapSteady = usedHeapAfterGc();
        double reconcilesBefore = SetStatus.reconciles(registry);
        int resyncMark = ApsMockServer.dispatcher().mark();
        Thread.sleep(RESYNC.plusSeconds(5).toMillis());
        List<Request> resync = operatorRequests(ApsMockServer.dispatcher().since(resyncMark));
        double resyncReconciles = SetStatus.reconciles(registry) - reconcilesBefore;
        long resyncWrites = resync.stream().filter(Request::isWrite).count();

        StringBuilder out = new StringBuilder();
        out.append(String.format("sets=%d objects=%d%n", n, 6 * n));
        out.append(String.format("create %d sets: %.1f s; all Ready after %.1f s%n", n,
                (created - start) / 1e9, toReady.toMillis() / 1e3));
        out.append(String.format("operator requests to converge: %d (%.1f per set): %s%n", converge.size(),
                converge.size() / (double) n, breakdown(converge, n)));
        out.append(String.format("heap used after GC: before %d MiB, steady %d MiB (delta %d MiB, includes the mock server's store)%n",
                heapBefore >> 20, heapSteady >> 20, (heapSteady - heapBefore) >> 20));
        out.append(String.format("no-op resync window %d s: %.0f reconciles (%.2f per set), %d requests, %d writes%n",
                RESYNC.plusSeconds(5).toSeconds(), resyncReconciles, resyncReconciles / n, resync.size(), resyncWrites));
        System.out.println("=== ReconcileBenchmark ===\n" + out);
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target/benchmark-" + n + ".txt"), out.toString());
        assertEquals(0, resyncWrites, "a no-op resync must not write");
    }

    /** Requests the operator made: the benchmark's own creates and polls are left out. */
    private static List<Request> operatorRequests(List<Request> all) {
        return all.stream().filter(r -> !(r.method().equals("POST") && r.path().endsWith("/admissionpolicysets"))
                && !(r.method().equals("GET") && r.path().endsWith("/admissionpolicysets") && !r.query().contains("watch"))).toList();
    }

    private static String breakdown(List<Request> requests, int n) {
        Map<String, Long> counts = requests.stream().collect(Collectors.groupingBy(ReconcileBenchmark::category, Collectors.counting()));
        return counts.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> String.format("%s=%.1f", e.getKey(), e.getValue() / (double) n)).collect(Collectors.joining(" "));
    }

    private static String category(Request r) {
        if (r.query().contains("watch=true")) {
            return "watch";
        }
        if (r.isDryRun()) {
            return "dryRun";
        }
        if (r.path().endsWith("/status")) {
            return r.method() + "-status";
        }
        if (r.path().contains("/events")) {
            return r.method() + "-event";
        }
        if (r.path().contains("/admissionpolicysets")) {
            return r.method() + "-set";
        }
        return r.method() + "-object";
    }

    /** Sets named {@code prefix*} that report Ready=True. */
    static long readyCount(KubernetesClient client, String prefix) {
        return client.resources(AdmissionPolicySet.class).list().getItems().stream()
                .filter(s -> s.getMetadata().getName().startsWith(prefix) && SetStatus.conditionIs(s, "Ready", "True"))
                .count();
    }

    static long usedHeapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200);
        }
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

}

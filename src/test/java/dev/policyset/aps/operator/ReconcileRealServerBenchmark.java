package dev.policyset.aps.operator;

import dev.policyset.aps.operator.testing.SetStatus;
import dev.policyset.aps.operator.testing.Sets;
import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.KubeControlPlane.AuditEvent;
import dev.policyset.aps.testing.kube.OperatorInstall;
import dev.policyset.aps.testing.kube.RealApiServer;
import dev.policyset.aps.testing.kube.RealApiServerResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
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
 * Not a timed test: a measurement, excluded from the default run by its name. N sets of six objects reconciled
 * to Ready against the real API server of the tests (the operator as its ServiceAccount), counted from the
 * server's audit log: wall time to all Ready, operator requests per set by kind, the operator's heap (the store is
 * etcd's, not in this JVM, unlike on the mock server), and a full no-op resync window.
 *
 * <pre>
 * mvn -B -o test -Dtest=ReconcileRealServerBenchmark -Daps.bench.sets=1000 -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 * Results go to stdout and {@code target/benchmark-real-N.txt}.
 */
@QuarkusTest
@TestProfile(ReconcileBenchmark.Profile.class)
@QuarkusTestResource(value = RealApiServerResource.class, restrictToAnnotatedClass = true)
@RealApiServer
class ReconcileRealServerBenchmark {
    @Inject
    MeterRegistry registry;

    @Test
    void reconcileManySets() throws Exception {
        int n = Integer.getInteger("aps.bench.sets", 100);
        KubeControlPlane plane = KubeControlPlane.shared();
        KubernetesClient admin = plane.admin();
        long heapBefore = ReconcileBenchmark.usedHeapAfterGc();
        int mark = plane.audit().size();
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            admin.resource(Sets.six(String.format("rbench-%04d", i), "needs a team label")).create();
        }
        long created = System.nanoTime();
        while (ReconcileBenchmark.readyCount(admin, "rbench-") < n) {
            Thread.sleep(500);
            if (Duration.ofNanos(System.nanoTime() - start).compareTo(Duration.ofMinutes(30)) > 0) {
                throw new AssertionError("not all Ready after 30 minutes: " + ReconcileBenchmark.readyCount(admin, "rbench-") + "/" + n);
            }
        }
        Duration toReady = Duration.ofNanos(System.nanoTime() - start);
        plane.auditQuiet(Duration.ofSeconds(3), Duration.ofMinutes(2));
        List<AuditEvent> converge = plane.auditSince(mark, OperatorInstall.USER);
        long heapSteady = ReconcileBenchmark.usedHeapAfterGc();

        double reconcilesBefore = SetStatus.reconciles(registry);
        int resyncMark = plane.audit().size();
        Thread.sleep(ReconcileBenchmark.RESYNC.plusSeconds(5).toMillis());
        plane.auditQuiet(Duration.ofSeconds(1), Duration.ofMinutes(1));
        List<AuditEvent> resync = plane.auditSince(resyncMark, OperatorInstall.USER);
        double resyncReconciles = SetStatus.reconciles(registry) - reconcilesBefore;
        long resyncWrites = resync.stream().filter(AuditEvent::isWrite).count();

        StringBuilder out = new StringBuilder();
        out.append(String.format("real kube-apiserver %s, sets=%d objects=%d%n", plane.version(), n, 6 * n));
        out.append(String.format("create %d sets: %.1f s; all Ready after %.1f s%n", n, (created - start) / 1e9, toReady.toMillis() / 1e3));
        out.append(String.format("operator requests to converge: %d (%.1f per set): %s%n", converge.size(), converge.size() / (double) n,
                breakdown(converge, n)));
        out.append(String.format("operator JVM heap used after GC: before %d MiB, steady %d MiB (delta %d MiB)%n",
                heapBefore >> 20, heapSteady >> 20, (heapSteady - heapBefore) >> 20));
        out.append(String.format("no-op resync window %d s: %.0f reconciles (%.2f per set), %d requests, %d writes%n",
                ReconcileBenchmark.RESYNC.plusSeconds(5).toSeconds(), resyncReconciles, resyncReconciles / n, resync.size(), resyncWrites));
        System.out.println("=== ReconcileRealServerBenchmark ===\n" + out);
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target/benchmark-real-" + n + ".txt"), out.toString());
        assertEquals(0, resyncWrites, "a no-op resync must not write");
    }

    private static String breakdown(List<AuditEvent> events, int n) {
        Map<String, Long> counts = events.stream().collect(Collectors.groupingBy(ReconcileRealServerBenchmark::category, Collectors.counting()));
        return counts.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> String.format("%s=%.2f", e.getKey(), e.getValue() / (double) n)).collect(Collectors.joining(" "));
    }

    private static String category(AuditEvent e) {
        String what = e.resource() == null ? "other" : e.resource().equals("admissionpolicysets") ? "set"
                : e.resource().equals("events") ? "event" : "object";
        return e.verb() + (e.dryRun() ? "-dryRun" : "") + "-" + what + (e.subresource() == null ? "" : "/" + e.subresource());
    }
}

package dev.policyset.aps.operator;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.operator.testing.SetStatus;
import dev.policyset.aps.operator.testing.Sets;
import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.KubeControlPlane.AuditEvent;
import dev.policyset.aps.testing.kube.OperatorInstall;
import dev.policyset.aps.testing.kube.RealApiServer;
import dev.policyset.aps.testing.kube.RealApiServerResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Not a timed test: a measurement, excluded from the default run by its name. N sets of six objects reconciled
 * to Ready against the real API server of the tests (the operator as its ServiceAccount), counted from the
 * server's audit log: wall time to all Ready, operator requests per set by kind, the operator's heap (the store is
 * etcd's, not in this JVM, unlike on the mock server), a full no-op resync window (requests, CPU per reconcile),
 * and then one change among N: one set's message patched, timed to its policy in the server carrying it (a
 * watch, not polling), repeated -Daps.bench.changes times (7) on sets spread over N.
 *
 * <pre>
 * mvn -B -o test -Dtest=ReconcileRealServerBenchmark -Daps.bench.sets=1000 -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 * Sets are created by -Daps.bench.create-threads (4) at once; -Daps.bench.histogram=true writes the JVM's class
 * histograms before and at steady state. Results go to stdout and {@code target/benchmark-real-N.txt}.
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
        int threads = Integer.getInteger("aps.bench.create-threads", 4);
        int changes = Integer.getInteger("aps.bench.changes", 7);
        KubeControlPlane plane = KubeControlPlane.shared();
        KubernetesClient admin = plane.admin();
        long heapBefore = ReconcileBenchmark.usedHeapAfterGc();
        histogram(n, "before");
        int mark = plane.audit().size();
        long start = System.nanoTime();
        createInParallel(admin, n, threads);
        long created = System.nanoTime();
        awaitAllReady(admin, n, start);
        Duration toReady = Duration.ofNanos(System.nanoTime() - start);
        plane.auditQuiet(Duration.ofSeconds(3), Duration.ofMinutes(5));
        List<AuditEvent> converge = plane.auditSince(mark, OperatorInstall.USER);
        int convergeSize = converge.size();
        String convergeMix = breakdown(converge, n);
        converge = null; // the benchmark's own copy of the audit log is not the operator's heap
        long heapSteady = ReconcileBenchmark.usedHeapAfterGc();
        histogram(n, "steady");

        double reconcilesBefore = SetStatus.reconciles(registry);
        int resyncMark = plane.audit().size();
        long cpuBefore = processCpuNanos();
        Thread.sleep(ReconcileBenchmark.RESYNC.plusSeconds(5).toMillis());
        long resyncCpu = processCpuNanos() - cpuBefore;
        plane.auditQuiet(Duration.ofSeconds(1), Duration.ofMinutes(1));
        List<AuditEvent> resync = plane.auditSince(resyncMark, OperatorInstall.USER);
        double resyncReconciles = SetStatus.reconciles(registry) - reconcilesBefore;
        long resyncWrites = resync.stream().filter(AuditEvent::isWrite).count();

        double changeReconcilesBefore = SetStatus.reconciles(registry);
        Timer apply = registry.find("aps.apply").timer();
        long appliesBefore = apply.count();
        double applyMsBefore = apply.totalTime(TimeUnit.MILLISECONDS);
        long changeStart = System.nanoTime();
        List<Change> changed = new ArrayList<>();
        for (int k = 0; k < changes; k++) {
            changed.add(oneChange(admin, String.format("rbench-%04d", (int) ((k * 7919L + n / 2) % n)), "changed " + k));
        }
        double changeWindowRate = (SetStatus.reconciles(registry) - changeReconcilesBefore) / ((System.nanoTime() - changeStart) / 1e9);
        double applyMs = (apply.totalTime(TimeUnit.MILLISECONDS) - applyMsBefore) / Math.max(1, apply.count() - appliesBefore);
        List<Long> latencies = changed.stream().map(Change::appliedMs).toList();
        List<Long> sorted = latencies.stream().sorted().toList();
        List<Long> seenSorted = changed.stream().map(Change::setSeenMs).sorted().toList();

        StringBuilder out = new StringBuilder();
        out.append(String.format("real kube-apiserver %s, sets=%d objects=%d, load average %.2f%n", plane.version(), n, 6 * n,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()));
        out.append(String.format("create %d sets (%d threads): %.1f s (%.1f ms/set); all Ready after %.1f s (%.1f s after the last create)%n",
                n, threads, (created - start) / 1e9, (created - start) / 1e6 / n, toReady.toMillis() / 1e3,
                (start + toReady.toNanos() - created) / 1e9));
        out.append(String.format("operator requests to converge: %d (%.2f per set): %s%n", convergeSize, convergeSize / (double) n, convergeMix));
        out.append(String.format("operator JVM heap used after GC: before %d MiB, steady %d MiB (delta %d MiB, %.1f KiB per set)%n",
                heapBefore >> 20, heapSteady >> 20, (heapSteady - heapBefore) >> 20, (heapSteady - heapBefore) / 1024.0 / n));
        out.append(String.format("no-op resync window %d s: %.0f reconciles (%.2f per set), %d requests, %d writes; "
                        + "operator JVM CPU %.1f s (%.1f ms per reconcile)%n",
                ReconcileBenchmark.RESYNC.plusSeconds(5).toSeconds(), resyncReconciles, resyncReconciles / n, resync.size(), resyncWrites,
                resyncCpu / 1e9, resyncCpu / 1e6 / Math.max(1, resyncReconciles)));
        out.append(String.format("one change among %d: patch to the policy carrying it, ms: median %d, max %d (all: %s); %.0f reconciles/s meanwhile%n",
                n, sorted.get(sorted.size() / 2), sorted.get(sorted.size() - 1), latencies, changeWindowRate));
        out.append(String.format("  of which patch to a watcher seeing the set, ms: median %d, max %d (all: %s); operator's applies meanwhile %.0f ms each%n",
                seenSorted.get(seenSorted.size() / 2), seenSorted.get(seenSorted.size() - 1),
                changed.stream().map(Change::setSeenMs).toList(), applyMs));
        System.out.println("=== ReconcileRealServerBenchmark ===\n" + out);
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target/benchmark-real-" + n + ".txt"), out.toString());
        assertEquals(0, resyncWrites, "a no-op resync must not write");
    }

    /** Creation through a small pool: one by one the real server's CRD validation (CEL rules) takes ~180 ms a set. */
    private static void createInParallel(KubernetesClient admin, int n, int threads) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String name = String.format("rbench-%04d", i);
                done.add(pool.submit(() -> admin.resource(Sets.six(name, "needs a team label")).create()));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    /**
     * Waits on the operator's own aps_set_ready gauges (no load on the server), then confirms from the server: a
     * list of every set every half second would, at 10,000 sets, cost the server more than the operator does.
     */
    private void awaitAllReady(KubernetesClient admin, int n, long start) throws InterruptedException {
        Duration limit = Duration.ofMinutes(Integer.getInteger("aps.bench.ready-minutes", 60));
        while (true) {
            double gauges = registry.find("aps.set.ready").gauges().stream()
                    .filter(g -> g.getId().getTag("set").startsWith("rbench-")).mapToDouble(g -> g.value()).sum();
            if (gauges >= n && ReconcileBenchmark.readyCount(admin, "rbench-") >= n) {
                return;
            }
            Thread.sleep(gauges >= n ? 1000 : 250);
            if (Duration.ofNanos(System.nanoTime() - start).compareTo(limit) > 0) {
                throw new AssertionError("not all Ready after " + limit + ": " + ReconcileBenchmark.readyCount(admin, "rbench-") + "/" + n);
            }
        }
    }

    /** One change: from sending the patch to a watcher seeing the patched set, and to its policy carrying it. */
    private record Change(long setSeenMs, long appliedMs) {}

    /**
     * Patches one set's validation message and watches (no polling) the set and its ValidatingAdmissionPolicy in
     * the server until the policy carries the new message. The set's own event says when the server handed the
     * change to watchers (the operator's informer among them); the rest is the operator's reconcile and apply.
     */
    private static Change oneChange(KubernetesClient admin, String set, String message) throws Exception {
        CompletableFuture<Long> applied = new CompletableFuture<>();
        CompletableFuture<Long> seen = new CompletableFuture<>();
        long generation = admin.resources(AdmissionPolicySet.class).withName(set).get().getMetadata().getGeneration();
        Watch policyWatch = admin.genericKubernetesResources(ManagedKinds.context(AdmissionKind.VALIDATING_ADMISSION_POLICY, "v1"))
                .withName(set + "-vap").watch(completing(applied, vap -> message.equals(SetStatus.message(vap))));
        Watch setWatch = admin.resources(AdmissionPolicySet.class).withName(set)
                .watch(completing(seen, s -> s.getMetadata().getGeneration() > generation));
        try {
            long sent = System.nanoTime();
            admin.resources(AdmissionPolicySet.class).withName(set).patch(PatchContext.of(PatchType.JSON),
                    "[{\"op\":\"replace\",\"path\":\"/spec/validatingPolicies/0/policy/validations/0/message\",\"value\":\""
                            + message + "\"}]");
            long done = applied.get(2, TimeUnit.MINUTES);
            return new Change((seen.get(1, TimeUnit.MINUTES) - sent) / 1_000_000, (done - sent) / 1_000_000);
        } finally {
            policyWatch.close();
            setWatch.close();
        }
    }

    private static <T> Watcher<T> completing(CompletableFuture<Long> at, java.util.function.Predicate<T> when) {
        return new Watcher<>() {
            @Override
            public void eventReceived(Action action, T object) {
                if (when.test(object)) {
                    at.complete(System.nanoTime());
                }
            }

            @Override
            public void onClose(WatcherException cause) {
                at.completeExceptionally(cause);
            }
        };
    }

    /** CPU time of this JVM (the operator's; the server and etcd are other processes). */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /**
     * With -Daps.bench.histogram=true, the JVM's class histogram (live objects, after a full GC) into target/: the
     * operator runs in this test JVM, so "steady" minus "before" is the operator's per-set memory plus what the
     * benchmark itself keeps (its parsed audit events, AuditEvent records; dropped before "steady" is taken).
     */
    private static void histogram(int n, String label) throws Exception {
        if (!Boolean.getBoolean("aps.bench.histogram")) {
            return;
        }
        String text = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                new Object[]{new String[0]}, new String[]{String[].class.getName()});
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target/benchmark-real-" + n + "-histogram-" + label + ".txt"), text);
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

package dev.policyset.aps.cli.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.api.v1alpha1.ImpactStatus;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.operator.testing.SetStatus;
import dev.policyset.aps.operator.testing.Sets;
import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.RealApiServer;
import dev.policyset.aps.testing.kube.RealApiServerResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Not a timed test: a measurement, excluded from the default run by its name. The operator's impact scan on the real
 * API server of the tests (the operator as its ServiceAccount, default kinds and page size) over N objects of
 * {@link RealisticCluster} (the kinds the operator scans by default: Namespaces, Pods, ReplicaSets, Deployments;
 * created beforehand, that time reported apart) × 20 bindings of {@link ImpactBench}'s shapes without params (a
 * paramKind needs get on every ConfigMap, which config/rbac does not grant). While the scan runs, another set's spec
 * changes: the time until its new policy is in the cluster, and the scan's state then.
 *
 * <pre>
 * mvn -B -o test -Dtest=ImpactScanRealServerBenchmark -Daps.bench.objects=10000 -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 * Results go to stdout and {@code target/benchmark-scan-real-N.txt}.
 */
@QuarkusTest
@TestProfile(ImpactScanRealServerBenchmark.Profile.class)
@QuarkusTestResource(value = RealApiServerResource.class, restrictToAnnotatedClass = true)
@RealApiServer
class ImpactScanRealServerBenchmark {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The shipped defaults, but one scan per generation and progress every second. */
    public static final class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("aps.impact.enabled", "true", "aps.impact.interval", "PT1H", "aps.impact.progress-interval", "PT1S");
        }
    }

    @Test
    void scanManyObjects() throws Exception {
        int n = Integer.getInteger("aps.bench.objects", 2000);
        KubeControlPlane plane = KubeControlPlane.shared();
        KubernetesClient admin = plane.admin();
        StringBuilder out = new StringBuilder();
        out.append(String.format("real kube-apiserver %s, %d generated objects (of which the scanned kinds are created)%n",
                plane.version(), n));

        // a small set, scanned while the cluster is still empty: its later spec change is the one timed
        admin.resource(Sets.parse(otherSet("generation one"))).create();
        awaitImpact(admin, "other", i -> "Finished".equals(i.getState()), Duration.ofMinutes(2));

        long c0 = System.nanoTime();
        int created = create(admin, new RealisticCluster(n));
        double creating = (System.nanoTime() - c0) / 1e9;
        out.append(String.format("created %d objects in %.1f s (%.2f ms each, 4 client threads)%n", created, creating,
                creating * 1000 / created));

        List<MemoryPoolMXBean> heap = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP).toList();
        System.gc();
        long before = heap.stream().mapToLong(p -> p.getUsage().getUsed()).sum();
        heap.forEach(MemoryPoolMXBean::resetPeakUsage);
        long s0 = System.nanoTime();
        admin.resource(Sets.parse(benchSet())).create();
        ImpactStatus running = awaitImpact(admin, "bench", i -> "Running".equals(i.getState()) && i.getScanned() > 0,
                Duration.ofMinutes(5));
        long change0 = System.nanoTime();
        AdmissionPolicySet next = Sets.parse(otherSet("generation two"));
        SetStatus.edit(admin, "other", s -> {
            s.setSpec(next.getSpec());
            return s;
        });
        while (!"generation two".equals(message(admin, "other-team"))) {
            Thread.sleep(20);
        }
        double applied = (System.nanoTime() - change0) / 1e9;
        ImpactStatus meanwhile = admin.resources(AdmissionPolicySet.class).withName("bench").get().getStatus().getImpact();
        ImpactStatus done = awaitImpact(admin, "bench", i -> "Finished".equals(i.getState()), Duration.ofMinutes(30));
        double scan = (System.nanoTime() - s0) / 1e9;
        long peak = heap.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
        long pairs = (long) done.getObjects() * done.getBindings().size();
        out.append(String.format("scan of %d objects × %d bindings (%d pairs): %.1f s from the set's create to Finished "
                        + "(status %s → %s), %d pages of at most 500; %.0f µs per object, %.1f µs per (object, binding) pair%n",
                done.getObjects(), done.getBindings().size(), pairs, scan, done.getStartedAt(), done.getFinishedAt(),
                done.getPages(), scan * 1e6 / done.getObjects(), scan * 1e6 / pairs));
        out.append(String.format("violations per binding: %s%n", done.getBindings().stream()
                .map(b -> String.valueOf(b.getViolations())).toList()));
        out.append(String.format("heap (test JVM: operator and test client): used after GC before the scan %d MiB; peak "
                + "during the scan %d MiB (sum of the heap pools' peaks, an upper bound)%n", before >> 20, peak >> 20));
        out.append(String.format("another set's spec change during the scan: applied after %.2f s; the scan then %s, %d of "
                + "%d objects read (it was %s at %d when the change was made)%n", applied, meanwhile.getState(),
                meanwhile.getScanned(), done.getObjects(), running.getState(), running.getScanned()));
        System.out.println("=== ImpactScanRealServerBenchmark ===\n" + out);
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target/benchmark-scan-real-" + n + ".txt"), out.toString());
        assertEquals("Running", meanwhile.getState(), "the change was applied while the scan ran");
        assertTrue(applied <= 2.0, "a spec change during a scan is applied within 2 s, not " + applied);
    }

    /** The objects of the scanned kinds, as the API server would take them on create (no server-set fields). */
    private static int create(KubernetesClient admin, RealisticCluster cluster) throws Exception {
        List<ObjectNode> namespaces = new ArrayList<>();
        int count = 0;
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<?>> pending = new ArrayList<>();
        try {
            for (int i = 0; i < cluster.size(); i++) {
                ObjectNode o = cluster.get(i);
                String kind = o.path("kind").asText();
                if (!List.of("Namespace", "Pod", "ReplicaSet", "Deployment").contains(kind)) {
                    continue;
                }
                ObjectNode meta = (ObjectNode) o.get("metadata");
                meta.remove(List.of("uid", "resourceVersion", "creationTimestamp", "managedFields", "ownerReferences", "generation"));
                o.remove("status");
                count++;
                if (kind.equals("Namespace")) {
                    namespaces.add(o);
                    admin.resource(generic(o)).create();
                    continue;
                }
                pending.add(pool.submit(() -> admin.resource(generic(o)).create()));
                if (pending.size() >= 400) {
                    for (Future<?> f : pending) {
                        f.get();
                    }
                    pending.clear();
                }
            }
            for (Future<?> f : pending) {
                f.get();
            }
        } finally {
            pool.shutdown();
            pool.awaitTermination(1, TimeUnit.MINUTES);
        }
        return count;
    }

    private static GenericKubernetesResource generic(ObjectNode o) {
        return JSON.convertValue(o, GenericKubernetesResource.class);
    }

    /** ImpactBench's policy shapes without the param one, as one set of 20 policies with one binding each. */
    private static String benchSet() {
        List<RenderedObject> configuration = ImpactBench.configuration(25);
        ObjectNode set = JSON.createObjectNode().put("apiVersion", "admission.policyset.dev/v1alpha1")
                .put("kind", "AdmissionPolicySet");
        set.putObject("metadata").put("name", "bench");
        ArrayNode policies = set.putObject("spec").putArray("validatingPolicies");
        for (RenderedObject policy : configuration) {
            if (policy.kind() != AdmissionKind.VALIDATING_ADMISSION_POLICY || policy.manifest().path("spec").has("paramKind")) {
                continue;
            }
            RenderedObject binding = configuration.stream().filter(b -> b.kind() == AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING
                    && b.manifest().path("spec").path("policyName").asText().equals(policy.name())).findFirst().orElseThrow();
            ObjectNode member = policies.addObject().put("name", policy.name());
            member.set("policy", policy.manifest().get("spec"));
            ObjectNode spec = binding.manifest().get("spec").deepCopy();
            spec.remove("policyName");
            member.putArray("bindings").addObject().put("name", binding.name()).set("spec", spec);
        }
        assertEquals(20, policies.size());
        return set.toString();
    }

    private static String otherSet(String message) {
        return """
                apiVersion: admission.policyset.dev/v1alpha1
                kind: AdmissionPolicySet
                metadata: {name: other}
                spec:
                  defaults: {validationActions: [Warn, Audit]}
                  validatingPolicies:
                  - name: other-team
                    policy:
                      matchConstraints:
                        resourceRules:
                        - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
                      validations:
                      - expression: "has(object.metadata.labels)"
                        message: "%s"
                """.formatted(message);
    }

    @SuppressWarnings("unchecked")
    private static String message(KubernetesClient admin, String policy) {
        GenericKubernetesResource live = admin.genericKubernetesResources(new ResourceDefinitionContext.Builder()
                .withGroup("admissionregistration.k8s.io").withVersion("v1").withPlural("validatingadmissionpolicies")
                .withKind("ValidatingAdmissionPolicy").withNamespaced(false).build()).withName(policy).get();
        if (live == null) {
            return "";
        }
        Map<String, Object> spec = (Map<String, Object>) live.getAdditionalProperties().get("spec");
        return String.valueOf(((List<Map<String, Object>>) spec.get("validations")).get(0).get("message"));
    }

    private static ImpactStatus awaitImpact(KubernetesClient admin, String set, java.util.function.Predicate<ImpactStatus> done,
                                            Duration limit) throws InterruptedException {
        long end = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < end) {
            AdmissionPolicySet s = admin.resources(AdmissionPolicySet.class).withName(set).get();
            ImpactStatus i = s == null || s.getStatus() == null ? null : s.getStatus().getImpact();
            if (i != null && done.test(i)) {
                return i;
            }
            Thread.sleep(100);
        }
        throw new AssertionError(set + ": no such impact status after " + limit);
    }
}

package dev.policyset.aps.operator;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.api.v1alpha1.ValidationAction;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.operator.testing.ApplyAwareDispatcher;
import dev.policyset.aps.operator.testing.MockCluster;
import dev.policyset.aps.operator.testing.OperatorProcess;
import dev.policyset.aps.operator.testing.SetStatus;
import dev.policyset.aps.operator.testing.Sets;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The packaged operator (prod profile, so leader election is on) as a process against the extended mock server,
 * through what a cluster admin sees: start beside a set it cannot decode, a crash between dry run and apply, a
 * restart that takes over the Lease and converges, a broken generation, SIGTERM, and a restart while that
 * generation is still broken and a live object has been deleted. One scenario, because every start of the packaged
 * operator costs seconds (minutes on a busy machine). Runs after {@code package} (failsafe): it needs
 * target/quarkus-app.
 */
class PackagedOperatorIT {
    static final String LEASE = "admission-policy-operator-lease";
    static final Path CRD = Path.of("crds/admissionpolicysets.admission.policyset.dev-v1.yml");
    /** Quarkus starts in 2-5 s on an idle machine; far longer when the shared CPUs are busy. */
    static final Duration START = Duration.ofMinutes(4);
    static final Duration EXIT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    @Test
    void startsBesideAnUndecodableSetSurvivesACrashExitsZeroOnSigtermAndRestartsIntoABlockedGeneration() throws Exception {
        assertTrue(Files.isRegularFile(OperatorProcess.JAR), OperatorProcess.JAR + " is missing: run after package");
        Path kubeconfig = dir.resolve("kubeconfig");
        try (MockCluster cluster = MockCluster.start(kubeconfig, CRD, true)) {
            // 1. A set the operator's classes cannot decode is stored before it starts (as after a CRD upgrade). It used
            //    to make the start fail (exit 1, blaming RBAC); now it is reported and the rest works.
            createRaw(cluster, """
                    {"apiVersion": "%s", "kind": "%s", "metadata": {"name": "undecodable"},
                     "spec": {"unknownField": 1, "validatingPolicies": {"not": "a list"}}}""");
            try (OperatorProcess first = OperatorProcess.start(kubeconfig, "aps-it-first", dir.resolve("first.log"), Map.of())) {
                awaitLeader(cluster, first, "aps-it-first");
                awaitSet(cluster, "undecodable", s -> s.getStatus() != null && s.getStatus().getFindings().stream()
                        .anyMatch(f -> "spec.validatingPolicies".equals(f.getField())));
                cluster.client().resource(Sets.six("restart", "generation one")).create();
                awaitReady(cluster, "restart", 1);

                // 2. Generation 2; the operator is killed (SIGKILL) after its dry runs, at its first real apply.
                AtomicBoolean killed = new AtomicBoolean();
                cluster.dispatcher().admission(r -> {
                    if (!r.isDryRun() && r.method().equals("PATCH") && r.path().contains("/restart-") && killed.compareAndSet(false, true)) {
                        first.process().destroyForcibly();
                        return Optional.of(ApplyAwareDispatcher.status(503, "ServiceUnavailable", "the operator was killed"));
                    }
                    return Optional.empty();
                });
                int mark = cluster.dispatcher().mark();
                // Two objects change (the policy's message, the binding's actions): the planner dry-runs every write
                // but the first, whose own apply is its check, so a dry run comes before the killed apply.
                replaceMessage(cluster, "restart", "generation two");
                await().atMost(Duration.ofMinutes(1)).until(killed::get);
                first.kill();
                cluster.dispatcher().admission(null);
                assertTrue(cluster.dispatcher().since(mark).stream().anyMatch(r -> r.isDryRun() && r.path().contains("/restart-")),
                        "the kill came after the dry runs");
                // Nothing of generation one was lost: every object is there, unchanged.
                assertEquals("generation one", SetStatus.vapMessage(cluster.client(), "restart-vap"));
                for (AdmissionKind kind : AdmissionKind.values()) {
                    assertEquals(1, cluster.client().genericKubernetesResources(ManagedKinds.context(kind, kind.isMutatingPolicyKind()
                            ? "v1beta1" : "v1")).withLabel(AdmissionPolicySet.SET_LABEL, "restart").list().getItems().size(),
                            kind + " of generation one");
                }
            }

            // 3. A new instance waits for the dead leader's Lease to expire (15 s), takes over and converges.
            try (OperatorProcess second = OperatorProcess.start(kubeconfig, "aps-it-second", dir.resolve("second.log"), Map.of())) {
                awaitLeader(cluster, second, "aps-it-second");
                awaitReady(cluster, "restart", 2);
                assertEquals("generation two", SetStatus.vapMessage(cluster.client(), "restart-vap"));

                // 3b. Generation 3 does not compile: blocked, and generation two stays in force.
                SetStatus.edit(cluster.client(), "restart", s -> {
                    s.getSpec().getValidatingPolicies().get(0).getPolicy().getValidations().get(0)
                            .setExpression("'team' in object.metadata.labels &&");
                    return s;
                });
                awaitBlocked(cluster, "restart", 3);
                assertEquals("generation two", SetStatus.vapMessage(cluster.client(), "restart-vap"));

                // 4. SIGTERM: stops, releases the Lease (fabric8's LeaderElector.release(): holder ""), exits 0.
                Duration exit = second.terminate(Duration.ofSeconds(60));
                assertNotNull(exit, () -> "still running 60 s after SIGTERM:\n" + second.log());
                System.out.printf("PackagedOperatorIT: SIGTERM to exit in %d ms%n", exit.toMillis());
                assertEquals(0, second.process().exitValue(), () -> "exit code after SIGTERM:\n" + second.log());
                assertTrue(exit.compareTo(EXIT) <= 0, "SIGTERM to exit took " + exit.toMillis() + " ms");
                assertEquals(Optional.of(""), holder(cluster), () -> "the Lease was not released:\n" + second.log());
                assertTrue(second.log().contains("Released the leader lease"), second::log);
            }

            // 5. While no operator runs, the live policy is deleted; generation 3 is still broken. A restarted operator
            //    has only the cluster to go on (status.lastApplied): it restores generation two, applies nothing of
            //    three, prunes nothing, and the set stays blocked.
            cluster.client().genericKubernetesResources(ManagedKinds.context(AdmissionKind.VALIDATING_ADMISSION_POLICY, "v1"))
                    .withName("restart-vap").delete();
            try (OperatorProcess third = OperatorProcess.start(kubeconfig, "aps-it-third", dir.resolve("third.log"), Map.of())) {
                awaitLeader(cluster, third, "aps-it-third");
                await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(500)).until(() -> cluster.client()
                        .genericKubernetesResources(ManagedKinds.context(AdmissionKind.VALIDATING_ADMISSION_POLICY, "v1"))
                        .withName("restart-vap").get() != null);
                assertEquals("generation two", SetStatus.vapMessage(cluster.client(), "restart-vap"));
                awaitBlocked(cluster, "restart", 3);
                for (AdmissionKind kind : AdmissionKind.values()) {
                    assertEquals(1, cluster.client().genericKubernetesResources(ManagedKinds.context(kind, kind.isMutatingPolicyKind()
                            ? "v1beta1" : "v1")).withLabel(AdmissionPolicySet.SET_LABEL, "restart").list().getItems().size(),
                            kind + " of generation two after the restart");
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private static void createRaw(MockCluster cluster, String json) {
        var sets = cluster.client().genericKubernetesResources(AdmissionPolicySet.API_VERSION, AdmissionPolicySet.KIND);
        GenericKubernetesResource set = sets.load(new ByteArrayInputStream(json.formatted(AdmissionPolicySet.API_VERSION,
                AdmissionPolicySet.KIND).getBytes(StandardCharsets.UTF_8))).item();
        sets.resource(set).create();
    }

    private static void awaitLeader(MockCluster cluster, OperatorProcess operator, String identity) {
        await().atMost(START).pollInterval(Duration.ofMillis(500)).until(() -> {
            assertTrue(operator.process().isAlive(), () -> "the operator exited early:\n" + operator.log());
            return holder(cluster).filter(identity::equals).isPresent();
        });
    }

    private static void awaitReady(MockCluster cluster, String name, long generation) {
        awaitSet(cluster, name, s -> s.getStatus() != null && s.getStatus().getObservedGeneration() != null
                && s.getStatus().getObservedGeneration() == generation && s.getStatus().getConditions().stream()
                .anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True")));
    }

    /** The generation was seen and refused: Ready False, Stalled True (the last good objects stay). */
    private static void awaitBlocked(MockCluster cluster, String name, long generation) {
        awaitSet(cluster, name, s -> s.getStatus() != null && s.getStatus().getObservedGeneration() != null
                && s.getStatus().getObservedGeneration() == generation
                && s.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("False"))
                && s.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Stalled") && c.getStatus().equals("True")));
    }

    private static void awaitSet(MockCluster cluster, String name, java.util.function.Predicate<AdmissionPolicySet> condition) {
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(500))
                .until(() -> cluster.client().resources(AdmissionPolicySet.class).withName(name).get(), s -> s != null && condition.test(s));
    }

    private static void replaceMessage(MockCluster cluster, String name, String message) {
        SetStatus.edit(cluster.client(), name, s -> {
            s.setSpec(Sets.six(name, message).getSpec());
            s.getSpec().getDefaults().setValidationActions(List.of(ValidationAction.Deny, ValidationAction.Audit));
            return s;
        });
    }

    private static Optional<String> holder(MockCluster cluster) {
        Lease lease = cluster.client().leases().inNamespace(MockCluster.NAMESPACE).withName(LEASE).get();
        return Optional.ofNullable(lease).map(l -> l.getSpec().getHolderIdentity());
    }
}

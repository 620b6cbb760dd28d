package dev.policyset.aps.operator;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.operator.testing.MockCluster;
import dev.policyset.aps.operator.testing.OperatorProcess;
import dev.policyset.aps.operator.testing.Sets;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The packaged operator (prod profile, so leader election is on) as a process against the extended mock server:
 * it takes the Lease, reconciles a set, and on SIGTERM stops, releases the Lease and exits 0 within seconds.
 * JOSDK 5.2.1 alone deadlocks here ({@code LeaderElectionManager.stopLeading} calls {@code System.exit} inside the
 * shutdown hook) and only SIGKILL ends it. Runs after {@code package} (failsafe), as it needs target/quarkus-app.
 */
class PackagedOperatorIT {
    static final String LEASE = "admission-policy-operator-lease";
    /** Quarkus starts in 2-5 s on an idle machine; far longer when the shared CPUs are busy. */
    static final Duration START = Duration.ofMinutes(4);
    static final Duration EXIT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    @Test
    void sigtermStopsTheOperatorReleasesTheLeaseAndExitsZero() throws Exception {
        assertTrue(Files.isRegularFile(OperatorProcess.JAR), OperatorProcess.JAR + " is missing: run after package");
        Path kubeconfig = dir.resolve("kubeconfig");
        try (MockCluster cluster = MockCluster.start(kubeconfig, Path.of("crds/admissionpolicysets.admission.policyset.dev-v1.yml"), true);
             OperatorProcess operator = OperatorProcess.start(kubeconfig, "aps-it-leader", dir.resolve("operator.log"), Map.of())) {
            await().atMost(START).pollInterval(Duration.ofMillis(500)).until(() -> {
                assertTrue(operator.process().isAlive(), () -> "the operator exited early:\n" + operator.log());
                return holder(cluster).filter("aps-it-leader"::equals).isPresent();
            });
            cluster.client().resource(Sets.six("sigterm", "needs a team label")).create();
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(500)).until(() -> {
                AdmissionPolicySet s = cluster.client().resources(AdmissionPolicySet.class).withName("sigterm").get();
                return s.getStatus() != null && s.getStatus().getConditions().stream()
                        .anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
            });

            Duration exit = operator.terminate(Duration.ofSeconds(60));
            assertNotNull(exit, () -> "still running 60 s after SIGTERM:\n" + operator.log());
            System.out.printf("PackagedOperatorIT: SIGTERM to exit in %d ms%n", exit.toMillis());
            assertEquals(0, operator.process().exitValue(), () -> "exit code after SIGTERM:\n" + operator.log());
            assertTrue(exit.compareTo(EXIT) <= 0, "SIGTERM to exit took " + exit.toMillis() + " ms");
            // fabric8's LeaderElector.release(): holder "", so the next replica need not wait for the lease to expire.
            assertEquals(Optional.of(""), holder(cluster), () -> "the Lease was not released:\n" + operator.log());
            assertTrue(operator.log().contains("Released the leader lease"), operator::log);
            String log = operator.log();
            System.out.println(log.substring(Math.max(0, log.indexOf("SIGTERM"))));
        }
    }

    private static Optional<String> holder(MockCluster cluster) {
        Lease lease = cluster.client().leases().inNamespace(MockCluster.NAMESPACE).withName(LEASE).get();
        return Optional.ofNullable(lease).map(l -> l.getSpec().getHolderIdentity());
    }
}

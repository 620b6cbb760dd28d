package dev.policyset.aps.operator;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.operator.testing.OperatorProcess;
import dev.policyset.aps.operator.testing.SetStatus;
import dev.policyset.aps.operator.testing.Sets;
import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.OperatorInstall;
import dev.policyset.aps.testing.kube.RealApiServer;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The packaged operator ({@code quarkus-run.jar}, prod profile: leader election on) as processes against a real
 * kube-apiserver, connecting as its ServiceAccount with the RBAC of config/default (the Lease through the
 * namespaced Role): two replicas, one leads; SIGTERM makes the leader exit 0 and release the Lease, and the other
 * takes over at once; a restart into a broken generation restores the last good one from status alone.
 * One scenario, because each start of the packaged operator costs seconds. Runs after {@code package} (failsafe).
 */
@RealApiServer
class PackagedOperatorRealServerIT {
    static final String LEASE = "admission-policy-operator-lease";

    private static Map<String, String> with(Map<String, String> a, Map<String, String> b, String key, String value) {
        Map<String, String> out = new java.util.HashMap<>(a);
        out.putAll(b);
        out.put(key, value);
        return out;
    }
    static final Duration START = Duration.ofMinutes(4);

    @TempDir
    Path dir;

    @Test
    void twoReplicasHandOverOnSigtermAndARestartIntoABrokenGenerationKeepsTheLastGoodOne(KubeControlPlane plane) throws Exception {
        assertTrue(Files.isRegularFile(OperatorProcess.JAR), OperatorProcess.JAR + " is missing: run after package");
        OperatorInstall.ensure(plane);
        KubernetesClient admin = plane.admin();
        Path kubeconfig = plane.kubeconfigFor(OperatorInstall.USER, OperatorInstall.GROUPS);
        Map<String, String> env = Map.of("APS_LEADER_ELECTION_NAMESPACE", OperatorInstall.NAMESPACE);
        // The packaged default, self-managed webhook certificates, in the install namespace; a port each (same host).
        Map<String, String> webhook = Map.of("APS_WEBHOOK_SELF_MANAGED_NAMESPACE", OperatorInstall.NAMESPACE,
                "APS_WEBHOOK_RELOAD_PERIOD", "PT1S");
        try (OperatorProcess first = OperatorProcess.start(kubeconfig, "aps-real-first", dir.resolve("first.log"),
                with(env, webhook, "APS_WEBHOOK_PORT", String.valueOf(KubeControlPlane.freePort())));
             OperatorProcess second = OperatorProcess.start(kubeconfig, "aps-real-second", dir.resolve("second.log"),
                with(env, webhook, "APS_WEBHOOK_PORT", String.valueOf(KubeControlPlane.freePort())))) {
            String leader = await().atMost(START).pollInterval(Duration.ofMillis(500)).until(() -> {
                assertTrue(first.process().isAlive(), first::log);
                assertTrue(second.process().isAlive(), second::log);
                return holder(admin).orElse("");
            }, h -> h.equals("aps-real-first") || h.equals("aps-real-second"));
            OperatorProcess leading = leader.equals("aps-real-first") ? first : second;
            OperatorProcess standby = leading == first ? second : first;
            // The leader fills the webhook's Secret; both replicas serve from it (the Secret is read, not written, by the
            // standby: it is not leading).
            for (OperatorProcess p : List.of(first, second)) {
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(
                        () -> p.log().contains("Validating webhook for AdmissionPolicySets listening on https port"));
            }
            assertTrue(leading.log().contains("Webhook certificates in Secret " + OperatorInstall.NAMESPACE
                    + "/admission-policy-operator-webhook-tls: created CA"), leading::log);
            assertFalse(standby.log().contains("Webhook certificates in Secret"), standby::log);
            String standbyName = leading == first ? "aps-real-second" : "aps-real-first";

            long leadingSince = System.nanoTime();
            admin.resource(Sets.six("packaged", "generation one")).create();
            awaitSet(admin, "packaged", ready(1));
            // Past one lease duration (15 s): the leader renewed the Lease (a JSON merge patch the Role must grant).
            Thread.sleep(Math.max(0, Duration.ofSeconds(17).minus(Duration.ofNanos(System.nanoTime() - leadingSince)).toMillis()));
            assertEquals(Optional.of(leader), holder(admin), leading::log);
            assertTrue(leading.process().isAlive() && !leading.log().contains("Lost the leader lease"), leading::log);

            // SIGTERM to the leader: it exits 0 and releases the Lease; the standby leads without waiting for expiry.
            long t0 = System.nanoTime();
            Duration exit = leading.terminate(Duration.ofSeconds(60));
            assertNotNull(exit, () -> "still running 60 s after SIGTERM:\n" + leading.log());
            assertEquals(0, leading.process().exitValue(), leading::log);
            try {
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> holder(admin).orElse(""),
                        standbyName::equals);
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                throw new AssertionError("no handover; leader's log:\n" + tail(leading.log()) + "\nstandby's log:\n" + tail(standby.log()), e);
            }
            Duration handover = Duration.ofNanos(System.nanoTime() - t0);
            System.out.printf("PackagedOperatorRealServerIT: SIGTERM to exit %d ms, to the standby leading %d ms%n",
                    exit.toMillis(), handover.toMillis());
            assertTrue(handover.compareTo(Duration.ofSeconds(15)) < 0, "handed over after the Lease's expiry, not at its release: " + handover);

            replaceMessage(admin, "packaged", "generation two");
            awaitSet(admin, "packaged", ready(2));
            assertEquals("generation two", SetStatus.vapMessage(admin, "packaged-vap"), standby::log);

            // Generation 3 does not compile: blocked, generation two stays.
            SetStatus.edit(admin, "packaged", s -> {
                s.getSpec().getValidatingPolicies().get(0).getPolicy().getValidations().get(0).setExpression("'team' in object.metadata.labels &&");
                return s;
            });
            awaitSet(admin, "packaged", blocked(3));
            assertNotNull(standby.terminate(Duration.ofSeconds(60)), standby::log);
            assertEquals(0, standby.process().exitValue(), standby::log);
        }

        // While no operator runs, the live policy is deleted; generation 3 is still broken. A new operator has only the
        // cluster (status.lastApplied) to go on: it restores generation two and applies nothing of three.
        admin.genericKubernetesResources(ManagedKinds.context(AdmissionKind.VALIDATING_ADMISSION_POLICY, "v1")).withName("packaged-vap").delete();
        try (OperatorProcess third = OperatorProcess.start(kubeconfig, "aps-real-third", dir.resolve("third.log"), env)) {
            await().atMost(START).pollInterval(Duration.ofMillis(500)).until(() -> {
                assertTrue(third.process().isAlive(), third::log);
                return admin.genericKubernetesResources(ManagedKinds.context(AdmissionKind.VALIDATING_ADMISSION_POLICY, "v1"))
                        .withName("packaged-vap").get() != null;
            });
            assertEquals("generation two", SetStatus.vapMessage(admin, "packaged-vap"));
            awaitSet(admin, "packaged", blocked(3));
            admin.resources(AdmissionPolicySet.class).withName("packaged").delete();
            await().atMost(Duration.ofMinutes(1)).until(() -> admin.resources(AdmissionPolicySet.class).withName("packaged").get() == null);
        }
    }

    private static String tail(String log) {
        String[] lines = log.split("\n");
        return String.join("\n", java.util.Arrays.copyOfRange(lines, Math.max(0, lines.length - 40), lines.length));
    }

    private static Predicate<AdmissionPolicySet> ready(long generation) {
        return s -> s.getStatus() != null && s.getStatus().getObservedGeneration() != null && s.getStatus().getObservedGeneration() == generation
                && s.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
    }

    private static Predicate<AdmissionPolicySet> blocked(long generation) {
        return s -> s.getStatus() != null && s.getStatus().getObservedGeneration() != null && s.getStatus().getObservedGeneration() == generation
                && s.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Stalled") && c.getStatus().equals("True"));
    }

    private static void awaitSet(KubernetesClient admin, String name, Predicate<AdmissionPolicySet> condition) {
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
                .until(() -> admin.resources(AdmissionPolicySet.class).withName(name).get(), s -> s != null && condition.test(s));
    }

    private static void replaceMessage(KubernetesClient admin, String name, String message) {
        SetStatus.edit(admin, name, s -> {
            s.getSpec().getValidatingPolicies().get(0).getPolicy().getValidations().get(0).setMessage(message);
            return s;
        });
    }

    private static Optional<String> holder(KubernetesClient admin) {
        Lease lease = admin.leases().inNamespace(OperatorInstall.NAMESPACE).withName(LEASE).get();
        return Optional.ofNullable(lease).map(l -> l.getSpec().getHolderIdentity()).filter(h -> !h.isEmpty());
    }
}

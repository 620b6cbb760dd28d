package dev.policyset.aps.operator;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.operator.testing.Sets;
import dev.policyset.aps.testing.kube.OwnApiServerResource;
import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.OperatorInstall;
import dev.policyset.aps.testing.kube.RealApiServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.Duration;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MutatingAdmissionPolicy version negotiation against a real server with 1.34's defaults (the newest binary with
 * {@code --emulated-version=1.34}): beta and off, so a set with mutating policies stalls and applies nothing, and a
 * set without them is applied; after an upgrade to the binary's own minor (the server restarted without the emulated
 * version) the running operator applies the stalled set at v1. Turning the beta on needs a real 1.34 binary ({@link MutatingPolicyBetaRealServerTest}:
 * a 1.37 binary emulating 1.34 with the gate on never becomes ready, its MutatingAdmissionPolicy plugin waits for the
 * v1 API that 1.34 does not serve). The newest version's v1 is in {@link AdmissionPolicySetRealServerTest}.
 */
@QuarkusTest
@QuarkusTestResource(value = OwnApiServerResource.class, restrictToAnnotatedClass = true,
        initArgs = @ResourceArg(name = "emulated-version", value = "1.34"))
@RealApiServer
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MutatingPolicyVersionsRealServerTest {
    private static final Duration WAIT = Duration.ofSeconds(90);

    private KubeControlPlane plane() {
        return OwnApiServerResource.current();
    }

    private KubernetesClient admin() {
        return plane().admin();
    }

    @Test
    @Order(1)
    void onAServerThatDoesNotServeThemASetWithMutatingPoliciesStallsAndAppliesNothing() {
        assertTrue(admin().getApiGroups().getGroups().stream().filter(g -> g.getName().equals(AdmissionKind.GROUP))
                .flatMap(g -> g.getVersions().stream()).noneMatch(v -> v.getVersion().equals("v1beta1")), "1.34 serves no beta by default");
        admin().resource(Sets.six("emu-nomap", "m")).create();
        AdmissionPolicySet set = await().atMost(WAIT).until(() -> get("emu-nomap"), s -> s != null && s.getStatus() != null
                && s.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Stalled") && c.getStatus().equals("True")));
        assertEquals("MutatingPolicyNotServed", set.getStatus().getConditions().stream().filter(c -> c.getType().equals("Ready"))
                .findFirst().orElseThrow().getReason());
        assertNull(admin().genericKubernetesResources(ManagedKinds.context(AdmissionKind.VALIDATING_ADMISSION_POLICY, "v1"))
                .withName("emu-nomap-vap").get(), "all or nothing: the validating half is not applied either");
    }

    @Test
    @Order(2)
    void aSetWithoutMutatingPoliciesIsAppliedAndNothingAsksForTheUnservedKind() {
        int mark = plane().audit().size();
        admin().resource(Sets.validating("emu-validating", "emu-validating-a")).create();
        await().atMost(WAIT).until(() -> get("emu-validating"), s -> s != null && s.getStatus() != null
                && s.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True")));
        assertTrue(plane().auditSince(mark, OperatorInstall.USER).stream()
                .noneMatch(e -> "mutatingadmissionpolicies".equals(e.resource())), "no request for an unserved kind");
    }

    @Test
    @Order(3)
    void anUpgradeToAServerThatServesThemNeedsNoOperatorRestart() {
        // 1.34 -> the binary's own minor: GA (v1) from 1.36; on a 1.35 binary the admin also turns the beta on
        plane().upgradeApiServer(KubeControlPlane.mutatingPolicyFlags(plane().version()));
        String served = Integer.parseInt(plane().version().split("\\.")[1]) >= 36 ? "v1" : "v1beta1";
        AdmissionPolicySet ready = await().atMost(WAIT).until(() -> get("emu-nomap"), s -> s != null && s.getStatus().getConditions()
                .stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True")));
        assertEquals("admissionregistration.k8s.io/" + served, ready.getStatus().getResources().stream()
                .filter(r -> r.getKind().equals("MutatingAdmissionPolicy")).findFirst().orElseThrow().getApiVersion());
        assertNotNull(admin().genericKubernetesResources(ManagedKinds.context(AdmissionKind.MUTATING_ADMISSION_POLICY, served))
                .withName("emu-nomap-map").get(), "applied at the newly served version");
    }

    private AdmissionPolicySet get(String name) {
        try {
            return admin().resources(AdmissionPolicySet.class).withName(name).get();
        } catch (RuntimeException e) {
            return null; // the server restarting
        }
    }
}

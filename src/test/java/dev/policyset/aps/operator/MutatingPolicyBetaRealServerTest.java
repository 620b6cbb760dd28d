package dev.policyset.aps.operator;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.operator.testing.Sets;
import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.OwnApiServerResource;
import dev.policyset.aps.testing.kube.RealApiServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * On a real 1.34 server, MutatingAdmissionPolicy is beta and off: a set with mutating policies stalls; the admin
 * turns the beta on (the feature gate and {@code admissionregistration.k8s.io/v1beta1}, the server restarted with
 * them) and the running operator applies at v1beta1 without a restart. Needs the 1.34 binaries (the matrix).
 */
@QuarkusTest
@QuarkusTestResource(value = OwnApiServerResource.class, restrictToAnnotatedClass = true,
        initArgs = @ResourceArg(name = "minor", value = "1.34"))
@RealApiServer(minor = "1.34")
class MutatingPolicyBetaRealServerTest {
    private static final Duration WAIT = Duration.ofSeconds(120);

    @Test
    void turningTheBetaOnNeedsNoOperatorRestartAndAppliesAtV1beta1() {
        KubeControlPlane plane = OwnApiServerResource.current();
        KubernetesClient admin = plane.admin();
        admin.resource(Sets.six("beta-map", "m")).create();
        await().atMost(WAIT).until(() -> get(admin, "beta-map"), s -> s != null && s.getStatus() != null && s.getStatus().getConditions()
                .stream().anyMatch(c -> c.getType().equals("Ready") && "MutatingPolicyNotServed".equals(c.getReason())));

        plane.restartApiServer(KubeControlPlane.mutatingPolicyFlags(plane.version()));
        AdmissionPolicySet ready = await().atMost(WAIT).until(() -> get(admin, "beta-map"), s -> s != null && s.getStatus().getConditions()
                .stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True")));
        assertEquals("admissionregistration.k8s.io/v1beta1", ready.getStatus().getResources().stream()
                .filter(r -> r.getKind().equals("MutatingAdmissionPolicy")).findFirst().orElseThrow().getApiVersion());
        assertNotNull(admin.genericKubernetesResources(ManagedKinds.context(AdmissionKind.MUTATING_ADMISSION_POLICY, "v1beta1"))
                .withName("beta-map-map").get());
    }

    private static AdmissionPolicySet get(KubernetesClient admin, String name) {
        try {
            return admin.resources(AdmissionPolicySet.class).withName(name).get();
        } catch (RuntimeException e) {
            return null; // the server restarting
        }
    }
}

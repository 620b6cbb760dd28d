package dev.policyset.aps.operator;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.operator.testing.ApsMockServer;
import dev.policyset.aps.operator.testing.Sets;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
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
 * A cluster whose discovery lists no MutatingAdmissionPolicy version (e.g. 1.33 without the feature gate), until
 * the last test upgrades it: discovery is asked again (every {@code aps.discovery.refresh}, PT2S in tests), so the
 * operator picks the new version up without a restart.
 */
@QuarkusTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@QuarkusTestResource(value = ApsMockServer.class, restrictToAnnotatedClass = true,
        initArgs = @ResourceArg(name = "map-version", value = "none"))
class MutatingPolicyNotServedReconcilerTest {
    @Inject
    KubernetesClient client;

    @Test
    @Order(1)
    void aSetWithMutatingPoliciesStallsWithAClearConditionAndAppliesNothing() {
        client.resource(Sets.six("nomap", "m")).create();
        AdmissionPolicySet set = await().atMost(Duration.ofSeconds(30)).until(
                () -> client.resources(AdmissionPolicySet.class).withName("nomap").get(),
                s -> s.getStatus() != null && s.getStatus().getConditions().stream()
                        .anyMatch(c -> c.getType().equals("Stalled") && c.getStatus().equals("True")));
        var ready = set.getStatus().getConditions().stream().filter(c -> c.getType().equals("Ready")).findFirst().orElseThrow();
        assertEquals("MutatingPolicyNotServed", ready.getReason());
        assertTrue(set.getStatus().getFindings().stream().anyMatch(f -> f.getField().equals("spec.mutatingPolicies")));
        assertNull(client.genericKubernetesResources(ManagedKinds.context(AdmissionKind.VALIDATING_ADMISSION_POLICY, "v1"))
                .withName("nomap-vap").get(), "all or nothing: the validating half is not applied either");
    }

    @Test
    @Order(2)
    void aSetWithoutMutatingPoliciesIsApplied() {
        client.resource(Sets.validating("validating-only", "validating-only-a")).create();
        await().atMost(Duration.ofSeconds(30)).until(
                () -> client.resources(AdmissionPolicySet.class).withName("validating-only").get(),
                s -> s.getStatus() != null && s.getStatus().getConditions().stream()
                        .anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True")));
        assertTrue(ApsMockServer.dispatcher().requests().stream()
                .noneMatch(r -> r.path().contains("mutatingadmissionpolicies")), "no informer or request for an unserved kind");
    }

    @Test
    @Order(3)
    void aClusterUpgradeThatStartsServingMutatingPoliciesNeedsNoRestart() {
        client.resource(Sets.six("upgraded", "m")).create();
        await().atMost(Duration.ofSeconds(30)).until(() -> client.resources(AdmissionPolicySet.class).withName("upgraded").get(),
                s -> s.getStatus() != null && s.getStatus().getConditions().stream()
                        .anyMatch(c -> c.getReason().equals("MutatingPolicyNotServed")));

        // The mock server says 1.34: the admin enables MutatingAdmissionPolicy at v1beta1 (as an upgrade would).
        ApsMockServer.dispatcher().serveMutatingPolicies("v1beta1");
        await().atMost(Duration.ofSeconds(30)).until(() -> client.resources(AdmissionPolicySet.class).withName("upgraded").get(),
                s -> s.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True")));
        assertNotNull(client.genericKubernetesResources(ManagedKinds.context(AdmissionKind.MUTATING_ADMISSION_POLICY, "v1beta1"))
                .withName("upgraded-map").get(), "rendered and applied at the newly served version");
        AdmissionPolicySet stalledBefore = await().atMost(Duration.ofSeconds(30))
                .until(() -> client.resources(AdmissionPolicySet.class).withName("nomap").get(), s -> s.getStatus().getConditions()
                        .stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True")));
        assertEquals("admissionregistration.k8s.io/v1beta1", stalledBefore.getStatus().getResources().stream()
                .filter(r -> r.getKind().equals("MutatingAdmissionPolicy")).findFirst().orElseThrow().getApiVersion());
    }
}

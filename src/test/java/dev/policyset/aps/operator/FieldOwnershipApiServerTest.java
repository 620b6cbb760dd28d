package dev.policyset.aps.operator;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.AdmissionKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What the mock server cannot show, against a real API server: server-side apply field ownership (the operator
 * never fights cert-manager over {@code caBundle}, and takes back a hand-edited field), {@code dryRun=All}
 * storing nothing, and the API server's own rejection of a bad CEL expression as a finding.
 *
 * <p>Opt-in: runs only with {@code -Daps.apiserver=true} (or {@code APS_APISERVER=true}) and a reachable cluster
 * from the current kubeconfig, on which it creates and deletes cluster-scoped objects named {@code aps-it-*}.
 * Otherwise every test is skipped with the reason.
 * {@code mvn -B test -Dtest=FieldOwnershipApiServerTest -Daps.apiserver=true}
 */
@Tag("apiserver")
class FieldOwnershipApiServerTest {
    private static final String VWC = "aps-it-webhook";
    private static final String VAP = "aps-it-policy";
    private static KubernetesClient client;
    private static ClusterObjects objects;

    private static String skipReason;

    @BeforeAll
    static void connect() {
        boolean optedIn = Boolean.getBoolean("aps.apiserver") || "true".equalsIgnoreCase(System.getenv("APS_APISERVER"));
        if (!optedIn) {
            skipReason = "real-cluster suite is opt-in: pass -Daps.apiserver=true with KUBECONFIG pointing at a "
                    + "disposable cluster (e.g. kind)";
            return;
        }
        try {
            client = new KubernetesClientBuilder().withConfig(Config.autoConfigure(null)).build();
            client.getKubernetesVersion();
        } catch (RuntimeException e) {
            skipReason = "no reachable API server from the current kubeconfig: " + e.getMessage();
            return;
        }
        objects = new ClusterObjects(client);
    }

    @BeforeEach
    void requireCluster() {
        Assumptions.assumeTrue(skipReason == null, skipReason);
    }

    @AfterAll
    static void cleanUp() {
        if (client != null && objects != null) {
            for (var kind : List.of(AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION, AdmissionKind.VALIDATING_ADMISSION_POLICY)) {
                client.genericKubernetesResources(ManagedKinds.context(kind, "v1")).withName(kind == AdmissionKind.VALIDATING_ADMISSION_POLICY ? VAP : VWC).delete();
            }
            client.close();
        }
    }

    private static GenericKubernetesResource webhook(String failurePolicy) {
        return Serialization.unmarshal("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata:
                  name: %s
                  labels: {admission.policyset.dev/set: it}
                webhooks:
                  - name: check.aps-it.example.com
                    failurePolicy: %s
                    sideEffects: None
                    admissionReviewVersions: [v1]
                    clientConfig:
                      service: {namespace: aps-it, name: checker}
                    rules:
                      - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
                """.formatted(VWC, failurePolicy), GenericKubernetesResource.class);
    }

    @Test
    void dryRunStoresNothing() {
        objects.dryRun(AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION, "v1", webhook("Ignore"));
        assertNull(client.genericKubernetesResources(ManagedKinds.context(AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION, "v1"))
                .withName(VWC + "-absent").get());
    }

    @Test
    @SuppressWarnings("unchecked")
    void theOperatorNeverFightsOverCaBundleAndTakesBackHandEdits() {
        objects.apply(AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION, "v1", webhook("Ignore"));
        // cert-manager's cainjector owns caBundle under its own field manager.
        GenericKubernetesResource injection = Serialization.unmarshal("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: %s}
                webhooks:
                  - name: check.aps-it.example.com
                    clientConfig: {caBundle: Y2VydA==}
                """.formatted(VWC), GenericKubernetesResource.class);
        client.genericKubernetesResources(ManagedKinds.context(AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION, "v1"))
                .resource(injection).fieldManager("cert-manager-cainjector").serverSideApply();
        // A hand edit moves failurePolicy to another manager.
        client.genericKubernetesResources(ManagedKinds.context(AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION, "v1"))
                .withName(VWC).edit(r -> {
                    ((List<Map<String, Object>>) r.getAdditionalProperties().get("webhooks")).get(0).put("failurePolicy", "Fail");
                    return r;
                });

        GenericKubernetesResource after = objects.apply(AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION, "v1", webhook("Ignore"));
        Map<String, Object> hook = ((List<Map<String, Object>>) after.getAdditionalProperties().get("webhooks")).get(0);
        assertEquals("Ignore", hook.get("failurePolicy"), "the forced apply takes the hand-edited field back");
        assertEquals("Y2VydA==", ((Map<String, Object>) hook.get("clientConfig")).get("caBundle"), "caBundle stays cert-manager's");
        List<String> managers = after.getMetadata().getManagedFields().stream().map(ManagedFieldsEntry::getManager).toList();
        assertTrue(managers.contains(ClusterObjects.FIELD_MANAGER) && managers.contains("cert-manager-cainjector"), managers.toString());
    }

    @Test
    void theApiServerRejectsBadCelAsAFindingOnTheExpression() {
        GenericKubernetesResource policy = Serialization.unmarshal("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: %s}
                spec:
                  failurePolicy: Fail
                  matchConstraints:
                    resourceRules:
                      - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
                  validations:
                    - expression: "objekt.metadata.name != ''"
                """.formatted(VAP), GenericKubernetesResource.class);
        try {
            objects.dryRun(AdmissionKind.VALIDATING_ADMISSION_POLICY, "v1", policy);
            fail("the API server should reject an undeclared reference");
        } catch (KubernetesClientException e) {
            List<Finding> findings = PlanExecutor.rejection("ValidatingAdmissionPolicy/" + VAP, e, true).findings();
            assertEquals("api/Invalid", findings.get(0).rule());
            assertEquals("spec.validations[0].expression", findings.get(0).field());
        }
        assertNull(client.genericKubernetesResources(ManagedKinds.context(AdmissionKind.VALIDATING_ADMISSION_POLICY, "v1"))
                .withName(VAP).get());
    }
}

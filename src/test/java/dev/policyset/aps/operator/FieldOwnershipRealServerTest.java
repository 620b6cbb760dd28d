package dev.policyset.aps.operator;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.RealApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What the mock server cannot show, against the real API server of the tests ({@link KubeControlPlane}):
 * server-side apply field ownership (the operator never fights cert-manager over {@code caBundle}, and takes back
 * a hand-edited field), {@code dryRun=All} storing nothing, and the API server's own rejection of a bad CEL
 * expression as a finding. It drives {@link ClusterObjects} directly, without the operator around it.
 */
@RealApiServer
class FieldOwnershipRealServerTest {
    private static final String VWC = "aps-it-webhook";
    private static final String VAP = "aps-it-policy";
    private static KubernetesClient client;
    private static ClusterObjects objects;

    @BeforeAll
    static void connect() {
        client = KubeControlPlane.shared().admin();
        objects = new ClusterObjects(client);
    }

    @AfterAll
    static void cleanUp() {
        if (client != null && objects != null) {
            for (var kind : List.of(AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION, AdmissionKind.VALIDATING_ADMISSION_POLICY)) {
                client.genericKubernetesResources(ManagedKinds.context(kind, "v1")).withName(kind == AdmissionKind.VALIDATING_ADMISSION_POLICY ? VAP : VWC).delete();
            }
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

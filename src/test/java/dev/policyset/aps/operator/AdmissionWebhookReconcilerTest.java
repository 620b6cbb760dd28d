package dev.policyset.aps.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.plan.Planner;
import dev.policyset.aps.core.plan.SetAdmission;
import dev.policyset.aps.core.validate.cel.KubernetesCelChecker;
import dev.policyset.aps.operator.testing.ApsMockServer;
import dev.policyset.aps.operator.webhook.AdmissionReviewHandler;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.Operator;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The webhook judges against the running operator's informer caches (what {@link AdmissionWebhook} wires in
 * production), on the fabric8 mock server: a binding to a policy that exists in the cluster but not in the set
 * is admitted, one to a policy that exists nowhere is refused (APS401), exactly as a reconcile would decide.
 */
@QuarkusTest
@QuarkusTestResource(value = ApsMockServer.class, restrictToAnnotatedClass = true)
class AdmissionWebhookReconcilerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    KubernetesClient client;

    @Inject
    Operator operator;

    @Inject
    ClusterDiscovery discovery;

    @Test
    void judgesABindingAgainstThePoliciesTheClusterHolds() throws Exception {
        client.resource(Serialization.unmarshal("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata:
                  name: shared-labels
                spec:
                  failurePolicy: Fail
                  matchConstraints:
                    resourceRules:
                      - apiGroups: [apps]
                        apiVersions: [v1]
                        operations: [CREATE, UPDATE]
                        resources: [deployments]
                  validations:
                    - expression: "has(object.metadata.labels)"
                """, GenericKubernetesResource.class)).create();
        await().atMost(Duration.ofSeconds(30)).until(() -> AdmissionWebhook.clusterView(operator, discovery)
                .find(AdmissionKind.VALIDATING_ADMISSION_POLICY, "shared-labels").isPresent());

        AdmissionReviewHandler handler = new AdmissionReviewHandler(new SetAdmission(new Planner(new KubernetesCelChecker())),
                () -> AdmissionWebhook.clusterView(operator, discovery));
        JsonNode known = answer(handler, "shared-labels");
        assertTrue(known.path("allowed").asBoolean(), known.toPrettyString());
        assertFalse(known.has("warnings"), known.toPrettyString());

        JsonNode unknown = answer(handler, "nowhere");
        assertFalse(unknown.path("allowed").asBoolean(), unknown.toPrettyString());
        assertTrue(unknown.path("status").path("message").asText().contains("\n- APS401 ValidatingAdmissionPolicyBinding/"
                + "prod-binding spec.policyName: the binding names ValidatingAdmissionPolicy \"nowhere\""), unknown.toPrettyString());
    }

    /** The webhook's answer to the CREATE of a set whose extra binding names {@code policy}. */
    private static JsonNode answer(AdmissionReviewHandler handler, String policy) throws Exception {
        ObjectNode set = JSON.valueToTree(Serialization.unmarshal("""
                apiVersion: admission.policyset.dev/v1alpha1
                kind: AdmissionPolicySet
                metadata:
                  name: bindings-only
                  uid: 7e57a000-0000-4000-8000-000000000001
                  generation: 1
                spec:
                  validatingPolicies:
                    - name: local-labels
                      policy:
                        matchConstraints:
                          resourceRules:
                            - apiGroups: [apps]
                              apiVersions: [v1]
                              operations: [CREATE, UPDATE]
                              resources: [deployments]
                        validations:
                          - expression: "has(object.metadata.labels)"
                      bindings:
                        - name: local-labels-binding
                        - name: prod-binding
                          spec:
                            policyName: %s
                """.formatted(policy), GenericKubernetesResource.class));
        ObjectNode review = JSON.createObjectNode();
        review.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
        ObjectNode request = review.putObject("request");
        request.put("uid", "7e57a000-0000-4000-8000-00000000000" + policy.length());
        request.putObject("kind").put("group", "admission.policyset.dev").put("version", "v1alpha1")
                .put("kind", "AdmissionPolicySet");
        request.put("operation", "CREATE");
        request.set("object", set);
        AdmissionReviewHandler.Reply reply = handler.handle(review.toString().getBytes(StandardCharsets.UTF_8));
        return JSON.readTree(reply.body()).path("response");
    }
}

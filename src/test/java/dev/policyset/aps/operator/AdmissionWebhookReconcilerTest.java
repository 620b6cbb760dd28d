package dev.policyset.aps.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.operator.testing.ApsMockServer;
import dev.policyset.aps.operator.webhook.TestCertificates;
import dev.policyset.aps.operator.webhook.WebhookServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.Operator;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The webhook as the application runs it: started at boot from a certificate in {@code aps.webhook.cert-dir}
 * (made by the test profile), answering over HTTPS, judging against the running operator's informer caches on
 * the fabric8 mock server: a binding to a policy that exists in the cluster but not in the set is admitted, one
 * to a policy that exists nowhere is refused (APS401), exactly as a reconcile would decide.
 */
@QuarkusTest
@TestProfile(AdmissionWebhookReconcilerTest.WithCertificate.class)
@QuarkusTestResource(value = ApsMockServer.class, restrictToAnnotatedClass = true)
class AdmissionWebhookReconcilerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A serving certificate for localhost, made before the application starts. */
    public static class WithCertificate implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            try {
                Path dir = Files.createTempDirectory("webhook-cert");
                TestCertificates.generate(dir.resolve("keys"), "localhost", "EC").writeTo(dir, false);
                return Map.of("aps.webhook.cert-dir", dir.toString());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Inject
    AdmissionWebhook webhook;

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

        int port = webhook.port().orElseThrow(() -> new AssertionError("the webhook did not start with a certificate"));
        JsonNode known = answer(port, "shared-labels");
        assertTrue(known.path("allowed").asBoolean(), known.toPrettyString());
        assertFalse(known.has("warnings"), known.toPrettyString());

        JsonNode unknown = answer(port, "nowhere");
        assertFalse(unknown.path("allowed").asBoolean(), unknown.toPrettyString());
        assertTrue(unknown.path("status").path("message").asText().contains("\n- APS401 ValidatingAdmissionPolicyBinding/"
                + "prod-binding spec.policyName: the binding names ValidatingAdmissionPolicy \"nowhere\""), unknown.toPrettyString());
    }

    /** The webhook's answer, over HTTPS, to the CREATE of a set whose extra binding names {@code policy}. */
    private static JsonNode answer(int port, String policy) throws Exception {
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
        HttpResponse<String> response = insecureClient().send(HttpRequest.newBuilder(
                        URI.create("https://localhost:" + port + WebhookServer.PATH + "?timeout=5s"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(review.toString(), StandardCharsets.UTF_8)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body()).path("response");
    }

    /** The certificate is the profile's own, made for this run; trust is WebhookServerTest's subject. */
    private static HttpClient insecureClient() throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[]{new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {}

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {}

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        }}, null);
        return HttpClient.newBuilder().sslContext(context).build();
    }
}

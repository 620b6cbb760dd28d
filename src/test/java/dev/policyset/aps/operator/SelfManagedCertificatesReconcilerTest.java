package dev.policyset.aps.operator;

import dev.policyset.aps.operator.webhook.SecretCertificateSource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Injected faults around the self-managed Secret (the happy path runs on a real API server in
 * SelfManagedWebhookRealServerTest): a write that loses a race (409), a Secret the operator may not read (403), a
 * Secret that is not there; a follower never writes. None of them throws out of a look, and nothing is served that
 * the Secret does not hold.
 */
class SelfManagedCertificatesReconcilerTest {
    private static final String SECRET_PATH = "/api/v1/namespaces/aps/secrets/admission-policy-operator-webhook-tls";
    private static final String VWC_PATH = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/admission-policy-operator";
    private KubernetesMockServer server;
    private KubernetesClient client;
    private SelfManagedCertificates certificates;
    private Secret lastWritten;

    @BeforeEach
    void start() {
        server = new KubernetesMockServer(false);
        server.init();
        client = server.createClient();
        certificates = new SelfManagedCertificates(client, Optional.of("aps"), "admission-policy-operator-webhook-tls",
                "admission-policy-operator", "admission-policy-operator-webhook", Optional.empty(), Duration.ofDays(100),
                Duration.ofDays(20), Duration.ofDays(30), Duration.ofDays(10), Duration.ofMinutes(2), Duration.ofMinutes(1),
                Duration.ofSeconds(10));
    }

    @AfterEach
    void stop() {
        client.close();
        server.destroy();
    }

    @Test
    void aWriteThatLosesTheRaceServesNothingAndTheNextLookWins() throws Exception {
        Secret empty = new SecretBuilder().withNewMetadata().withName("admission-policy-operator-webhook-tls")
                .withNamespace("aps").withResourceVersion("1").endMetadata().withType("Opaque").build();
        server.expect().get().withPath(SECRET_PATH).andReturn(200, empty).times(2);
        server.expect().put().withPath(SECRET_PATH).andReturn(409, new StatusBuilder().withCode(409).withReason("Conflict")
                .withMessage("the object has been modified").build()).once();
        server.expect().put().withPath(SECRET_PATH).andReply(200, this::written).once();
        ValidatingWebhookConfiguration vwc = new ValidatingWebhookConfigurationBuilder().withNewMetadata()
                .withName("admission-policy-operator").endMetadata().addNewWebhook().withName("v.example.com")
                .withNewClientConfig().endClientConfig().endWebhook().build();
        server.expect().get().withPath(VWC_PATH).andReturn(200, vwc).always();
        server.expect().patch().withPath(VWC_PATH).andReturn(200, vwc).once();

        SecretCertificateSource source = new SecretCertificateSource("aps/admission-policy-operator-webhook-tls");
        certificates.lookOnce(true, source);
        assertFalse(source.present(), "the lost write is not served");
        certificates.lookOnce(true, source);
        assertTrue(source.present(), "the next look writes and serves");
        List<String> secretRequests = new ArrayList<>();
        List<String> patches = new ArrayList<>();
        for (int i = server.getRequestCount(); i > 0; i--) {
            RecordedRequest r = server.takeRequest();
            if (r.getPath().startsWith(SECRET_PATH)) {
                secretRequests.add(r.getMethod());
            } else if (r.getMethod().equals("PATCH")) {
                patches.add(r.getUtf8Body());
            }
        }
        assertEquals(List.of("GET", "PUT", "GET", "PUT"), secretRequests, "read, lost write; read, write");
        assertEquals(1, patches.size(), "the CA injected once, after the successful write");
        String expectedCa = lastWritten.getData().get("ca.crt"); // base64 in the Secret, as in caBundle
        assertEquals("[{\"op\":\"test\",\"path\":\"/webhooks/0/name\",\"value\":\"v.example.com\"},"
                + "{\"op\":\"add\",\"path\":\"/webhooks/0/clientConfig/caBundle\",\"value\":\"" + expectedCa + "\"}]",
                normalized(patches.get(0)), "a JSON patch of the caBundle, guarded by the webhook's name");
    }

    @Test
    void aForbiddenOrMissingSecretIsNoCrashAndAFollowerNeverWrites() throws Exception {
        server.expect().get().withPath(SECRET_PATH).andReturn(403, new StatusBuilder().withCode(403).withReason("Forbidden")
                .withMessage("secrets \"admission-policy-operator-webhook-tls\" is forbidden").build()).once();
        server.expect().get().withPath(SECRET_PATH).andReturn(404, new StatusBuilder().withCode(404).withReason("NotFound").build()).once();
        Secret empty = new SecretBuilder().withNewMetadata().withName("admission-policy-operator-webhook-tls")
                .withNamespace("aps").withResourceVersion("1").endMetadata().build();
        server.expect().get().withPath(SECRET_PATH).andReturn(200, empty).once();
        SecretCertificateSource source = new SecretCertificateSource("aps/admission-policy-operator-webhook-tls");
        certificates.lookOnce(true, source);   // 403
        certificates.lookOnce(true, source);   // 404: the leader may not create it
        certificates.lookOnce(false, source);  // a follower with an empty Secret waits for the leader
        assertFalse(source.present());
        List<String> methods = new ArrayList<>();
        for (int i = server.getRequestCount(); i > 0; i--) {
            methods.add(server.takeRequest().getMethod());
        }
        assertEquals(List.of("GET", "GET", "GET"), methods, "reads only: no create, no write by a follower");
    }

    /** The patch with its keys in a fixed order (Map.of has none). */
    private static String normalized(String jsonPatch) throws Exception {
        var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        List<String> ops = new ArrayList<>();
        for (var op : mapper.readTree(jsonPatch)) {
            ops.add("{\"op\":" + op.get("op") + ",\"path\":" + op.get("path") + ",\"value\":" + op.get("value") + "}");
        }
        return "[" + String.join(",", ops) + "]";
    }

    /** The Secret as the PUT sent it, with a new resourceVersion, as the API server answers. */
    private String written(RecordedRequest request) {
        Secret s = Serialization.unmarshal(request.getUtf8Body(), Secret.class);
        s.getMetadata().setResourceVersion("2");
        lastWritten = s;
        return Serialization.asJson(s);
    }
}

package dev.policyset.aps.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.KubePki;
import dev.policyset.aps.testing.kube.RealApiServer;
import dev.policyset.aps.testing.kube.RealApiServerResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The operator's own validating webhook called by a real kube-apiserver over TLS, registered the way the shipped
 * ValidatingWebhookConfiguration does it (config/components/cert-manager), with a URL on 127.0.0.1 instead of the
 * Service and the test CA as its caBundle: what {@code kubectl apply} and {@code --dry-run=server} get back, and
 * what happens while the webhook is down and when its certificate rotates.
 */
@QuarkusTest
@TestProfile(AdmissionWebhookRealServerTest.ServingCertificate.class)
@QuarkusTestResource(value = RealApiServerResource.class, restrictToAnnotatedClass = true)
@RealApiServer
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AdmissionWebhookRealServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONFIGURATION = "aps-real-webhook";
    private static Path certDir;

    /** A serving certificate for 127.0.0.1 from the control plane's CA, reloaded every second. */
    public static class ServingCertificate implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            try {
                certDir = Files.createTempDirectory("aps-real-webhook");
                writeCertificate(certDir);
                return Map.of("aps.webhook.cert-dir", certDir.toString(), "aps.webhook.reload-period", "PT1S");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    static void writeCertificate(Path dir) throws Exception {
        KubePki.Issued cert = KubeControlPlane.shared().pki().serving("aps-webhook", List.of(), Duration.ofDays(2));
        Files.writeString(dir.resolve("tls.key.tmp"), cert.keyPem());
        Files.writeString(dir.resolve("tls.crt.tmp"), cert.certPem());
        Files.move(dir.resolve("tls.key.tmp"), dir.resolve("tls.key"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.move(dir.resolve("tls.crt.tmp"), dir.resolve("tls.crt"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    @Inject
    AdmissionWebhook webhook;

    private final KubeControlPlane plane = KubeControlPlane.shared();

    @BeforeAll
    static void noConfigurationYet() {
        KubeControlPlane.shared().admin().admissionRegistration().v1().validatingWebhookConfigurations().withName(CONFIGURATION).delete();
    }

    @AfterAll
    static void removeConfigurationAndSets() {
        var admin = KubeControlPlane.shared().admin();
        admin.admissionRegistration().v1().validatingWebhookConfigurations().withName(CONFIGURATION).delete();
        for (String name : List.of("unsafe-catch-all", "real-hooked-good")) {
            admin.resources(AdmissionPolicySet.class).withName(name).delete();
        }
    }

    @Test
    @Order(1)
    void aBadSetIsRefusedAtCreateWithItsFindings() throws Exception {
        register(webhook.port().orElseThrow(() -> new AssertionError("the webhook did not start")));
        HttpResponse<String> refused = awaitAnswer(false, 403);
        JsonNode status = JSON.readTree(refused.body());
        String message = status.path("message").asText();
        assertTrue(message.contains("admission webhook \"validate.admissionpolicysets.admission.policyset.dev\" denied the request"), message);
        assertTrue(message.contains("- APS201 ValidatingWebhookConfiguration/catch-all-validator webhooks[0].namespaceSelector"), message);
        assertTrue(refused.headers().allValues("Warning").stream().anyMatch(w -> w.contains("APS301")),
                "warnings reach the client: " + refused.headers().allValues("Warning"));
        assertNull(plane.admin().resources(AdmissionPolicySet.class).withName("unsafe-catch-all").get());
    }

    @Test
    @Order(2)
    void dryRunServerReturnsTheFindingsAndStoresNothing() throws Exception {
        HttpResponse<String> dryRun = post(unsafeSet(), true);
        assertEquals(403, dryRun.statusCode(), dryRun.body());
        assertTrue(JSON.readTree(dryRun.body()).path("message").asText().contains("APS205"), dryRun.body());

        HttpResponse<String> good = post(goodSetWithAWarning(), true);
        assertEquals(201, good.statusCode(), good.body());
        assertFalse(good.headers().allValues("Warning").isEmpty(), "a set with warning findings is admitted with them");
        assertNull(plane.admin().resources(AdmissionPolicySet.class).withName("real-hooked-good").get(), "dry run stores nothing");
    }

    @Test
    @Order(3)
    void aRotatedCertificateIsServedWithoutARestart() throws Exception {
        int port = webhook.port().orElseThrow();
        X509Certificate before = servedCertificate(port);
        writeCertificate(certDir);
        await().atMost(Duration.ofSeconds(30)).until(() -> !servedCertificate(port).getSerialNumber().equals(before.getSerialNumber()));
        assertEquals(403, post(unsafeSet(), true).statusCode(), "the API server trusts the new certificate (same CA)");
    }

    @Test
    @Order(4)
    void whileTheWebhookIsDownSetsAreAdmittedAndTheReconcilerStillRefusesThem() throws Exception {
        register(KubeControlPlane.freePort()); // nothing listens there: the API server cannot call the webhook
        HttpResponse<String> admitted = awaitAnswer(false, 201);
        assertEquals(201, admitted.statusCode(), admitted.body());
        AdmissionPolicySet stalled = await().atMost(Duration.ofSeconds(60)).until(
                () -> plane.admin().resources(AdmissionPolicySet.class).withName("unsafe-catch-all").get(),
                s -> s != null && s.getStatus() != null && s.getStatus().getConditions() != null && s.getStatus().getConditions()
                        .stream().anyMatch(c -> c.getType().equals("Stalled") && c.getStatus().equals("True")));
        assertTrue(stalled.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Ready")
                && c.getReason().equals("ValidationFailed")), stalled.getStatus().getConditions().toString());
        assertNull(plane.admin().admissionRegistration().v1().validatingWebhookConfigurations().withName("catch-all-validator").get(),
                "nothing of the unsafe set is applied");
    }

    // ------------------------------------------------------------------------------------------------ helpers

    /** The shipped configuration, pointed at {@code https://127.0.0.1:port} with the test CA. */
    private void register(int port) throws Exception {
        GenericKubernetesResource vwc = Serialization.unmarshal(Files.readString(
                Path.of("config/webhook/validating_webhook.yaml")), GenericKubernetesResource.class);
        vwc.getMetadata().setName(CONFIGURATION);
        vwc.getMetadata().setAnnotations(null);
        @SuppressWarnings("unchecked")
        Map<String, Object> hook = ((List<Map<String, Object>>) vwc.getAdditionalProperties().get("webhooks")).get(0);
        hook.put("clientConfig", Map.of("url", "https://127.0.0.1:" + port + "/validate-admissionpolicyset",
                "caBundle", Base64.getEncoder().encodeToString(plane.caPem().getBytes(StandardCharsets.UTF_8))));
        plane.admin().resource(vwc).fieldManager("aps-test").forceConflicts().serverSideApply();
    }

    /** The webhook configuration takes effect within a second or two (the API server's informer): retry until it does. */
    private HttpResponse<String> awaitAnswer(boolean dryRun, int code) {
        return await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300))
                .until(() -> post(unsafeSet(), dryRun), r -> r.statusCode() == code);
    }

    /** POSTs a set to the API server as its admin, {@code ?dryRun=All} when asked. */
    static HttpResponse<String> post(String json, boolean dryRun) throws Exception {
        KubeControlPlane plane = KubeControlPlane.shared();
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(plane.sslContext(true)).build();
        return http.send(HttpRequest.newBuilder(URI.create(plane.url() + "/apis/admission.policyset.dev/v1alpha1/admissionpolicysets"
                        + (dryRun ? "?dryRun=All" : ""))).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static String unsafeSet() throws Exception {
        return JSON.writeValueAsString(new com.fasterxml.jackson.dataformat.yaml.YAMLMapper()
                .readTree(Files.readString(Path.of("config/samples/unsafe-fail-closed-webhook.yaml"))));
    }

    /** A validating policy without a binding: APS402, a warning. */
    private static String goodSetWithAWarning() {
        return """
                {"apiVersion":"admission.policyset.dev/v1alpha1","kind":"AdmissionPolicySet","metadata":{"name":"real-hooked-good"},
                 "spec":{"validatingPolicies":[{"name":"real-hooked-good-vap","bindings":[],"policy":{
                   "matchConstraints":{"resourceRules":[{"apiGroups":["apps"],"apiVersions":["v1"],"operations":["CREATE"],"resources":["deployments"]}]},
                   "validations":[{"expression":"true"}]}}]}}""";
    }

    private X509Certificate servedCertificate(int port) throws Exception {
        javax.net.ssl.SSLContext ssl = plane.sslContext(false);
        try (javax.net.ssl.SSLSocket socket = (javax.net.ssl.SSLSocket) ssl.getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.startHandshake();
            return (X509Certificate) socket.getSession().getPeerCertificates()[0];
        }
    }
}

package dev.policyset.aps.operator;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.policyset.aps.operator.webhook.Pem;
import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.OperatorInstall;
import dev.policyset.aps.testing.kube.RealApiServer;
import dev.policyset.aps.testing.kube.RealApiServerResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The self-managed webhook certificates on a real kube-apiserver: the operator, connected as its ServiceAccount with
 * config/default's RBAC (the by-name grants judged by the real authorizer), fills the empty Secret, injects the CA
 * into config/default's ValidatingWebhookConfiguration, and the API server, verifying the served certificate against
 * that CA, gets the webhook's refusal of a bad set. Then, with lifetimes of seconds, the serving certificate renews
 * and the CA rotates (new CA in the bundle, serving certificate moved to it, old CA dropped) while a bad set is
 * written every second: every write is refused by the webhook, none is let through because a call failed
 * (failurePolicy Ignore would admit it).
 *
 * <p>The configuration is config/default's, with {@code clientConfig.url} on localhost in place of the Service (no
 * kube-proxy routes a ClusterIP here); the certificate names localhost through {@code extra-dns-names}.
 */
@QuarkusTest
@TestProfile(SelfManagedWebhookRealServerTest.SelfManaged.class)
@QuarkusTestResource(value = RealApiServerResource.class, restrictToAnnotatedClass = true)
@RealApiServer
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SelfManagedWebhookRealServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NS = OperatorInstall.NAMESPACE;
    private static final String SECRET = "admission-policy-operator-webhook-tls";
    private static final String CONFIGURATION = "admission-policy-operator";
    private static final int PORT = KubeControlPlane.freePort();

    /**
     * Lifetimes of seconds: the serving certificate (40 s) renews 20 s before it expires, the CA (100 s) 50 s before;
     * the serving certificate moves to a new CA 5 s after it joined the bundle. The leader looks every second.
     */
    public static class SelfManaged implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.ofEntries(Map.entry("aps.webhook.certificates", "self-managed"),
                    Map.entry("aps.webhook.port", String.valueOf(PORT)),
                    Map.entry("aps.webhook.self-managed.namespace", NS),
                    Map.entry("aps.webhook.self-managed.extra-dns-names", "localhost"),
                    Map.entry("aps.webhook.reload-period", "PT1S"),
                    Map.entry("aps.webhook.self-managed.check-period", "PT1S"),
                    Map.entry("aps.webhook.self-managed.ca-validity", "PT100S"),
                    Map.entry("aps.webhook.self-managed.ca-renew-before", "PT50S"),
                    Map.entry("aps.webhook.self-managed.cert-validity", "PT40S"),
                    Map.entry("aps.webhook.self-managed.cert-renew-before", "PT20S"),
                    Map.entry("aps.webhook.self-managed.ca-propagation", "PT5S"));
        }
    }

    private final KubeControlPlane plane = KubeControlPlane.shared();

    /** config/default's configuration, pointed at this process; no caBundle: the operator injects it. */
    @BeforeAll
    static void registerConfigDefaultsWebhook() {
        KubeControlPlane plane = KubeControlPlane.shared();
        HasMetadata rendered = OperatorInstall.webhookConfiguration(plane);
        GenericKubernetesResource vwc = Serialization.unmarshal(Serialization.asJson(rendered), GenericKubernetesResource.class);
        @SuppressWarnings("unchecked")
        Map<String, Object> hook = ((List<Map<String, Object>>) vwc.getAdditionalProperties().get("webhooks")).get(0);
        @SuppressWarnings("unchecked")
        Map<String, Object> service = (Map<String, Object>) ((Map<String, Object>) hook.get("clientConfig")).get("service");
        hook.put("clientConfig", Map.of("url", "https://localhost:" + PORT + service.get("path")));
        plane.admin().resource(vwc).fieldManager("aps-test").forceConflicts().serverSideApply();
    }

    @AfterAll
    static void removeWebhook() {
        KubeControlPlane.shared().admin().admissionRegistration().v1().validatingWebhookConfigurations().withName(CONFIGURATION).delete();
    }

    @Test
    @Order(1)
    void theOperatorFillsTheSecretInjectsItsCaAndTheApiServerGetsTheRefusal() throws Exception {
        Secret secret = await().atMost(Duration.ofSeconds(60)).until(this::secret,
                s -> s != null && s.getData() != null && s.getData().containsKey("tls.crt"));
        X509Certificate leaf = Pem.certificates(text(secret, "tls.crt")).get(0);
        Set<String> names = new HashSet<>();
        leaf.getSubjectAlternativeNames().forEach(san -> names.add(String.valueOf(san.get(1))));
        assertEquals(Set.of("admission-policy-operator-webhook." + NS + ".svc", "admission-policy-operator-webhook." + NS,
                "admission-policy-operator-webhook", "localhost"), names);
        await().atMost(Duration.ofSeconds(30)).until(() -> caBundle().equals(text(secret(), "ca.crt")));

        HttpResponse<String> refused = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300))
                .until(() -> AdmissionWebhookRealServerTest.post(AdmissionWebhookRealServerTest.unsafeSet(), true),
                        r -> r.statusCode() == 403);
        String message = JSON.readTree(refused.body()).path("message").asText();
        assertTrue(message.contains("admission webhook \"validate.admissionpolicysets.admission.policyset.dev\" denied the request"),
                message);
    }

    @Test
    @Order(2)
    void theCertificatesRotateWhileEveryBadSetIsStillRefused() throws Exception {
        X509Certificate firstCa = Pem.certificates(text(secret(), "ca.crt")).get(0);
        Set<String> leaves = new HashSet<>();
        Set<String> cas = new HashSet<>();
        List<String> notRefused = new ArrayList<>();
        boolean bundleOfTwo = false;
        boolean leafOfANewCa = false;
        boolean oldCaDropped = false;
        Instant start = Instant.now();
        Instant end = start.plus(Duration.ofSeconds(130));
        int writes = 0;
        while (Instant.now().isBefore(end) && !(leafOfANewCa && oldCaDropped)) {
            HttpResponse<String> r = AdmissionWebhookRealServerTest.post(AdmissionWebhookRealServerTest.unsafeSet(), true);
            writes++;
            if (r.statusCode() != 403 || !r.body().contains("denied the request")) {
                notRefused.add(Instant.now() + ": " + r.statusCode() + " " + r.body());
            }
            Secret s = secret();
            List<X509Certificate> bundle = Pem.certificates(text(s, "ca.crt"));
            X509Certificate leaf = Pem.certificates(text(s, "tls.crt")).get(0);
            leaves.add(leaf.getSerialNumber().toString(16));
            bundle.forEach(c -> cas.add(c.getSubjectX500Principal().getName()));
            bundleOfTwo |= bundle.size() == 2;
            leafOfANewCa |= !leaf.getIssuerX500Principal().equals(firstCa.getSubjectX500Principal());
            // The bundle may hold two CAs from then on (the next CA can join as the first leaves), so: without it.
            oldCaDropped |= bundleOfTwo && !bundle.contains(firstCa);
            Thread.sleep(1000);
        }
        System.out.printf("self-managed rotation: %d bad sets written in %d s, %d refused by the webhook; %d serving "
                + "certificates, %d CAs seen%n", writes, Duration.between(start, Instant.now()).toSeconds(),
                writes - notRefused.size(), leaves.size(), cas.size());
        assertEquals(List.of(), notRefused, "every bad set written during the rotations is refused by the webhook");
        assertTrue(leaves.size() >= 3, "the serving certificate renewed: " + leaves);
        assertTrue(bundleOfTwo, "the new CA joined the bundle beside the old one");
        assertTrue(leafOfANewCa, "the serving certificate moved to the new CA");
        assertTrue(oldCaDropped, "the old CA left the bundle when it expired: " + cas);
        assertEquals(text(secret(), "ca.crt"), caBundle(), "the configuration carries the Secret's bundle");
    }

    /**
     * A second replica, not leading: it only reads the Secret (as the operator's ServiceAccount) and serves what the
     * leader wrote. The configuration pointed at it, the API server verifies its certificate with the injected CA and
     * gets the same refusal.
     */
    @Test
    @Order(3)
    void aFollowerReplicaServesWhatTheLeaderWrote() throws Exception {
        io.vertx.core.Vertx vertx = io.vertx.core.Vertx.vertx();
        try (var client = new io.fabric8.kubernetes.client.KubernetesClientBuilder()
                .withConfig(plane.configFor(OperatorInstall.USER, OperatorInstall.GROUPS)).build()) {
            SelfManagedCertificates follower = new SelfManagedCertificates(client, java.util.Optional.of(NS), SECRET,
                    CONFIGURATION, "admission-policy-operator-webhook", java.util.Optional.of(List.of("localhost")),
                    Duration.ofSeconds(100), Duration.ofSeconds(50), Duration.ofSeconds(40), Duration.ofSeconds(20),
                    Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ofSeconds(1));
            int port = KubeControlPlane.freePort();
            java.util.concurrent.CompletableFuture<dev.policyset.aps.operator.webhook.WebhookServer> served =
                    new java.util.concurrent.CompletableFuture<>();
            var handler = new dev.policyset.aps.operator.webhook.AdmissionReviewHandler(
                    new dev.policyset.aps.core.plan.SetAdmission(new dev.policyset.aps.core.plan.Planner(
                            new dev.policyset.aps.core.cel.KubernetesCelChecker())),
                    () -> dev.policyset.aps.core.model.ClusterView.offline(dev.policyset.aps.core.model.KubeVersion.NEWEST));
            java.util.concurrent.atomic.AtomicInteger reviews = new java.util.concurrent.atomic.AtomicInteger();
            follower.start(vertx, () -> false, source -> served.complete(dev.policyset.aps.operator.webhook.WebhookServer.start(
                    vertx, "0.0.0.0", port, source.load(vertx), Duration.ofSeconds(1), handler,
                    (outcome, latency) -> reviews.incrementAndGet()).toCompletionStage().toCompletableFuture().join()));
            try (var server = served.get(30, java.util.concurrent.TimeUnit.SECONDS)) {
                assertEquals(Pem.certificates(text(secret(), "tls.crt")).get(0).getSerialNumber(),
                        server.certificate().leaf().getSerialNumber(), "the follower serves the Secret's certificate");
                plane.admin().admissionRegistration().v1().validatingWebhookConfigurations().withName(CONFIGURATION)
                        .edit(v -> {
                            v.getWebhooks().get(0).getClientConfig().setUrl("https://localhost:" + port
                                    + dev.policyset.aps.operator.webhook.WebhookServer.PATH);
                            return v;
                        });
                // Until the API server calls the follower (it reloads the configuration within a second or two) ...
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300)).until(() -> {
                    AdmissionWebhookRealServerTest.post(AdmissionWebhookRealServerTest.unsafeSet(), true);
                    return reviews.get() > 0;
                });
                // ... then one write, answered by the follower alone. The follower counts a review after its answer
                // is sent, so the count can trail a response: read it once it has settled, and wait for the new one.
                java.util.concurrent.atomic.AtomicInteger last = new java.util.concurrent.atomic.AtomicInteger(-1);
                await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(300))
                        .until(() -> {
                            int now = reviews.get();
                            return now == last.getAndSet(now);
                        });
                int before = last.get();
                HttpResponse<String> refused = AdmissionWebhookRealServerTest.post(AdmissionWebhookRealServerTest.unsafeSet(), true);
                assertEquals(403, refused.statusCode(), refused.body());
                assertTrue(refused.body().contains("denied the request"), refused.body());
                await().atMost(Duration.ofSeconds(10)).untilAsserted(
                        () -> assertEquals(before + 1, reviews.get(), "the follower answered it"));
            } finally {
                follower.stop();
            }
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    private Secret secret() {
        return plane.admin().secrets().inNamespace(NS).withName(SECRET).get();
    }

    private String caBundle() {
        ValidatingWebhookConfiguration vwc = plane.admin().admissionRegistration().v1().validatingWebhookConfigurations()
                .withName(CONFIGURATION).get();
        String b = vwc.getWebhooks().get(0).getClientConfig().getCaBundle();
        return b == null ? "" : new String(Base64.getDecoder().decode(b), StandardCharsets.US_ASCII);
    }

    private static String text(Secret s, String key) {
        return new String(Base64.getDecoder().decode(s.getData().get(key)), StandardCharsets.US_ASCII);
    }
}

package dev.policyset.aps.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.policyset.aps.core.model.ClusterView;
import dev.policyset.aps.operator.webhook.ReviewObserver;
import dev.policyset.aps.operator.webhook.TestCertificates;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import dev.policyset.aps.operator.webhook.WebhookServer;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The webhook's start-up decision: disabled (and the operator unaffected) without a certificate or when switched
 * off; serving from {@code aps.webhook.cert-dir} when one is there, admitting with a warning while the operator's
 * caches are not there to judge against.
 */
class AdmissionWebhookTest {
    private static final Supplier<ClusterView> NOT_RUNNING = () -> {
        throw new IllegalStateException("the operator's controller is not running yet");
    };

    @TempDir
    Path dir;
    private final Vertx vertx = Vertx.vertx();
    private AdmissionWebhook webhook;

    @AfterEach
    void stop() {
        if (webhook != null) {
            webhook.onStop(null);
        }
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void withoutACertificateTheWebhookIsDisabled() {
        webhook = new AdmissionWebhook(true, 0, Optional.of(dir.toString()), Duration.ofSeconds(10), AdmissionWebhook.MOUNTED);
        webhook.start(vertx, NOT_RUNNING, ReviewObserver.NONE);
        assertEquals(Optional.empty(), webhook.port());
        assertEquals(dir.resolve("tls.crt"), webhook.locations().get(0).get(0));
    }

    @Test
    void switchedOffItDoesNotStartEvenWithACertificate() throws Exception {
        writeCertificate();
        webhook = new AdmissionWebhook(false, 0, Optional.of(dir.toString()), Duration.ofSeconds(10), AdmissionWebhook.MOUNTED);
        webhook.start(vertx, NOT_RUNNING, ReviewObserver.NONE);
        assertEquals(Optional.empty(), webhook.port());
    }

    @Test
    void theDefaultPlacesAreCertManagersThenOlms() {
        webhook = new AdmissionWebhook(true, 0, Optional.empty(), Duration.ofSeconds(10), AdmissionWebhook.MOUNTED);
        assertEquals("[[/tmp/k8s-webhook-server/serving-certs/tls.crt, /tmp/k8s-webhook-server/serving-certs/tls.key], "
                + "[/apiserver.local.config/certificates/apiserver.crt, /apiserver.local.config/certificates/apiserver.key]]",
                webhook.locations().toString());
    }

    @Test
    void withACertificateItServesAndAdmitsWhatItCannotYetJudge() throws Exception {
        writeCertificate();
        webhook = new AdmissionWebhook(true, 0, Optional.of(dir.toString()), Duration.ofSeconds(10), AdmissionWebhook.MOUNTED);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        webhook.start(vertx, NOT_RUNNING, new OperatorMetrics(registry)::webhookReviewed);
        int port = webhook.port().orElseThrow();
        byte[] review = Files.readAllBytes(Path.of("src/test/resources/golden/webhook/create-unsafe-set-denied/in-review.json"));
        HttpResponse<String> response = insecureClient().send(HttpRequest.newBuilder(
                        URI.create("https://localhost:" + port + WebhookServer.PATH)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(review)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        JsonNode answer = new ObjectMapper().readTree(response.body()).path("response");
        assertTrue(answer.path("allowed").asBoolean(), response.body());
        assertTrue(answer.path("warnings").get(0).asText().startsWith("the operator's webhook could not judge this set"));
        // The server counts a review after its answer is sent, so the count can trail the response by a moment.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertEquals(1.0, registry.get("aps.webhook.reviews").tag("outcome", "warned").counter().count(),
                    "admitted with a warning is counted as warned");
            assertEquals(1, registry.get("aps.webhook.latency").timer().count());
        });
    }

    private void writeCertificate() throws Exception {
        TestCertificates.generate(dir.resolve("keys"), "webhook", "EC").writeTo(dir, false);
    }

    /** The certificate is the test's own; this test is about start-up, WebhookServerTest about trust. */
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

    @Test
    void theWarmUpSetIsJudgedAndAdmittedSoItBuildsWhatAReviewNeeds() throws Exception {
        var decision = AdmissionWebhook.judgeWarmUpSet(new dev.policyset.aps.core.plan.SetAdmission(
                new dev.policyset.aps.core.plan.Planner(new dev.policyset.aps.core.cel.KubernetesCelChecker())));
        org.junit.jupiter.api.Assertions.assertTrue(decision.judged());
        org.junit.jupiter.api.Assertions.assertTrue(decision.allowed(), decision.denying().toString());
    }
}

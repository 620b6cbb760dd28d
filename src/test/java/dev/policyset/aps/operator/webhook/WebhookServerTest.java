package dev.policyset.aps.operator.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.policyset.aps.core.cel.KubernetesCelChecker;
import dev.policyset.aps.core.model.ClusterView;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.plan.Planner;
import dev.policyset.aps.core.plan.SetAdmission;
import dev.policyset.aps.operator.OperatorMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HTTPS server with certificates made in the test: the recorded reviews over TLS, HTTP-level refusals, and
 * certificate rotation as the kubelet performs it for a Secret volume (a new timestamped directory, then an atomic
 * swap of the {@code ..data} symlink that {@code tls.crt} and {@code tls.key} point through), picked up without a
 * restart; a half-rotated pair (new certificate, old key) is not served.
 */
class WebhookServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration RELOAD = Duration.ofMillis(100);

    @TempDir
    static Path work;
    static Vertx vertx;
    static TestCertificates.Pair first;
    static TestCertificates.Pair second;
    static TestCertificates.Pair other;
    static HttpClient client;
    static AdmissionReviewHandler handler;

    @BeforeAll
    static void setUp() throws Exception {
        vertx = Vertx.vertx();
        first = TestCertificates.generate(work.resolve("keys"), "webhook-first", "EC");
        second = TestCertificates.generate(work.resolve("keys"), "webhook-second", "RSA");
        other = TestCertificates.generate(work.resolve("keys"), "webhook-other", "EC");
        client = HttpClient.newBuilder().sslContext(trusting(first.certificate(), second.certificate()))
                .connectTimeout(Duration.ofSeconds(10)).build();
        handler = new AdmissionReviewHandler(new SetAdmission(new Planner(new KubernetesCelChecker())),
                () -> ClusterView.of(KubeVersion.NEWEST, Optional.of("v1beta1"), List.of()));
    }

    @AfterAll
    static void tearDown() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void answersRecordedReviewsOverTlsAndRefusesWhatIsNotAReview() throws Exception {
        Path dir = work.resolve("plain");
        first.writeTo(dir, false);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        OperatorMetrics metrics = new OperatorMetrics(registry);
        try (WebhookServer server = start(dir, metrics::webhookReviewed)) {
            for (String name : List.of("create-unsafe-set-denied", "create-safe-set-allowed", "malformed-not-json")) {
                Path golden = AdmissionReviewGoldenTest.CASES.resolve(name);
                HttpResponse<String> response = post(server, WebhookServer.PATH, "application/json",
                        Files.readAllBytes(golden.resolve("in-review.json")));
                JsonNode expected = JSON.readTree(golden.resolve("out-reply.json").toFile());
                assertEquals(expected.path("status").asInt(), response.statusCode(), name);
                assertEquals(expected.path("body"), JSON.readTree(response.body()), name);
                assertEquals("application/json", response.headers().firstValue("content-type").orElse(""), name);
            }
            byte[] review = Files.readAllBytes(AdmissionReviewGoldenTest.CASES.resolve("create-safe-set-allowed/in-review.json"));
            HttpResponse<String> wrongType = post(server, WebhookServer.PATH, "text/plain", review);
            assertEquals(400, wrongType.statusCode());
            assertEquals("malformed AdmissionReview: Content-Type is text/plain; send application/json",
                    JSON.readTree(wrongType.body()).path("message").asText());
            assertEquals(404, post(server, "/other", "application/json", review).statusCode());
            HttpResponse<String> get = client.send(HttpRequest.newBuilder(uri(server, WebhookServer.PATH)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(405, get.statusCode());
            assertEquals("POST", get.headers().firstValue("allow").orElse(""));
            HttpResponse<String> huge = post(server, WebhookServer.PATH, "application/json",
                    new byte[WebhookServer.MAX_BODY_BYTES + 1]);
            assertEquals(413, huge.statusCode());
        }
        // Denied, allowed, not JSON, text/plain and too large were reviews; the wrong path and the GET were not.
        assertEquals(1.0, reviews(registry, "denied"));
        assertEquals(1.0, reviews(registry, "allowed"));
        assertEquals(3.0, reviews(registry, "malformed"));
        assertEquals(0.0, reviews(registry, "warned"));
        assertEquals(0.0, reviews(registry, "error"));
        assertEquals(5, registry.get("aps.webhook.latency").timer().count());
        assertTrue(registry.get("aps.webhook.latency").timer().totalTime(java.util.concurrent.TimeUnit.NANOSECONDS) > 0);
    }

    private static double reviews(SimpleMeterRegistry registry, String outcome) {
        return registry.get("aps.webhook.reviews").tag("outcome", outcome).counter().count();
    }

    @Test
    void servesCertManagersDefaultPkcs1RsaKey() throws Exception {
        Path dir = work.resolve("pkcs1");
        second.writeTo(dir, true);
        assertTrue(Files.readString(dir.resolve("tls.key")).startsWith("-----BEGIN RSA PRIVATE KEY-----"));
        try (WebhookServer server = start(dir)) {
            assertEquals(second.certificate().getSerialNumber(), servedSerial(server));
        }
    }

    @Test
    void picksUpARotatedCertificateWithoutRestartAndNeverAHalfRotatedOne() throws Exception {
        // The kubelet's layout for a Secret volume (AtomicWriter): tls.crt -> ..data/tls.crt, ..data -> ..<timestamp>.
        Path volume = work.resolve("secret-volume");
        Files.createDirectories(volume);
        first.writeTo(volume.resolve("..2026_12_01_18_00_00.1"), false);
        Files.createSymbolicLink(volume.resolve("..data"), Path.of("..2026_12_01_18_00_00.1"));
        Files.createSymbolicLink(volume.resolve("tls.crt"), Path.of("..data/tls.crt"));
        Files.createSymbolicLink(volume.resolve("tls.key"), Path.of("..data/tls.key"));

        try (WebhookServer server = start(volume)) {
            assertEquals(first.certificate().getSerialNumber(), servedSerial(server));

            // Half a rotation: a new certificate with the old key. It must not be served.
            Path half = volume.resolve("..2026_12_01_18_10_00.2");
            Files.createDirectories(half);
            Files.writeString(half.resolve("tls.crt"), other.certPem());
            Files.writeString(half.resolve("tls.key"), first.keyPem());
            swap(volume, half);
            Thread.sleep(RELOAD.toMillis() * 5);
            assertEquals(first.certificate().getSerialNumber(), servedSerial(server), "a mismatched pair is not served");
            assertEquals(first.certificate().getSerialNumber(), server.certificate().leaf().getSerialNumber());

            // The whole rotation (to an RSA key in PKCS#1, as cert-manager writes it): served on the next handshake,
            // same server, same port.
            int port = server.port();
            Path whole = volume.resolve("..2026_12_01_18_20_00.3");
            second.writeTo(whole, true);
            swap(volume, whole);
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                    .until(() -> second.certificate().getSerialNumber().equals(servedSerial(server)));
            assertEquals(port, server.port());
            HttpResponse<String> response = post(server, WebhookServer.PATH, "application/json",
                    Files.readAllBytes(AdmissionReviewGoldenTest.CASES.resolve("create-safe-set-allowed/in-review.json")));
            assertEquals(200, response.statusCode());
            assertTrue(JSON.readTree(response.body()).path("response").path("allowed").asBoolean());
        }
    }

    @Test
    void aKeyThatIsNotTheCertificatesIsRefusedAtStartWithAClearMessage() throws Exception {
        Path dir = work.resolve("mismatch");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("tls.crt"), first.certPem());
        Files.writeString(dir.resolve("tls.key"), other.keyPem()); // an EC key, of another certificate
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ServingCertificate.read(dir.resolve("tls.crt"), dir.resolve("tls.key"), vertx));
        assertEquals(dir.resolve("tls.key") + " is not the key of the certificate in " + dir.resolve("tls.crt")
                + " (a rotation in progress, or a wrong Secret)", e.getMessage());
        Files.writeString(dir.resolve("tls.key"), second.keyPem()); // an RSA key beside an EC certificate
        e = assertThrows(IllegalArgumentException.class,
                () -> ServingCertificate.read(dir.resolve("tls.crt"), dir.resolve("tls.key"), vertx));
        assertEquals("cannot use " + dir.resolve("tls.crt") + " and " + dir.resolve("tls.key") + " as a PEM certificate "
                + "and key: private key algorithm does not match algorithm of public key in end entity certificate "
                + "(at index 0)", e.getMessage());
        Files.writeString(dir.resolve("tls.key"), "not a key\n");
        e = assertThrows(IllegalArgumentException.class,
                () -> ServingCertificate.read(dir.resolve("tls.crt"), dir.resolve("tls.key"), vertx));
        assertTrue(e.getMessage().startsWith("cannot use " + dir.resolve("tls.crt") + " and " + dir.resolve("tls.key")
                + " as a PEM certificate and key: "), e.getMessage());
        assertFalse(ServingCertificate.locate(List.of(List.of(work.resolve("absent/tls.crt"), work.resolve("absent/tls.key"))))
                .isPresent());
    }

    private static WebhookServer start(Path dir) {
        return start(dir, ReviewObserver.NONE);
    }

    private static WebhookServer start(Path dir, ReviewObserver observer) {
        ServingCertificate certificate = ServingCertificate.read(dir.resolve("tls.crt"), dir.resolve("tls.key"), vertx);
        return WebhookServer.start(vertx, "127.0.0.1", 0, certificate, RELOAD, handler, observer)
                .toCompletionStage().toCompletableFuture().join();
    }

    /** Points {@code ..data} at {@code target} in one rename, as the kubelet does. */
    private static void swap(Path volume, Path target) throws Exception {
        Path tmp = volume.resolve("..data_tmp");
        Files.deleteIfExists(tmp);
        Files.createSymbolicLink(tmp, target.getFileName());
        Files.move(tmp, volume.resolve("..data"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The serial number of the certificate a fresh TLS handshake is answered with. */
    private static BigInteger servedSerial(WebhookServer server) throws Exception {
        SSLContext context = trusting(first.certificate(), second.certificate());
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("localhost", server.port())) {
            socket.setSoTimeout(10_000);
            socket.startHandshake();
            return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
        }
    }

    private static HttpResponse<String> post(WebhookServer server, String path, String type, byte[] body) throws Exception {
        return client.send(HttpRequest.newBuilder(uri(server, path)).header("Content-Type", type)
                .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(WebhookServer server, String path) {
        return URI.create("https://localhost:" + server.port() + path);
    }

    private static SSLContext trusting(X509Certificate... certificates) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        for (int i = 0; i < certificates.length; i++) {
            trust.setCertificateEntry("c" + i, certificates[i]);
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }
}

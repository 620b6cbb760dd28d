package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Small admission webhooks for the {@code aps review} tests, well and badly behaved, one per path, over HTTP or
 * HTTPS (JDK {@code com.sun.net.httpserver}). Each records the last AdmissionReview it received.
 */
final class WebhookTestServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What a path answers: status, content type, body. */
    record Reply(int status, String contentType, byte[] body) {
        static Reply json(JsonNode body) {
            try {
                return new Reply(200, "application/json", JSON.writeValueAsBytes(body));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private final HttpServer server;
    private final Map<String, JsonNode> received = new ConcurrentHashMap<>();
    private final Map<String, String> queries = new ConcurrentHashMap<>();

    private WebhookTestServer(HttpServer server) {
        this.server = server;
        this.server.setExecutor(Executors.newCachedThreadPool());
        behaviours().forEach(this::on);
        server.start();
    }

    static WebhookTestServer http() throws IOException {
        return new WebhookTestServer(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0));
    }

    /** HTTPS with the key in {@code keystore} (PKCS12, password {@value TestCertificates#PASSWORD}). */
    static WebhookTestServer https(Path keystore) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            ks.load(in, TestCertificates.PASSWORD.toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, TestCertificates.PASSWORD.toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf.getKeyManagers(), null, null);
        HttpsServer s = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        s.setHttpsConfigurator(new HttpsConfigurator(context));
        return new WebhookTestServer(s);
    }

    /** {@code http(s)://127.0.0.1:PORT} */
    String base() {
        return (server instanceof HttpsServer ? "https" : "http") + "://127.0.0.1:" + server.getAddress().getPort();
    }

    int port() {
        return server.getAddress().getPort();
    }

    JsonNode received(String path) {
        return received.get(path);
    }

    String query(String path) {
        return queries.get(path);
    }

    void on(String path, Function<JsonNode, Reply> behaviour) {
        server.createContext(path, exchange -> handle(exchange, path, behaviour));
    }

    private void handle(HttpExchange exchange, String path, Function<JsonNode, Reply> behaviour) throws IOException {
        try (exchange) {
            byte[] in = exchange.getRequestBody().readAllBytes();
            JsonNode review = JSON.readTree(in);
            received.put(path, review);
            queries.put(path, String.valueOf(exchange.getRequestURI().getRawQuery()));
            Reply reply = behaviour.apply(review);
            if (reply.contentType() != null) {
                exchange.getResponseHeaders().add("Content-Type", reply.contentType());
            }
            exchange.sendResponseHeaders(reply.status(), reply.body().length == 0 ? -1 : reply.body().length);
            exchange.getResponseBody().write(reply.body());
        }
    }

    /** The AdmissionReview answer skeleton: same apiVersion and kind, uid echoed. */
    static ObjectNode answer(JsonNode review, boolean allowed) {
        ObjectNode out = JSON.createObjectNode();
        out.put("apiVersion", review.path("apiVersion").asText());
        out.put("kind", "AdmissionReview");
        out.putObject("response").put("uid", review.path("request").path("uid").asText()).put("allowed", allowed);
        return out;
    }

    static String base64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    private static Map<String, Function<JsonNode, Reply>> behaviours() {
        return Map.ofEntries(
                Map.entry("/allow", r -> Reply.json(answer(r, true))),
                Map.entry("/deny", r -> {
                    ObjectNode a = answer(r, false);
                    ((ObjectNode) a.get("response")).putObject("status").put("code", 403).put("reason", "Forbidden")
                            .put("message", "pods need a team label");
                    return Reply.json(a);
                }),
                Map.entry("/warn", r -> {
                    ObjectNode a = answer(r, true);
                    ObjectNode resp = (ObjectNode) a.get("response");
                    resp.putArray("warnings").add("spec.foo is deprecated").add("use spec.bar");
                    resp.putObject("auditAnnotations").put("checked-by", "warn-hook").put("bad/key", "dropped");
                    return Reply.json(a);
                }),
                Map.entry("/mutate", r -> {
                    ObjectNode a = answer(r, true);
                    ((ObjectNode) a.get("response")).put("patchType", "JSONPatch").put("patch",
                            base64("[{\"op\":\"add\",\"path\":\"/metadata/labels/team\",\"value\":\"a\"}]"));
                    return Reply.json(a);
                }),
                Map.entry("/wrong-uid", r -> {
                    ObjectNode a = answer(r, true);
                    ((ObjectNode) a.get("response")).put("uid", "not-the-uid");
                    return Reply.json(a);
                }),
                Map.entry("/no-response", r -> {
                    ObjectNode a = answer(r, true);
                    a.remove("response");
                    return Reply.json(a);
                }),
                Map.entry("/not-json", r -> new Reply(200, "text/plain", "OK".getBytes(StandardCharsets.UTF_8))),
                Map.entry("/patch-without-type", r -> {
                    ObjectNode a = answer(r, true);
                    ((ObjectNode) a.get("response")).put("patch", base64("[{\"op\":\"add\",\"path\":\"/metadata/labels/x\",\"value\":\"y\"}]"));
                    return Reply.json(a);
                }),
                Map.entry("/patch-does-not-apply", r -> {
                    ObjectNode a = answer(r, true);
                    ((ObjectNode) a.get("response")).put("patchType", "JSONPatch")
                            .put("patch", base64("[{\"op\":\"remove\",\"path\":\"/spec/missing\"}]"));
                    return Reply.json(a);
                }),
                Map.entry("/slow", r -> {
                    try {
                        TimeUnit.MILLISECONDS.sleep(2500);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return Reply.json(answer(r, true));
                }),
                Map.entry("/error", r -> new Reply(500, "text/plain", "boom".getBytes(StandardCharsets.UTF_8))),
                Map.entry("/wrong-version", r -> {
                    ObjectNode a = answer(r, true);
                    a.put("apiVersion", "admission.k8s.io/v1beta1");
                    return Reply.json(a);
                }));
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }

    /** Paths of the behaviours above, for tests that walk them. */
    static List<String> paths() {
        return List.copyOf(behaviours().keySet());
    }
}

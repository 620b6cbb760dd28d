package dev.policyset.aps.operator.webhook;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.KeyCertOptions;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The HTTPS endpoint the API server calls: {@code POST} {@value #PATH} with an AdmissionReview, answered by
 * {@link AdmissionReviewHandler} on a worker thread (judging compiles CEL: never on the event loop).
 *
 * <p>A server of its own beside Quarkus' HTTP server (which keeps health and metrics on plain HTTP 8080): it starts
 * only when a certificate is there, so dev mode and {@code make run} need none, and it serves a new certificate from
 * the next handshake on when the mounted files change ({@link RotatingKeyManager}) — the kubelet updates a Secret
 * volume by swapping a symlink, so cert-manager's renewals arrive without a restart. The files are compared by
 * content every {@code reloadPeriod}; a new pair is served only once it reads as a matching certificate and key.
 *
 * <p>HTTP/1.1 only (no ALPN, so no HTTP/2: the API server does not need it, and HTTP/2 rapid-reset is then
 * not a concern); TLS 1.2 and 1.3 (Vert.x' defaults).
 */
public final class WebhookServer implements AutoCloseable {
    public static final String PATH = "/validate-admissionpolicyset";
    /** Two stored objects (object and oldObject) at etcd's 1.5 MiB each, plus the review around them. */
    static final int MAX_BODY_BYTES = 4 * 1024 * 1024;

    private static final Logger LOG = Logger.getLogger(WebhookServer.class);

    private final Vertx vertx;
    private final HttpServer server;
    private final RotatingKeyManager keys;
    private final AtomicBoolean checking = new AtomicBoolean();
    private final AtomicReference<ServingCertificate> current;
    private final long timer;
    private volatile String lastProblem = "";

    private WebhookServer(Vertx vertx, HttpServer server, ServingCertificate certificate, RotatingKeyManager keys,
                          Duration reloadPeriod) {
        this.vertx = vertx;
        this.server = server;
        this.keys = keys;
        this.current = new AtomicReference<>(certificate);
        this.timer = vertx.setPeriodic(Math.max(1, reloadPeriod.toMillis()), id -> checkRotation());
    }

    /**
     * Listens on {@code host:port} (port 0: any free port, see {@link #port()}) with {@code certificate}, and reads
     * the certificate's files again every {@code reloadPeriod}; tells {@code observer} of every request to
     * {@value #PATH} answered (not of a wrong path or method: those are no reviews).
     */
    public static Future<WebhookServer> start(Vertx vertx, String host, int port, ServingCertificate certificate,
                                              Duration reloadPeriod, AdmissionReviewHandler handler,
                                              ReviewObserver observer) {
        RotatingKeyManager keys = new RotatingKeyManager(certificate.fingerprint(), certificate.keys());
        HttpServerOptions options = new HttpServerOptions()
                .setHost(host)
                .setPort(port)
                .setSsl(true)
                .setUseAlpn(false)
                .setKeyCertOptions(KeyCertOptions.wrap(keys));
        HttpServer server = vertx.createHttpServer(options);
        server.requestHandler(request -> serve(vertx, request, handler, observer));
        return server.listen().map(s -> new WebhookServer(vertx, s, certificate, keys, reloadPeriod));
    }

    /** The port it listens on. */
    public int port() {
        return server.actualPort();
    }

    /** The certificate it serves now. */
    public ServingCertificate certificate() {
        return current.get();
    }

    @Override
    public void close() {
        vertx.cancelTimer(timer);
        server.close().toCompletionStage().toCompletableFuture().join();
    }

    private static void serve(Vertx vertx, HttpServerRequest request, AdmissionReviewHandler handler,
                              ReviewObserver observer) {
        long arrived = System.nanoTime();
        if (!PATH.equals(request.path())) {
            request.response().setStatusCode(404).end();
            return;
        }
        if (request.method() != HttpMethod.POST) {
            request.response().setStatusCode(405).putHeader(HttpHeaders.ALLOW, "POST").end();
            return;
        }
        String type = request.getHeader(HttpHeaders.CONTENT_TYPE);
        if (type != null && !type.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
            reply(request, AdmissionReviewHandler.badRequest("Content-Type is " + type + "; send application/json"),
                    observer, arrived);
            return;
        }
        Buffer body = Buffer.buffer();
        long[] received = {0};
        request.handler(chunk -> {
            received[0] += chunk.length();
            if (received[0] <= MAX_BODY_BYTES) {
                body.appendBuffer(chunk);
                return;
            }
            // Answer at once and read the rest away, so the client sees the 413 rather than a reset connection;
            // a client that keeps sending far beyond the limit is cut off.
            if (!request.response().ended()) {
                reply(request, AdmissionReviewHandler.status(413, "RequestEntityTooLarge",
                        "the request body is larger than " + MAX_BODY_BYTES + " bytes"), observer, arrived);
            }
            if (received[0] > 4L * MAX_BODY_BYTES) {
                request.connection().close();
            }
        });
        request.endHandler(done -> {
            if (request.response().ended()) {
                return;
            }
            vertx.executeBlocking(() -> handler.handle(body.getBytes()), false).onComplete(result -> {
                if (result.succeeded()) {
                    reply(request, result.result(), observer, arrived);
                } else {
                    // The handler catches what judging throws; this is a bug, and still no stack trace to the caller.
                    LOG.error("Webhook request failed", result.cause());
                    request.response().setStatusCode(500).end("internal error; see the operator's log");
                    observe(observer, ReviewOutcome.ERROR, arrived);
                }
            });
        });
    }

    private static void reply(HttpServerRequest request, AdmissionReviewHandler.Reply reply, ReviewObserver observer,
                              long arrived) {
        request.response().setStatusCode(reply.status())
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(reply.body());
        observe(observer, reply.outcome(), arrived);
    }

    /** A failing observer (metrics) must not fail the answer, which is already sent. */
    private static void observe(ReviewObserver observer, ReviewOutcome outcome, long arrived) {
        try {
            observer.reviewed(outcome, Duration.ofNanos(System.nanoTime() - arrived));
        } catch (RuntimeException e) {
            LOG.warn("Webhook metrics not recorded", e);
        }
    }

    /** Reads the files off the event loop; serves a changed, complete pair; keeps the old one otherwise. */
    private void checkRotation() {
        if (!checking.compareAndSet(false, true)) {
            return; // the previous check is still reading
        }
        ServingCertificate serving = current.get();
        vertx.executeBlocking(() -> {
            String now;
            try {
                now = serving.source().fingerprint();
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read " + serving.source().describe() + ": " + e.getMessage(), e);
            }
            return now.equals(serving.fingerprint()) ? null : serving.source().load(vertx);
        }, false).onComplete(result -> {
            checking.set(false);
            if (result.failed()) {
                String problem = String.valueOf(result.cause().getMessage());
                if (!problem.equals(lastProblem)) {
                    LOG.warnf("Webhook certificate not reloaded, still serving the previous one: %s", problem);
                    lastProblem = problem;
                }
                return;
            }
            ServingCertificate next = result.result();
            if (next != null) {
                keys.use(next.fingerprint(), next.keys());
                current.set(next);
                lastProblem = "";
                LOG.infof("Webhook certificate reloaded: %s", next.describe());
            }
        });
    }
}

package dev.policyset.aps.operator.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import io.fabric8.mockwebserver.http.ByteString;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The test extension of the fabric8 CRUD mock server (DEPENDENCIES.md: the mock implements neither
 * server-side apply nor {@code dryRun}). It wraps the server's own dispatcher and:
 *
 * <ul>
 *   <li>applies JSON merge patches per RFC 7386 (the CRUD mock appends to lists and stores {@code null}
 *       instead of removing a key), as a GET, a merge and a PUT with the read resourceVersion;
 *   <li>accepts an apply patch ({@code application/apply-patch+yaml}) as a JSON merge patch on an existing
 *       object, or as a create when the object does not exist. This approximates SSA: it does not model
 *       field ownership (managedFields, conflicts, removing fields a manager stopped applying);
 *   <li>honours {@code dryRun=All} on every write: it answers with the would-be object and stores nothing;
 *   <li>runs an optional {@link #admission} hook on every write, dry run or not, the way the API server's
 *       admission chain and validation run for both (a test uses it to reject an object);
 *   <li>can fail the next writes with an HTTP status, with a {@code Retry-After} header if asked (fault tests), and
 *       keeps the failed requests ({@link #injected()}) so a test can show the faults happened;
 *   <li>can end the open watches: closed (as when an API server restarts or a load balancer drops the connection) or
 *       expired with an {@code ERROR} event carrying a 410 {@code Status} (as the API server does when the watch's
 *       resourceVersion is too old), and
 *   <li>logs every request with the time it arrived, so tests count the requests a reconcile issues.
 * </ul>
 * Requests that need none of this go to the wrapped dispatcher unchanged (expectations first, then CRUD).
 */
public final class ApplyAwareDispatcher extends Dispatcher {
    public static final String APPLY_PATCH = "application/apply-patch+yaml";
    private static final String DISCOVERY = "/apis/admissionregistration.k8s.io/";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final YAMLMapper YAML = new YAMLMapper();

    /** One logged request; {@code nanos} is {@link System#nanoTime()} on arrival. */
    public record Request(String method, String path, String query, String contentType, long nanos,
                          java.util.concurrent.atomic.AtomicInteger answered, String body) {
        /** The HTTP status the request was answered with (0 while it is being dispatched). */
        public int code() {
            return answered.get();
        }

        /** A write the server accepted (a conflict or an injected failure is a request, not a write). */
        public boolean isAcceptedWrite() {
            return isWrite() && code() > 0 && code() < 400;
        }

        public boolean isWrite() {
            return !method.equals("GET") && !method.equals("HEAD") && !method.equals("OPTIONS");
        }

        public boolean isDryRun() {
            return query.contains("dryRun=All");
        }

        public boolean isWatch() {
            return query.contains("watch=true");
        }

        @Override
        public String toString() {
            return method + " " + path + (query.isEmpty() ? "" : "?" + query);
        }
    }

    private final Dispatcher delegate;
    private final List<Request> log = new ArrayList<>();
    private volatile Function<Request, Optional<MockResponse>> admission = r -> Optional.empty();
    private final AtomicInteger failuresLeft = new AtomicInteger();
    private volatile int failureCode = 500;
    private volatile int retryAfterSeconds = -1;
    private volatile String failurePath = "";
    private final List<Request> injected = new ArrayList<>();
    private final List<WebSocket> watches = new CopyOnWriteArrayList<>();
    /** The MutatingAdmissionPolicy version discovery lists ("none": not served); null: discovery not answered here. */
    private volatile String mutatingPolicyVersion;

    public ApplyAwareDispatcher(Dispatcher delegate) {
        this.delegate = delegate;
    }

    /** Runs on every write (dry run or not); a response rejects it. */
    public void admission(Function<Request, Optional<MockResponse>> admission) {
        this.admission = admission == null ? r -> Optional.empty() : admission;
    }

    /** The next {@code count} writes fail with {@code code} (e.g. 500, 409), before anything is stored. */
    public void failNextWrites(int count, int code) {
        failNextWrites(count, code, -1, "");
    }

    /**
     * The next {@code count} writes to a path containing {@code pathFragment} fail with {@code code}, with
     * {@code Retry-After: retryAfterSeconds} (none when negative). A fragment such as {@code /myset-} aims the faults at
     * the operator's requests for one set's objects, not at the test's own requests.
     */
    public void failNextWrites(int count, int code, int retryAfterSeconds, String pathFragment) {
        failureCode = code;
        this.retryAfterSeconds = retryAfterSeconds;
        failurePath = pathFragment;
        failuresLeft.set(count);
    }

    /** The writes that were failed on purpose, in order. */
    public synchronized List<Request> injected() {
        return List.copyOf(injected);
    }

    /** Closes every open watch whose path contains {@code pathFragment} (normal closure, code 1000). */
    public int closeWatches(String pathFragment) {
        return endWatches(pathFragment, null);
    }

    /**
     * Ends every open watch whose path contains {@code pathFragment} as the API server does when its resourceVersion
     * is too old: an {@code ERROR} event with a 410 Gone {@code Status}, then closure. The client must list again.
     */
    public int expireWatches(String pathFragment) {
        return endWatches(pathFragment, """
                {"type":"ERROR","object":{"apiVersion":"v1","kind":"Status","status":"Failure","code":410,"reason":"Expired",
                 "message":"too old resource version: 1 (2)"}}""".replace("\n", ""));
    }

    private int endWatches(String pathFragment, String lastEvent) {
        int ended = 0;
        for (WebSocket ws : watches) {
            if (ws.request().getPath().contains(pathFragment)) {
                if (lastEvent != null) {
                    ws.send(lastEvent);
                }
                ws.close(1000, "closed by the test");
                watches.remove(ws);
                ended++;
            }
        }
        return ended;
    }

    /**
     * Answers API discovery of admissionregistration.k8s.io from now on, with MutatingAdmissionPolicy served at
     * {@code version} ({@code none}: not served). Can change while the operator runs (a cluster upgrade).
     */
    public void serveMutatingPolicies(String version) {
        this.mutatingPolicyVersion = version;
    }

    public synchronized List<Request> requests() {
        return List.copyOf(log);
    }

    public synchronized int mark() {
        return log.size();
    }

    public synchronized List<Request> since(int mark) {
        return List.copyOf(log.subList(mark, log.size()));
    }

    public static MockResponse status(int code, String reason, String message) {
        ObjectNode status = JSON.createObjectNode();
        status.put("apiVersion", "v1").put("kind", "Status").put("status", "Failure")
                .put("code", code).put("reason", reason).put("message", message);
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json").setBody(status.toString());
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        String full = request.getPath();
        int q = full.indexOf('?');
        String path = q < 0 ? full : full.substring(0, q);
        String query = q < 0 ? "" : full.substring(q + 1);
        String contentType = Optional.ofNullable(request.getHeader("Content-Type")).orElse("");
        // Status writes keep their body: a test that counts them can say what changed between two.
        Request r = new Request(request.getMethod(), path, query, contentType, System.nanoTime(),
                new java.util.concurrent.atomic.AtomicInteger(), path.endsWith("/status") && request.getBody() != null
                ? new String(request.getBody().getBytes(), java.nio.charset.StandardCharsets.UTF_8) : null);
        synchronized (this) {
            log.add(r);
        }
        MockResponse response = answer(request, r, path);
        r.answered().set(response.code());
        return response;
    }

    private MockResponse answer(RecordedRequest request, Request r, String path) {
        String map = mutatingPolicyVersion;
        if (map != null && r.method().equals("GET") && path.startsWith(DISCOVERY)
                && path.indexOf('/', DISCOVERY.length()) < 0) {
            return ApsMockServer.discovery(path.substring(DISCOVERY.length()), map)
                    .map(list -> {
                        try {
                            return ok(200, JSON.readTree(io.fabric8.kubernetes.client.utils.Serialization.asJson(list)));
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    })
                    .orElseGet(() -> status(404, "NotFound", path + " not found"));
        }
        if (r.isWatch()) {
            return tracked(delegate.dispatch(request));
        }
        if (!r.isWrite()) {
            return delegate.dispatch(request);
        }
        if (path.contains(failurePath) && failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            synchronized (this) {
                injected.add(r);
            }
            MockResponse failure = status(failureCode, switch (failureCode) {
                case 409 -> "Conflict";
                case 429 -> "TooManyRequests";
                default -> "InternalError";
            }, "injected failure");
            return retryAfterSeconds < 0 ? failure : failure.setHeader("Retry-After", retryAfterSeconds);
        }
        Optional<MockResponse> rejected = admission.apply(r);
        if (rejected.isPresent()) {
            return rejected.get();
        }
        try {
            if (r.method().equals("PATCH") && r.contentType().startsWith(APPLY_PATCH)) {
                return apply(request, r);
            }
            if (r.method().equals("PATCH") && r.contentType().startsWith("application/merge-patch+json") && !r.isDryRun()) {
                Optional<JsonNode> existing = get(r.path());
                if (existing.isPresent()) {
                    return mergeAndPut(request, r, existing.get(), JSON.readTree(request.getBody().readUtf8()));
                }
            }
            if (r.isDryRun()) {
                return dryRun(request, r);
            }
        } catch (Exception e) {
            return status(500, "InternalError", "test dispatcher: " + e);
        }
        return delegate.dispatch(request);
    }

    private MockResponse apply(RecordedRequest request, Request r) throws Exception {
        JsonNode body = YAML.readTree(request.getBody().readUtf8());
        String bodyJson = JSON.writeValueAsString(body);
        Optional<JsonNode> existing = get(r.path());
        if (r.isDryRun()) {
            if (existing.isPresent()) {
                return ok(200, mergePatch(existing.get().deepCopy(), body));
            }
            ObjectNode created = (ObjectNode) body.deepCopy();
            ((ObjectNode) created.with("metadata")).put("uid", UUID.randomUUID().toString());
            return ok(201, created);
        }
        if (existing.isPresent()) {
            return mergeAndPut(request, r, existing.get(), body);
        }
        String collection = r.path().substring(0, r.path().lastIndexOf('/'));
        return delegate.dispatch(forward(request, HttpMethod.POST, collection, "application/json", bodyJson));
    }

    private MockResponse mergeAndPut(RecordedRequest request, Request r, JsonNode existing, JsonNode patch) throws Exception {
        ObjectNode merged = (ObjectNode) mergePatch(existing.deepCopy(), patch);
        // An apply or merge patch carries no resourceVersion of its own: keep the one read, as the server does.
        ((ObjectNode) merged.with("metadata")).set("resourceVersion", existing.path("metadata").path("resourceVersion"));
        return delegate.dispatch(forward(request, HttpMethod.PUT, r.path(), "application/json", JSON.writeValueAsString(merged)));
    }

    private MockResponse dryRun(RecordedRequest request, Request r) throws Exception {
        Optional<JsonNode> existing = get(r.path());
        String text = request.getBody() == null ? "" : request.getBody().readUtf8();
        JsonNode body = text.isBlank() ? JSON.createObjectNode() : JSON.readTree(text);
        return switch (r.method()) {
            case "POST" -> ok(201, body);
            case "PUT" -> ok(200, body);
            case "PATCH" -> existing.map(e -> ok(200, r.contentType().contains("merge-patch") ? mergePatch(e.deepCopy(), body) : e))
                    .orElseGet(() -> status(404, "NotFound", r.path() + " not found"));
            case "DELETE" -> existing.map(e -> ok(200, e)).orElseGet(() -> status(404, "NotFound", r.path() + " not found"));
            default -> delegate.dispatch(request);
        };
    }

    private Optional<JsonNode> get(String path) throws Exception {
        MockResponse response = delegate.dispatch(forward(null, HttpMethod.GET, path, null, null));
        if (response.code() != 200 || response.getBody() == null) {
            return Optional.empty();
        }
        return Optional.of(JSON.readTree(response.getBody().readUtf8()));
    }

    private static RecordedRequest forward(RecordedRequest original, HttpMethod method, String path, String contentType, String body) {
        Headers.Builder headers = Headers.builder();
        if (original != null) {
            headers.setHeaders(original.getHeaders());
        }
        if (contentType != null) {
            headers.removeAll("Content-Type").removeAll("content-type").add("Content-Type", contentType);
        }
        Buffer buffer = new Buffer();
        if (body != null) {
            buffer.writeString(body, StandardCharsets.UTF_8);
        }
        return new RecordedRequest("HTTP/1.1", method, path, headers.build(), buffer);
    }

    /** RFC 7386 JSON merge patch. */
    static JsonNode mergePatch(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch;
        }
        ObjectNode result = target != null && target.isObject() ? (ObjectNode) target : JSON.createObjectNode();
        Iterator<Map.Entry<String, JsonNode>> fields = patch.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            if (f.getValue().isNull()) {
                result.remove(f.getKey());
            } else {
                result.set(f.getKey(), mergePatch(result.get(f.getKey()), f.getValue()));
            }
        }
        return result;
    }

    private static MockResponse ok(int code, JsonNode body) {
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json").setBody(body.toString());
    }

    /** Keeps the watch's websocket while it is open, so a test can end it. */
    private MockResponse tracked(MockResponse response) {
        WebSocketListener listener = response.getWebSocketListener();
        if (listener == null) {
            return response;
        }
        return response.withWebSocketUpgrade(new WebSocketListener() {
            @Override
            public void onBeforeAccept(WebSocket ws, Response r) {
                listener.onBeforeAccept(ws, r);
            }

            @Override
            public void onOpen(WebSocket ws, Response r) {
                watches.add(ws);
                listener.onOpen(ws, r);
            }

            @Override
            public void onMessage(WebSocket ws, String text) {
                listener.onMessage(ws, text);
            }

            @Override
            public void onMessage(WebSocket ws, ByteString bytes) {
                listener.onMessage(ws, bytes);
            }

            @Override
            public void onMessage(WebSocket ws, byte[] bytes) {
                listener.onMessage(ws, bytes);
            }

            @Override
            public void onClosing(WebSocket ws, int code, String reason) {
                listener.onClosing(ws, code, reason);
            }

            @Override
            public void onClosed(WebSocket ws, int code, String reason) {
                watches.remove(ws);
                listener.onClosed(ws, code, reason);
            }

            @Override
            public void onFailure(WebSocket ws, Throwable t, Response r) {
                watches.remove(ws);
                listener.onFailure(ws, t, r);
            }
        });
    }

    @Override
    public void shutdown() {
        delegate.shutdown();
    }
}

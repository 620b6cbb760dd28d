package dev.policyset.aps.operator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.impact.ExistingObjectSource;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The paged list's one injected fault, on the mock server (a real API server expires a continue token only after
 * etcd compacts its revision, about 5 minutes): a 410 ResourceExpired on a continue request, with the API server's
 * token for an inconsistent continuation in the Status, and without one. Pages of 2 pods out of pods p0..p5.
 */
class ExpiredContinueReconcilerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ExistingObjectSource.Resource PODS = new ExistingObjectSource.Resource("", "v1", "pods");

    private KubernetesMockServer server;
    private KubernetesClient client;
    /** The list requests in order, as "continue token" ("" for the first page). */
    private final List<String> requests = new ArrayList<>();

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
            server.destroy();
        }
    }

    @Test
    void anExpiredTokenWithTheServersNextTokenGoesOnAndSaysTheListIsInconsistent() {
        // c1 expires; the Status carries "fresh", which the server answers from the newest state
        serve(Map.of("", page(0, 2, "c1"), "c1", expired("fresh"), "fresh", page(2, 6, null)));
        ClusterObjectPages pages = pages(() -> false);
        assertEquals(names(0, 6), read(pages));
        assertEquals(List.of("", "c1", "fresh"), requests);
        assertEquals(2, pages.pages(), "the 410 answered no page");
        assertTrue(pages.inconsistent().startsWith("the list of v1/pods expired (410 ResourceExpired) after 2 object(s) "
                + "and went on from a newer state of the cluster"), pages.inconsistent());
    }

    @Test
    void anExpiredTokenWithoutOneListsTheKindAgainAndSkipsWhatWasRead() {
        // the second first-page request returns what the first did and more: p0, p1 must not be counted twice
        serve(Map.of("", page(0, 2, "c1"), "c1", expired(null), "c2", page(4, 6, null)),
                Map.of("", page(0, 4, "c2")));
        ClusterObjectPages pages = pages(() -> false);
        assertEquals(names(0, 6), read(pages));
        assertEquals(List.of("", "c1", "", "c2"), requests);
        assertTrue(pages.inconsistent().contains("without a token to go on with; it was listed again from the start"),
                pages.inconsistent());
        assertEquals(6, pages.objects());
    }

    @Test
    void aSecondExpiryFailsTheScanInsteadOfLooping() {
        serve(Map.of("", page(0, 2, "c1"), "c1", expired("fresh"), "fresh", page(2, 4, "c3"), "c3", expired("again")));
        ClusterObjectPages pages = pages(() -> false);
        ClusterObjectPages.ListExpired e = assertThrows(ClusterObjectPages.ListExpired.class, () -> read(pages));
        assertTrue(e.getMessage().startsWith("the list of v1/pods expired twice (410 ResourceExpired"), e.getMessage());
        assertEquals(List.of("", "c1", "fresh", "c3"), requests);
    }

    @Test
    void aConsistentListIsNotInconsistentAndAStoppedScanEndsBeforeItsNextRequest() {
        serve(Map.of("", page(0, 2, "c1"), "c1", page(2, 4, "c2"), "c2", page(4, 6, null)));
        ClusterObjectPages whole = pages(() -> false);
        assertEquals(names(0, 6), read(whole));
        assertNull(whole.inconsistent());

        requests.clear();
        boolean[] stop = {false};
        ClusterObjectPages stopped = pages(() -> stop[0]);
        List<String> seen = new ArrayList<>();
        assertThrows(CancellationException.class, () -> stopped.list(PODS, page -> {
            page.forEach(o -> seen.add(o.path("metadata").path("name").asText()));
            stop[0] = true; // e.g. the set's spec changed: abandon at the next page
            return true;
        }));
        assertEquals(names(0, 2), seen);
        assertEquals(List.of(""), requests);
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private ClusterObjectPages pages(java.util.function.BooleanSupplier stopped) {
        return new ClusterObjectPages(client, List.of(new GroupVersionKind("", "v1", "Pod")), 2, stopped, () -> {});
    }

    private static List<String> read(ClusterObjectPages pages) {
        List<String> names = new ArrayList<>();
        pages.list(PODS, page -> {
            page.forEach(o -> {
                assertEquals("v1", o.path("apiVersion").asText());
                assertEquals("Pod", o.path("kind").asText());
                names.add(o.path("metadata").path("name").asText());
            });
            return true;
        });
        return names;
    }

    private static List<String> names(int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add("p" + i);
        }
        return out;
    }

    /** Answers list requests by their continue token; {@code later} answers a token's second request. */
    @SafeVarargs
    private void serve(Map<String, MockResponse>... byRequest) {
        Map<String, Integer> asked = new HashMap<>();
        Dispatcher dispatcher = new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                String path = request.getPath();
                if (path.equals("/api/v1")) {
                    return json(200, JSON.valueToTree(new APIResourceListBuilder().withGroupVersion("v1").addNewResource()
                            .withName("pods").withKind("Pod").withNamespaced(true).withVerbs("list").endResource().build()));
                }
                if (!path.startsWith("/api/v1/pods")) {
                    return new MockResponse().setResponseCode(404);
                }
                Map<String, String> query = query(path);
                assertEquals("2", query.get("limit"), path);
                String token = query.getOrDefault("continue", "");
                synchronized (requests) {
                    requests.add(token);
                }
                int n = asked.merge(token, 1, Integer::sum);
                MockResponse r = byRequest[Math.min(n, byRequest.length) - 1].get(token);
                return r != null ? r : new MockResponse().setResponseCode(500);
            }
        };
        server = new KubernetesMockServer(new io.fabric8.mockwebserver.Context(), new MockWebServer(), new HashMap<>(),
                dispatcher, false);
        server.init();
        client = server.createClient();
    }

    private static Map<String, String> query(String path) {
        Map<String, String> out = new HashMap<>();
        int q = path.indexOf('?');
        if (q >= 0) {
            for (String pair : path.substring(q + 1).split("&")) {
                int eq = pair.indexOf('=');
                out.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    private static MockResponse page(int from, int to, String next) {
        ObjectNode list = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "PodList");
        ObjectNode meta = list.putObject("metadata").put("resourceVersion", "100");
        if (next != null) {
            meta.put("continue", next);
        }
        ArrayNode items = list.putArray("items");
        for (int i = from; i < to; i++) {
            items.addObject().putObject("metadata").put("name", "p" + i).put("namespace", "shop");
        }
        return json(200, list);
    }

    /** What the API server answers when etcd compacted the token's revision (storage/etcd3 handleCompactedErrorForPaging). */
    private static MockResponse expired(String next) {
        ObjectNode status = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Status").put("status", "Failure")
                .put("reason", "Expired").put("code", 410)
                .put("message", "The provided continue parameter is too old to display a consistent list result.");
        ObjectNode meta = status.putObject("metadata");
        if (next != null) {
            meta.put("continue", next);
        }
        return json(410, status);
    }

    private static MockResponse json(int code, com.fasterxml.jackson.databind.JsonNode body) {
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json").setBody(body.toString());
    }
}

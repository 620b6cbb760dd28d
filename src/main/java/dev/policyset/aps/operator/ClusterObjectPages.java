package dev.policyset.aps.operator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.evaluate.KindResources;
import dev.policyset.aps.core.impact.ExistingObjectSource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * The impact scan's objects as paged lists of the API server ({@code limit} = aps.impact.page-size, then
 * {@code continue}): one page is held at a time, nothing is cached between scans, and the ServiceAccount needs only
 * {@code list} on the scanned kinds.
 *
 * <p>An expired continue token (410 ResourceExpired: etcd compacted the revision the list started at, after about 5
 * minutes) is recovered once per kind: with the token the API server puts in the Status's {@code metadata.continue}
 * (it continues from the newest revision: an inconsistent list, so the scan says so), or, when there is none, by
 * listing the kind again from the start and skipping the objects already read (lists are in key order,
 * {@code namespace/name}, so "already read" is every key up to the last one). A second expiry of the same kind fails
 * the scan: never a loop.
 *
 * <p>Progress ({@link #pages()}, {@link #objects()}) is read by the scan's own thread between pages; {@code stopped}
 * is asked before each request, so an abandoned scan or a shutdown ends within one page.
 */
final class ClusterObjectPages implements ExistingObjectSource {
    private static final ObjectMapper JSON = Serialization.jsonMapper();

    private final KubernetesClient client;
    private final List<GroupVersionKind> kinds;
    private final int pageSize;
    private final BooleanSupplier stopped;
    private final Runnable afterPage;
    private int pages;
    private int objects;
    private long readingNanos;
    private final List<String> inconsistent = new ArrayList<>();

    /**
     * @param afterPage called on the scan's thread after each page has been handed over (progress reporting)
     */
    ClusterObjectPages(KubernetesClient client, List<GroupVersionKind> kinds, int pageSize, BooleanSupplier stopped,
                       Runnable afterPage) {
        this.client = client;
        this.kinds = List.copyOf(kinds);
        this.pageSize = pageSize;
        this.stopped = stopped;
        this.afterPage = afterPage;
    }

    @Override
    public List<Resource> resources() {
        return kinds.stream().map(k -> new Resource(k.getGroup(), k.getVersion(), KindResources.resourceOf(k.getKind())))
                .toList();
    }

    /** List requests answered so far. */
    int pages() {
        return pages;
    }

    /** Objects read so far. */
    int objects() {
        return objects;
    }

    /** Time spent waiting for pages and turning them into JSON trees (the rest of a scan is evaluation). */
    long readingMillis() {
        return readingNanos / 1_000_000;
    }

    /** How lists became inconsistent, one sentence per kind; null when none did. */
    String inconsistent() {
        return inconsistent.isEmpty() ? null : String.join("; ", inconsistent);
    }

    @Override
    public void list(Resource resource, Predicate<List<ObjectNode>> page) {
        GroupVersionKind gvk = gvk(resource);
        String token = null;
        String skipThrough = null;
        String lastKey = null;
        boolean recovered = false;
        while (true) {
            if (stopped.getAsBoolean() || Thread.currentThread().isInterrupted()) {
                throw new CancellationException("the scan was stopped");
            }
            GenericKubernetesResourceList list;
            long started = System.nanoTime();
            try {
                list = client.genericKubernetesResources(gvk.apiVersion(), gvk.getKind()).inAnyNamespace()
                        .list(new ListOptionsBuilder().withLimit((long) pageSize).withContinue(token).build());
            } catch (KubernetesClientException e) {
                if (e.getCode() != 410 || token == null) {
                    throw e;
                }
                if (recovered) {
                    throw new ListExpired("the list of " + resource + " expired twice (410 ResourceExpired: the "
                            + "API server compacted the revision it was read at) after " + objects + " object(s); the "
                            + "next scan lists it again; if this repeats, raise aps.impact.page-size (fewer, larger "
                            + "requests) or the API server's etcd compaction interval", e);
                }
                recovered = true;
                String next = e.getStatus() == null || e.getStatus().getMetadata() == null ? null
                        : e.getStatus().getMetadata().getContinue();
                if (next != null && !next.isEmpty()) {
                    token = next;
                    inconsistent.add("the list of " + resource + " expired (410 ResourceExpired) after " + objects
                            + " object(s) and went on from a newer state of the cluster with the continue token the "
                            + "API server gave");
                } else {
                    token = null;
                    skipThrough = lastKey;
                    inconsistent.add("the list of " + resource + " expired (410 ResourceExpired) after " + objects
                            + " object(s) without a token to go on with; it was listed again from the start, skipping "
                            + "the objects already read");
                }
                continue;
            }
            pages++;
            List<ObjectNode> items = new ArrayList<>(list.getItems().size());
            for (GenericKubernetesResource r : list.getItems()) {
                String key = key(r);
                if (skipThrough != null && key.compareTo(skipThrough) <= 0) {
                    continue;
                }
                lastKey = key;
                ObjectNode o = (ObjectNode) JSON.valueToTree(r);
                o.put("apiVersion", gvk.apiVersion());
                o.put("kind", gvk.getKind());
                items.add(o);
            }
            objects += items.size();
            readingNanos += System.nanoTime() - started;
            boolean more = items.isEmpty() || page.test(items);
            afterPage.run();
            token = list.getMetadata() == null ? null : list.getMetadata().getContinue();
            if (!more || token == null || token.isEmpty()) {
                return;
            }
        }
    }

    /** The object's place in the list: its storage key after the resource's prefix ({@code namespace/name}). */
    private static String key(GenericKubernetesResource r) {
        String ns = r.getMetadata().getNamespace();
        return (ns == null || ns.isEmpty() ? "" : ns + "/") + r.getMetadata().getName();
    }

    private GroupVersionKind gvk(Resource resource) {
        return kinds.stream().filter(k -> k.getGroup().equals(resource.group()) && k.getVersion().equals(resource.version())
                && KindResources.resourceOf(k.getKind()).equals(resource.resource())).findFirst().orElseThrow();
    }

    /** A kind's list expired twice in one scan. */
    static final class ListExpired extends RuntimeException {
        ListExpired(String message, Throwable cause) {
            super(message, cause);
        }
    }
}

package dev.policyset.aps.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.policyset.aps.core.schema.BuiltinSchemas;
import dev.policyset.aps.core.schema.GroupVersionKind;
import dev.policyset.aps.core.schema.OpenApiDocuments;
import dev.policyset.aps.core.schema.ResourceType;
import dev.policyset.aps.core.schema.Schema;
import dev.policyset.aps.core.schema.SchemaSource;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Gather: the schemas the cluster itself publishes, for type checking (APS602, APS603) against the cluster's exact
 * version and its CRDs. The index {@code GET /openapi/v3} (group version → {@code serverRelativeURL} with a content
 * hash) is read again when older than {@code aps.discovery.refresh}, as discovery is; a group version's document
 * ({@code /openapi/v3/apis/<group>/<version>?hash=...}) is fetched when a policy first matches one of its kinds and
 * kept while its hash stays the same. Kinds are resolved from discovery ({@code /apis/<group>/<version>}), cached the
 * same way. What cannot be read (no {@code /openapi/v3}, an error) falls back to the built-in model.
 *
 * <p>{@link #current()} answers an immutable-by-identity snapshot: a new index gives a new snapshot, so core's
 * per-source caches never mix two generations of the cluster's schemas.
 */
@ApplicationScoped
public class ClusterSchemas {
    private static final Logger LOG = Logger.getLogger(ClusterSchemas.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubernetesClient client;
    private final Duration refresh;
    private volatile Snapshot snapshot;
    private volatile long readAt;
    /** Documents by their server-relative URL (which carries the content hash): stable across refreshes. */
    private final Map<String, Optional<OpenApiDocuments>> documents = new ConcurrentHashMap<>();

    public ClusterSchemas(KubernetesClient client,
                          @ConfigProperty(name = "aps.discovery.refresh", defaultValue = "PT5M") Duration refresh) {
        this.client = client;
        this.refresh = refresh;
    }

    /** The schemas as of the last index read (read again when it is older than the refresh interval). */
    public SchemaSource current() {
        Snapshot s = snapshot;
        if (s == null || System.nanoTime() - readAt > refresh.toNanos()) {
            synchronized (this) {
                if (snapshot == null || snapshot == s) {
                    Map<String, String> index = readIndex();
                    snapshot = s != null && s.index.equals(index) ? s : new Snapshot(index);
                    documents.keySet().retainAll(index.values()); // documents whose hash changed are gone
                    readAt = System.nanoTime();
                }
                s = snapshot;
            }
        }
        return s;
    }

    /** {@code paths} of {@code /openapi/v3}: {@code apis/apps/v1} → {@code /openapi/v3/apis/apps/v1?hash=...}. */
    private Map<String, String> readIndex() {
        Map<String, String> index = new HashMap<>();
        try {
            String body = client.raw("/openapi/v3");
            if (body == null) {
                return index;
            }
            JSON.readTree(body).path("paths").fields().forEachRemaining(e -> {
                String url = e.getValue().path("serverRelativeURL").asText("");
                if (!url.isEmpty()) {
                    index.put(e.getKey(), url);
                }
            });
        } catch (Exception e) {
            LOG.debugf(e, "Could not read /openapi/v3; type checking uses the built-in schemas");
        }
        return index;
    }

    private Optional<OpenApiDocuments> document(String url, List<ResourceType> discovered) {
        return documents.computeIfAbsent(url, u -> {
            try {
                String body = client.raw(u);
                return body == null ? Optional.empty()
                        : Optional.of(OpenApiDocuments.of(List.of(JSON.readTree(body)), discovered));
            } catch (Exception e) {
                LOG.debugf(e, "Could not read %s", u);
                return Optional.empty();
            }
        });
    }

    private List<ResourceType> discover(String group, String version) {
        List<ResourceType> out = new ArrayList<>();
        try {
            APIResourceList list = client.getApiResources(group.isEmpty() ? version : group + "/" + version);
            if (list != null && list.getResources() != null) {
                for (APIResource r : list.getResources()) {
                    if (r.getName() != null && !r.getName().contains("/") && r.getKind() != null) {
                        out.add(new ResourceType(new GroupVersionKind(group, version, r.getKind()), r.getName(),
                                Boolean.TRUE.equals(r.getNamespaced())));
                    }
                }
            }
        } catch (RuntimeException e) {
            LOG.debugf(e, "Could not discover %s/%s", group, version);
        }
        return out;
    }

    private static String path(String group, String version) {
        return group.isEmpty() ? "api/" + version : "apis/" + group + "/" + version;
    }

    /** The cluster's schemas for one index; the built-in model for what the cluster does not publish. */
    private final class Snapshot implements SchemaSource {
        private final Map<String, String> index;
        private final Map<String, List<ResourceType>> resources = new ConcurrentHashMap<>();

        Snapshot(Map<String, String> index) {
            this.index = Map.copyOf(index);
        }

        private List<ResourceType> resourcesOf(String group, String version) {
            return resources.computeIfAbsent(path(group, version), p -> discover(group, version));
        }

        private Optional<OpenApiDocuments> documentOf(String group, String version) {
            String url = index.get(path(group, version));
            return url == null ? Optional.empty() : document(url, resourcesOf(group, version));
        }

        @Override
        public Optional<Schema> schema(GroupVersionKind gvk) {
            Optional<Schema> cluster = documentOf(gvk.group(), gvk.version()).flatMap(d -> d.schema(gvk));
            return cluster.isPresent() ? cluster : BuiltinSchemas.instance().schema(gvk);
        }

        @Override
        public Optional<ResourceType> resource(String group, String version, String plural) {
            if (index.containsKey(path(group, version))) {
                Optional<ResourceType> found = resourcesOf(group, version).stream()
                        .filter(r -> r.plural().equals(plural)).findFirst();
                if (found.isPresent()) {
                    return found;
                }
            }
            return BuiltinSchemas.instance().resource(group, version, plural);
        }

        /**
         * For wildcards: the built-in kinds plus every kind of the group versions the cluster publishes (discovered on
         * first use, then cached with this snapshot).
         */
        @Override
        public List<ResourceType> resources() {
            Map<GroupVersionKind, ResourceType> all = new java.util.LinkedHashMap<>();
            for (String p : index.keySet()) {
                String[] parts = p.split("/");
                if (parts.length == 2 && parts[0].equals("api")) {
                    resourcesOf("", parts[1]).forEach(r -> all.putIfAbsent(r.gvk(), r));
                } else if (parts.length == 3 && parts[0].equals("apis")) {
                    resourcesOf(parts[1], parts[2]).forEach(r -> all.putIfAbsent(r.gvk(), r));
                }
            }
            BuiltinSchemas.instance().resources().forEach(r -> all.putIfAbsent(r.gvk(), r));
            return new ArrayList<>(all.values());
        }
    }
}

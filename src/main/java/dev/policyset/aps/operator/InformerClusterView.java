package dev.policyset.aps.operator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.ClusterView;
import dev.policyset.aps.core.schema.BuiltinSchemas;
import dev.policyset.aps.core.schema.SchemaSource;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.model.LiveObject;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.processing.event.EventSourceRetriever;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Gather: the cluster as core's {@link ClusterView}, answered from the informer caches (one informer per served
 * kind, over every object of that kind, labelled or not, so ownership and APS401 need no request). Objects are
 * converted to JSON only when the planner asks for them.
 */
final class InformerClusterView implements ClusterView {
    private static final ObjectMapper JSON = Serialization.jsonMapper();
    /** The informers' index of objects by the set label's value (registered where the informers are built). */
    static final String BY_SET = "aps-set";

    private final EventSourceRetriever<AdmissionPolicySet> sources;
    private final ManagedKinds kinds;
    private final ClusterDiscovery.Snapshot discovery;

    private final SchemaSource schemas;

    InformerClusterView(EventSourceRetriever<AdmissionPolicySet> sources, ManagedKinds kinds, ClusterDiscovery.Snapshot discovery) {
        this(sources, kinds, discovery, BuiltinSchemas.instance());
    }

    /** @param schemas the cluster's schemas ({@link ClusterSchemas#current()}) */
    InformerClusterView(EventSourceRetriever<AdmissionPolicySet> sources, ManagedKinds kinds, ClusterDiscovery.Snapshot discovery,
                        SchemaSource schemas) {
        this.sources = sources;
        this.kinds = kinds;
        this.discovery = discovery;
        this.schemas = schemas;
    }

    @Override
    public SchemaSource schemas() {
        return schemas;
    }

    @Override
    public KubeVersion kubeVersion() {
        return discovery.kubeVersion();
    }

    @Override
    public Optional<String> mutatingPolicyVersion() {
        return kinds.mutatingPolicyVersion();
    }

    @Override
    public Optional<LiveObject> find(AdmissionKind kind, String name) {
        return cached(kind, name).map(r -> live(kind, r));
    }

    @Override
    public List<LiveObject> labelled(String setName) {
        List<LiveObject> out = new ArrayList<>();
        for (AdmissionKind kind : kinds.served()) {
            source(kind).ifPresent(es -> es.byIndex(BY_SET, setName).forEach(r -> out.add(live(kind, r))));
        }
        return out;
    }

    /** The cached object as the client holds it (for the informer's own-write bookkeeping). */
    Optional<GenericKubernetesResource> cached(AdmissionKind kind, String name) {
        return source(kind).flatMap(es -> es.get(new ResourceID(name)));
    }

    @SuppressWarnings("unchecked")
    Optional<InformerEventSource<GenericKubernetesResource, AdmissionPolicySet>> source(AdmissionKind kind) {
        Optional<String> version = kinds.versionOf(kind);
        if (version.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of((InformerEventSource<GenericKubernetesResource, AdmissionPolicySet>) sources
                    .getEventSourceFor(GenericKubernetesResource.class, ManagedKinds.eventSourceName(kind, version.get())));
        } catch (RuntimeException e) {
            // Never answer "absent" for a served kind without its cache: the plan would create over what exists.
            throw new IllegalStateException("no informer for " + kind.kind() + " " + version.get() + " yet", e);
        }
    }

    private static LiveObject live(AdmissionKind kind, GenericKubernetesResource r) {
        return new LiveObject(kind, r.getMetadata().getName(), (ObjectNode) JSON.valueToTree(r));
    }
}

package dev.policyset.aps.core.model;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What the cluster holds, as far as a set's decision needs it: the server version, the MutatingAdmissionPolicy
 * version it serves, and the admission objects by kind and name (the set's own, other sets', hand-made ones).
 * The operator answers from its informer caches (no request per question); tests and the CLI from a list.
 */
public interface ClusterView {
    KubeVersion kubeVersion();

    /** The newest MutatingAdmissionPolicy version the cluster serves; empty when it serves none. */
    Optional<String> mutatingPolicyVersion();

    /** The object of this kind and name, whoever owns it. */
    Optional<LiveObject> find(AdmissionKind kind, String name);

    /** Every object that carries the set label with this value, in any served kind. */
    List<LiveObject> labelled(String setName);

    /**
     * The schemas of the resources the cluster serves, for type checking policies (APS602, APS603): the operator
     * reads the cluster's {@code /openapi/v3}; without a cluster, the built-in kinds.
     */
    default dev.policyset.aps.core.schema.SchemaSource schemas() {
        return dev.policyset.aps.core.schema.BuiltinSchemas.instance();
    }

    /** Whether the cluster can be asked at all: false for offline validation (the CLI), where nothing is known. */
    default boolean online() {
        return true;
    }

    /** A cluster that is not there (the CLI): nothing exists, nothing is served beyond what the version implies. */
    static ClusterView offline(KubeVersion version) {
        return new Snapshot(version, MutatingPolicyVersions.newestAt(version), Map.of(), false);
    }

    /** A view of the given objects (tests; or any list the caller already holds). */
    static ClusterView of(KubeVersion version, Optional<String> mutatingPolicyVersion, Collection<LiveObject> objects) {
        return new Snapshot(version, mutatingPolicyVersion,
                objects.stream().collect(Collectors.toMap(LiveObject::id, Function.identity(), (a, b) -> b)), true);
    }

    /** A view held in memory. */
    record Snapshot(KubeVersion kubeVersion, Optional<String> mutatingPolicyVersion, Map<String, LiveObject> objects,
                    boolean online) implements ClusterView {
        public Snapshot {
            objects = Map.copyOf(objects);
        }

        @Override
        public Optional<LiveObject> find(AdmissionKind kind, String name) {
            return Optional.ofNullable(objects.get(kind.kind() + "/" + name));
        }

        @Override
        public List<LiveObject> labelled(String setName) {
            return objects.values().stream().filter(o -> o.isLabelledFor(setName))
                    .sorted(java.util.Comparator.comparing(LiveObject::id)).toList();
        }
    }
}

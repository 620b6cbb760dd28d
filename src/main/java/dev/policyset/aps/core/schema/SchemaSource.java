package dev.policyset.aps.core.schema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the schemas of resources come from: the built-in kinds, CRD manifests, a cluster's {@code /openapi/v3}.
 * Sources are combined with {@link #first}: the first that knows a kind answers for it (so a cluster's or a CRD's
 * own schema wins over the built-in one).
 */
public interface SchemaSource {
    /** The schema of a kind's objects (the whole object: apiVersion, kind, metadata, spec, ...). */
    Optional<Schema> schema(GroupVersionKind gvk);

    /** Every resource this source knows, for resolving a rule's resources to kinds and expanding wildcards. */
    List<ResourceType> resources();

    /** The kind a rule's {@code group/version/resource} names, if this source knows the resource. */
    default Optional<ResourceType> resource(String group, String version, String plural) {
        return resources().stream()
                .filter(r -> r.gvk().group().equals(group) && r.gvk().version().equals(version) && r.plural().equals(plural))
                .findFirst();
    }

    SchemaSource NONE = new SchemaSource() {
        @Override
        public Optional<Schema> schema(GroupVersionKind gvk) {
            return Optional.empty();
        }

        @Override
        public List<ResourceType> resources() {
            return List.of();
        }
    };

    /** The sources in order of precedence. */
    static SchemaSource first(SchemaSource... sources) {
        List<SchemaSource> list = List.of(sources);
        return new SchemaSource() {
            @Override
            public Optional<Schema> schema(GroupVersionKind gvk) {
                for (SchemaSource s : list) {
                    Optional<Schema> found = s.schema(gvk);
                    if (found.isPresent()) {
                        return found;
                    }
                }
                return Optional.empty();
            }

            @Override
            public List<ResourceType> resources() {
                Map<GroupVersionKind, ResourceType> all = new LinkedHashMap<>();
                for (SchemaSource s : list) {
                    s.resources().forEach(r -> all.putIfAbsent(r.gvk(), r));
                }
                return new ArrayList<>(all.values());
            }

            @Override
            public Optional<ResourceType> resource(String group, String version, String plural) {
                for (SchemaSource s : list) {
                    Optional<ResourceType> found = s.resource(group, version, plural);
                    if (found.isPresent()) {
                        return found;
                    }
                }
                return Optional.empty();
            }
        };
    }
}

package dev.policyset.aps.core.impact;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * Where the operator's impact scan reads existing objects: the informer caches of the resources the operator is
 * allowed to list (aps.impact.resources). Core asks only for the resources a policy can match.
 */
public interface ExistingObjectSource {
    /** A listable resource: {@code apps/v1/deployments} is group {@code apps}, version {@code v1}, resource {@code deployments}. */
    record Resource(String group, String version, String resource) {
        @Override
        public String toString() {
            return (group.isEmpty() ? "" : group + "/") + version + "/" + resource;
        }
    }

    /** The resources this source can list. */
    List<Resource> resources();

    /** How many objects of one resource there are. */
    int count(Resource resource);

    /** The objects of one resource, at most {@code limit}, each with apiVersion and kind set. */
    List<ObjectNode> list(Resource resource, int limit);
}

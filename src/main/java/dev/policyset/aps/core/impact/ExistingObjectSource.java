package dev.policyset.aps.core.impact;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.function.Predicate;

/**
 * Where the operator's impact scan reads existing objects: a resource at a time, a page at a time, so the scan holds
 * one page of them, not the cluster (the operator's source is paged lists of the API server, aps.impact.kinds). Core
 * asks only for the resources a policy can match.
 */
public interface ExistingObjectSource {
    /** A listable resource: {@code apps/v1/deployments} is group {@code apps}, version {@code v1}, resource {@code deployments}. */
    record Resource(String group, String version, String resource) {
        @Override
        public String toString() {
            return (group.isEmpty() ? "" : group + "/") + version + "/" + resource;
        }

        /** {@code apps/v1} or {@code v1}: the apiVersion of this resource's objects. */
        public String apiVersion() {
            return (group.isEmpty() ? "" : group + "/") + version;
        }
    }

    /** The resources this source can list. */
    List<Resource> resources();

    /**
     * Reads every object of one resource, each with apiVersion and kind set, handing them over a page at a time: a
     * page is handed to {@code page} before the next one is read. Stops early when {@code page} returns false.
     */
    void list(Resource resource, Predicate<List<ObjectNode>> page);

    /**
     * Objects already in memory (a test, a benchmark) as a source: a resource's objects are those of its apiVersion
     * and kind's resource, in the given order, in pages of {@code pageSize}.
     */
    static ExistingObjectSource of(List<Resource> resources, List<ObjectNode> objects, int pageSize) {
        return new InMemoryObjects(resources, objects, pageSize);
    }
}

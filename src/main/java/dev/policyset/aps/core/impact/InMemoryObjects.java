package dev.policyset.aps.core.impact;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.evaluate.KindResources;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** {@link ExistingObjectSource#of}: objects already in memory, paged as a list of the API server would page them. */
final class InMemoryObjects implements ExistingObjectSource {
    private final List<Resource> resources;
    private final List<ObjectNode> objects;
    private final int pageSize;

    InMemoryObjects(List<Resource> resources, List<ObjectNode> objects, int pageSize) {
        if (pageSize < 1) {
            throw new IllegalArgumentException("pageSize must be at least 1, not " + pageSize);
        }
        this.resources = List.copyOf(resources);
        this.objects = objects;
        this.pageSize = pageSize;
    }

    @Override
    public List<Resource> resources() {
        return resources;
    }

    @Override
    public void list(Resource resource, Predicate<List<ObjectNode>> page) {
        if (!resources.contains(resource)) {
            return;
        }
        List<ObjectNode> current = new ArrayList<>(pageSize);
        for (ObjectNode o : objects) {
            if (o.path("apiVersion").asText("").equals(resource.apiVersion())
                    && KindResources.resourceOf(o.path("kind").asText("")).equals(resource.resource())) {
                current.add(o);
                if (current.size() == pageSize) {
                    if (!page.test(current)) {
                        return;
                    }
                    current = new ArrayList<>(pageSize);
                }
            }
        }
        if (!current.isEmpty()) {
            page.test(current);
        }
    }
}

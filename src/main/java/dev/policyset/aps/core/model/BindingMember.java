package dev.policyset.aps.core.model;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Map;

/** One binding of a policy member; {@code spec} may be null when the set gives none. */
public record BindingMember(String name, String path, Map<String, String> labels, Map<String, String> annotations,
                            ObjectNode spec) implements Member {
    public BindingMember {
        labels = Map.copyOf(labels);
        annotations = Map.copyOf(annotations);
    }
}

package dev.policyset.aps.core.model;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A validating or mutating policy and its bindings. {@code bindings} is empty-optional when the set
 * leaves the list out (one default binding is generated) and an empty list when it says {@code []}.
 * {@code podControllers} are the controllers autogen renders the policy for (empty: autogen off).
 */
public record PolicyMember(String name, String path, Map<String, String> labels, Map<String, String> annotations,
                           ObjectNode policy, Optional<List<BindingMember>> bindings,
                           List<String> podControllers) implements Member {
    public PolicyMember {
        labels = Map.copyOf(labels);
        annotations = Map.copyOf(annotations);
        bindings = bindings.map(List::copyOf);
        podControllers = List.copyOf(podControllers);
    }
}

package dev.policyset.aps.core.model;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Map;

/**
 * A member of a set as written: the name of the object it generates, where it sits in the set
 * ({@code path}, e.g. {@code spec.validatingPolicies[2]}), and its extra metadata.
 */
public sealed interface Member permits PolicyMember, BindingMember, WebhookMember {
    String name();

    String path();

    Map<String, String> labels();

    Map<String, String> annotations();

    /** Returned trees are the set's own: renderers copy before changing them. */
    default ObjectNode copyOf(ObjectNode node) {
        return node == null ? null : node.deepCopy();
    }
}

package dev.policyset.aps.core.render;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * Merges the set's {@code excludedNamespaces} into a namespace selector as
 * {@code kubernetes.io/metadata.name NotIn [...]}. The API server sets that label on every namespace and
 * nobody can change it, so it is the one label that is a security boundary.
 *
 * <p>The member's own selector terms are kept (selector terms are ANDed, so adding one only narrows).
 * An existing {@code NotIn} on the same key is extended rather than repeated, so rendering is idempotent.
 * A selector of the wrong JSON type is left alone for the validator to report.
 */
public final class NamespaceExclusion {
    public static final String NAME_LABEL = "kubernetes.io/metadata.name";
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private NamespaceExclusion() {}

    /** Applies the exclusion to {@code parent.namespaceSelector}, creating the selector when absent. */
    public static void mergeInto(ObjectNode parent, List<String> excluded) {
        if (excluded.isEmpty()) {
            return;
        }
        JsonNode existing = parent.get("namespaceSelector");
        ObjectNode selector;
        if (existing == null || existing.isNull()) {
            selector = parent.putObject("namespaceSelector");
        } else if (existing.isObject()) {
            selector = (ObjectNode) existing;
        } else {
            return;
        }
        JsonNode expressions = selector.get("matchExpressions");
        if (expressions == null || expressions.isNull()) {
            expressions = selector.putArray("matchExpressions");
        } else if (!expressions.isArray()) {
            return;
        }
        ArrayNode list = (ArrayNode) expressions;
        for (JsonNode expression : list) {
            if (isNotInOnName(expression)) {
                JsonNode values = expression.get("values");
                if (values == null || values.isNull()) {
                    values = ((ObjectNode) expression).putArray("values");
                } else if (!values.isArray()) {
                    return;
                }
                addMissing((ArrayNode) values, excluded);
                return;
            }
        }
        ObjectNode expression = list.addObject();
        expression.put("key", NAME_LABEL);
        expression.put("operator", "NotIn");
        addMissing(expression.putArray("values"), excluded);
    }

    /** A fresh {@code parent} holding only the exclusion selector, or null when nothing is excluded. */
    public static ObjectNode selectorHolder(List<String> excluded) {
        if (excluded.isEmpty()) {
            return null;
        }
        ObjectNode holder = JSON.objectNode();
        mergeInto(holder, excluded);
        return holder;
    }

    private static boolean isNotInOnName(JsonNode expression) {
        return expression.isObject()
                && NAME_LABEL.equals(expression.path("key").asText(null))
                && "NotIn".equals(expression.path("operator").asText(null));
    }

    private static void addMissing(ArrayNode values, List<String> excluded) {
        for (String namespace : excluded) {
            boolean present = false;
            for (JsonNode v : values) {
                present |= namespace.equals(v.asText(null));
            }
            if (!present) {
                values.add(namespace);
            }
        }
    }
}

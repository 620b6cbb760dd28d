package dev.policyset.aps.core.validate.safety;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Label-selector reasoning for the safety rules.
 *
 * <p>The only namespace label nobody can change is {@code kubernetes.io/metadata.name} (set by the API
 * server to the namespace's name). So "does this selector exclude kube-system?" is answered for a namespace
 * that carries <em>only</em> that label: an exclusion that depends on any other label (an opt-out label
 * such as {@code ignore DoesNotExist}) does not count, because it holds only until someone removes the
 * label, and kube-system does not carry it by default. An opt-in label requirement ({@code In}, {@code Exists},
 * {@code matchLabels}) does keep an unlabelled namespace out.
 */
final class Selectors {
    static final String NAME_LABEL = "kubernetes.io/metadata.name";

    private Selectors() {}

    /**
     * Whether a selector can match the namespace {@code name} when it carries only its name label. An absent
     * or empty selector matches everything; a malformed one is assumed to match (the API-server rules report it).
     */
    static boolean matchesBareNamespace(JsonNode selector, String name) {
        if (selector == null || selector.isNull() || !selector.isObject()) {
            return true;
        }
        Map<String, String> labels = Map.of(NAME_LABEL, name);
        JsonNode matchLabels = selector.get("matchLabels");
        if (matchLabels != null && matchLabels.isObject()) {
            var it = matchLabels.fields();
            while (it.hasNext()) {
                var e = it.next();
                if (!e.getValue().isTextual() || !e.getValue().asText().equals(labels.get(e.getKey()))) {
                    return false;
                }
            }
        }
        for (Requirement r : requirements(selector)) {
            if (!r.satisfiedBy(labels)) {
                return false;
            }
        }
        return true;
    }

    /** One {@code matchExpressions} entry. */
    record Requirement(int index, String key, String operator, List<String> values) {
        boolean satisfiedBy(Map<String, String> labels) {
            String value = labels.get(key);
            return switch (operator) {
                case "In" -> value != null && values.contains(value);
                case "NotIn" -> value == null || !values.contains(value);
                case "Exists" -> value != null;
                case "DoesNotExist" -> value == null;
                default -> true; // unknown operator: the API-server rules report it
            };
        }

        /** An opt-out: objects carrying the label (with these values) are left out. */
        boolean isOptOut() {
            return operator.equals("NotIn") || operator.equals("DoesNotExist");
        }
    }

    static List<Requirement> requirements(JsonNode selector) {
        List<Requirement> out = new ArrayList<>();
        if (selector == null || !selector.isObject()) {
            return out;
        }
        JsonNode list = selector.get("matchExpressions");
        if (list == null || !list.isArray()) {
            return out;
        }
        for (int i = 0; i < list.size(); i++) {
            JsonNode e = list.get(i);
            if (e.isObject() && e.path("key").isTextual() && e.path("operator").isTextual()) {
                out.add(new Requirement(i, e.get("key").asText(), e.get("operator").asText(), MatchRule.strings(e.get("values"))));
            }
        }
        return out;
    }

    /** Opt-out requirements on labels other than the namespace name label (those a label writer controls). */
    static List<Requirement> mutableOptOuts(JsonNode selector) {
        return requirements(selector).stream().filter(Requirement::isOptOut)
                .filter(r -> !r.key().equals(NAME_LABEL)).toList();
    }
}

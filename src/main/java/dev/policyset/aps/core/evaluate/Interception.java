package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The questions the simulation asks of the interception model: does a policy's {@code matchConstraints}, a
 * binding's {@code matchResources} or a webhook's rules and selectors reach this request?
 * ({@code k8s.io/apiserver/pkg/admission/plugin/policy/matching/matching.go: Matcher.Matches},
 * {@code webhook/predicates/rules/rules.go}, {@code webhook/predicates/namespace} and {@code object}).
 *
 * <p>Namespace labels come from the fixtures; objectSelector matches when the object's or the old object's
 * labels match. {@code matchPolicy: Equivalent} (the default) matches a rule that names the request's group and
 * resource at another version (the API server would convert); {@code Exact} needs the version too.
 */
final class Interception {
    private static final String NAMESPACES = "namespaces";

    private Interception() {}

    /** A policy's {@code spec.matchConstraints} (a missing one matches nothing, as an invalid policy). */
    static boolean policyMatches(JsonNode matchConstraints, AdmissionRequest r, Fixtures fixtures) {
        if (matchConstraints == null || !matchConstraints.isObject()) {
            return false;
        }
        return matchResources(matchConstraints, r, fixtures);
    }

    /** A binding's {@code spec.matchResources}; a missing one matches everything its policy matches. */
    static boolean bindingMatches(JsonNode matchResources, AdmissionRequest r, Fixtures fixtures) {
        if (matchResources == null || !matchResources.isObject()) {
            return true;
        }
        return matchResources(matchResources, r, fixtures);
    }

    /** A webhook's rules and selectors (its matchConditions are evaluated by the caller). */
    static boolean webhookMatches(JsonNode webhook, AdmissionRequest r, Fixtures fixtures) {
        String policy = webhook.path("matchPolicy").asText("Equivalent");
        return anyRule(webhook.path("rules"), r, policy)
                && selectorsMatch(webhook.get("namespaceSelector"), webhook.get("objectSelector"), r, fixtures);
    }

    private static boolean matchResources(JsonNode m, AdmissionRequest r, Fixtures fixtures) {
        String policy = m.path("matchPolicy").asText("Equivalent");
        // matching.go: no resourceRules (a binding that only narrows by selectors) matches what the policy does
        return (m.path("resourceRules").isEmpty() || anyRule(m.path("resourceRules"), r, policy))
                && !anyRule(m.path("excludeResourceRules"), r, policy)
                && selectorsMatch(m.get("namespaceSelector"), m.get("objectSelector"), r, fixtures);
    }

    private static boolean selectorsMatch(JsonNode namespaceSelector, JsonNode objectSelector, AdmissionRequest r,
                                          Fixtures fixtures) {
        return namespaceMatches(namespaceSelector, r, fixtures) && objectMatches(objectSelector, r);
    }

    /** {@code webhook/predicates/namespace/matcher.go: MatchNamespaceSelector}. */
    private static boolean namespaceMatches(JsonNode selector, AdmissionRequest r, Fixtures fixtures) {
        if (selector == null || selector.isNull() || selector.isEmpty()) {
            return true;
        }
        boolean namespaceObject = r.resource().equals(NAMESPACES) && r.group().isEmpty();
        if (r.namespace().isEmpty() && !namespaceObject) {
            return true; // cluster-scoped: the namespaceSelector does not apply
        }
        Map<String, String> labels;
        if (namespaceObject) {
            JsonNode obj = r.object() != null ? r.object() : r.oldObject();
            labels = ParamResolver.labels(obj);
            labels.put(Fixtures.NAME_LABEL, obj == null ? r.name() : obj.path("metadata").path("name").asText(r.name()));
        } else {
            labels = fixtures.namespaceLabels(r.namespace());
        }
        return labelsMatch(selector, labels);
    }

    /** {@code webhook/predicates/object/matcher.go: MatchObjectSelector}: the new or the old object's labels. */
    private static boolean objectMatches(JsonNode selector, AdmissionRequest r) {
        if (selector == null || selector.isNull() || selector.isEmpty()) {
            return true;
        }
        return (r.object() != null && labelsMatch(selector, ParamResolver.labels(r.object())))
                || (r.oldObject() != null && labelsMatch(selector, ParamResolver.labels(r.oldObject())));
    }

    private static boolean anyRule(JsonNode rules, AdmissionRequest r, String matchPolicy) {
        for (JsonNode rule : rules) {
            if (ruleMatches(rule, r, matchPolicy)) {
                return true;
            }
        }
        return false;
    }

    /** {@code webhook/predicates/rules/rules.go: Matcher.Matches} plus {@code resourceNames}. */
    private static boolean ruleMatches(JsonNode rule, AdmissionRequest r, String matchPolicy) {
        if (!anyOf(rule.path("operations"), r.operation()) || !anyOf(rule.path("apiGroups"), r.group())) {
            return false;
        }
        if (!"Equivalent".equals(matchPolicy) && !anyOf(rule.path("apiVersions"), r.version())) {
            return false;
        }
        if (!resourceMatches(rule.path("resources"), r)) {
            return false;
        }
        String scope = rule.path("scope").asText("*");
        boolean namespaceObject = r.resource().equals(NAMESPACES) && r.group().isEmpty();
        if (scope.equals("Namespaced") && (namespaceObject || r.namespace().isEmpty())) {
            return false;
        }
        if (scope.equals("Cluster") && !namespaceObject && !r.namespace().isEmpty()) {
            return false;
        }
        JsonNode names = rule.path("resourceNames");
        return names.isEmpty() || anyOf(names, r.name());
    }

    private static boolean resourceMatches(JsonNode resources, AdmissionRequest r) {
        String sub = r.subResource();
        for (JsonNode n : resources) {
            String entry = n.asText("");
            if (entry.equals("*/*") || (entry.equals("*") && sub.isEmpty())) {
                return true;
            }
            int slash = entry.indexOf('/');
            String res = slash < 0 ? entry : entry.substring(0, slash);
            String s = slash < 0 ? "" : entry.substring(slash + 1);
            if ((res.equals("*") || res.equals(r.resource())) && (s.equals(sub) || (s.equals("*") && !sub.isEmpty()))) {
                return true;
            }
        }
        return false;
    }

    private static boolean anyOf(JsonNode list, String value) {
        for (JsonNode n : list) {
            if (n.asText("").equals("*") || n.asText("").equals(value)) {
                return true;
            }
        }
        return false;
    }

    /** {@code metav1.LabelSelectorAsSelector} then {@code Matches}: matchLabels and matchExpressions, ANDed. */
    static boolean labelsMatch(JsonNode selector, Map<String, String> labels) {
        if (selector == null || selector.isNull()) {
            return true;
        }
        var ml = selector.path("matchLabels").fields();
        while (ml.hasNext()) {
            var e = ml.next();
            if (!e.getValue().asText().equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        for (JsonNode expr : selector.path("matchExpressions")) {
            String key = expr.path("key").asText("");
            List<String> values = new ArrayList<>();
            expr.path("values").forEach(v -> values.add(v.asText()));
            boolean has = labels.containsKey(key);
            boolean ok = switch (expr.path("operator").asText("")) {
                case "In" -> has && values.contains(labels.get(key));
                case "NotIn" -> !has || !values.contains(labels.get(key));
                case "Exists" -> has;
                case "DoesNotExist" -> !has;
                default -> false;
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}

package dev.policyset.aps.core.intercept;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * One admission rule ({@code webhooks[i].rules[j]}, {@code spec.matchConstraints.resourceRules[j]},
 * {@code excludeResourceRules[j]}) read leniently: entries of the wrong type are skipped (the API-server rules
 * report them), so matching never fails on bad input.
 *
 * <p>Matching is {@code rules.Matcher.Matches} of {@code k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/rules/rules.go}:
 * {@code *} in groups, versions and operations matches anything; a resource entry {@code r/s} matches when
 * {@code r} is {@code *} or the resource and {@code s} is {@code *} or the subresource, so {@code *} matches every
 * resource but no subresource, {@code * /*} (without the space) everything, and {@code pods/*} pods <em>and</em>
 * every subresource of pods (rules_test.go, "r &amp; subresources"). {@code scope} is {@code Cluster},
 * {@code Namespaced} or {@code *} (the default); a Namespace object counts as cluster-scoped.
 * {@code resourceNames} (policies only) limits the rule to objects of those names.
 */
public record Rule(String path, List<String> groups, List<String> versions, List<String> operations,
                   List<String> resources, String scope, List<String> resourceNames) {
    public Rule {
        groups = List.copyOf(groups);
        versions = List.copyOf(versions);
        operations = List.copyOf(operations);
        resources = List.copyOf(resources);
        resourceNames = List.copyOf(resourceNames);
    }

    /** The rules of a JSON list; empty for anything that is not a list. */
    public static List<Rule> readAll(JsonNode list, String path) {
        List<Rule> rules = new ArrayList<>();
        if (list == null || !list.isArray()) {
            return rules;
        }
        for (int i = 0; i < list.size(); i++) {
            JsonNode r = list.get(i);
            if (!r.isObject()) {
                continue;
            }
            JsonNode scope = r.get("scope");
            rules.add(new Rule(path + "[" + i + "]", strings(r.get("apiGroups")), strings(r.get("apiVersions")),
                    strings(r.get("operations")), strings(r.get("resources")),
                    scope != null && scope.isTextual() ? scope.asText() : "*", strings(r.get("resourceNames"))));
        }
        return rules;
    }

    static List<String> strings(JsonNode node) {
        List<String> out = new ArrayList<>();
        if (node != null && node.isArray()) {
            node.forEach(n -> {
                if (n.isTextual()) {
                    out.add(n.asText());
                }
            });
        }
        return out;
    }

    public boolean matchesGroup(String group) {
        return groups.contains("*") || groups.contains(group);
    }

    public boolean matchesVersion(String version) {
        return versions.contains("*") || versions.contains(version);
    }

    public boolean matchesOperation(Operation operation) {
        return operations.contains("*") || operations.contains(operation.name());
    }

    /** {@code resource()} of rules.go: the resource and subresource ("" for none). */
    public boolean matchesResource(String resource, String subresource) {
        for (String r : resources) {
            int s = r.indexOf('/');
            String res = s < 0 ? r : r.substring(0, s);
            String sub = s < 0 ? "" : r.substring(s + 1);
            if ((res.equals("*") || res.equals(resource)) && (sub.equals("*") || sub.equals(subresource))) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code scope()} of rules.go. {@code namespaced} is whether the request has a namespace; a request for a
     * Namespace object itself ({@code core/namespaces}) counts as cluster-scoped whatever it carries.
     */
    public boolean matchesScope(boolean namespaced, boolean namespaceObject) {
        return switch (scope) {
            case "Namespaced" -> !namespaceObject && namespaced;
            case "Cluster" -> namespaceObject || !namespaced;
            case "*" -> true;
            default -> false;
        };
    }

    /**
     * Every resource of every group, for at least every CREATE and UPDATE: all writes that make or change an
     * object, whether or not DELETE and CONNECT are listed too.
     */
    public boolean matchesEverything() {
        return groups.contains("*") && (resources.contains("*") || resources.contains("*/*"))
                && (operations.contains("*") || (operations.contains("CREATE") && operations.contains("UPDATE")));
    }
}

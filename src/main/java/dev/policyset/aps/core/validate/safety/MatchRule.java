package dev.policyset.aps.core.validate.safety;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.intercept.KubeResources;

import java.util.ArrayList;
import java.util.List;

/**
 * One admission rule ({@code webhooks[i].rules[j]}, {@code spec.matchConstraints.resourceRules[j]}, ...) read
 * leniently: entries of the wrong type are skipped (the API-server rules report them), so a safety rule never
 * fails on bad input.
 *
 * <p>Matching follows the API server: {@code *} in groups, versions and operations matches anything;
 * in resources {@code *} matches every resource but no subresource, {@code * / *} (without spaces) everything,
 * {@code pods/*} every subresource of pods, {@code * /status} (without the space) the status subresource of
 * anything. {@code scope} is {@code Cluster}, {@code Namespaced} or {@code *} (the default).
 */
record MatchRule(String path, List<String> groups, List<String> versions, List<String> operations,
                 List<String> resources, String scope) {
    static final List<String> OPERATIONS = List.of("CREATE", "UPDATE", "DELETE", "CONNECT");

    /** The rules of a JSON list; empty for anything that is not a list. */
    static List<MatchRule> readAll(JsonNode list, String path) {
        List<MatchRule> rules = new ArrayList<>();
        if (list == null || !list.isArray()) {
            return rules;
        }
        for (int i = 0; i < list.size(); i++) {
            JsonNode r = list.get(i);
            if (!r.isObject()) {
                continue;
            }
            JsonNode scope = r.get("scope");
            rules.add(new MatchRule(path + "[" + i + "]", strings(r.get("apiGroups")), strings(r.get("apiVersions")),
                    strings(r.get("operations")), strings(r.get("resources")),
                    scope != null && scope.isTextual() ? scope.asText() : "*"));
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

    boolean matchesGroup(String group) {
        return groups.contains("*") || groups.contains(group);
    }

    boolean matchesOperation(String operation) {
        return operations.contains("*") || operations.contains(operation);
    }

    /** Whether {@code resource} ("pods", "pods/status") of the given group is matched, for some operation. */
    boolean matches(String group, String resource) {
        return matchesGroup(group) && matchesResource(resource) && matchesScopeOf(resource);
    }

    boolean matches(String group, String resource, String operation) {
        return matches(group, resource) && matchesOperation(operation);
    }

    boolean matchesResource(String resource) {
        int slash = resource.indexOf('/');
        String main = slash < 0 ? resource : resource.substring(0, slash);
        String sub = slash < 0 ? "" : resource.substring(slash + 1);
        for (String r : resources) {
            if (r.equals("*/*")) {
                return true;
            }
            int s = r.indexOf('/');
            String rMain = s < 0 ? r : r.substring(0, s);
            String rSub = s < 0 ? "" : r.substring(s + 1);
            boolean mainOk = rMain.equals("*") || rMain.equals(main);
            if (rSub.isEmpty() ? mainOk && sub.isEmpty() : mainOk && !sub.isEmpty() && (rSub.equals("*") || rSub.equals(sub))) {
                return true;
            }
        }
        return false;
    }

    boolean matchesScopeOf(String resource) {
        String main = resource.contains("/") ? resource.substring(0, resource.indexOf('/')) : resource;
        return switch (scope) {
            case "Cluster" -> KubeResources.mayBeClusterScoped(main);
            case "Namespaced" -> KubeResources.mayBeNamespaced(main);
            default -> true;
        };
    }

    /**
     * True when the rule can match a request "in" a namespace for a group served by the API server itself: a
     * namespaced object there, or the Namespace object itself (a namespaceSelector is evaluated against the
     * namespace being written, so a rule on {@code namespaces} reaches kube-system's own Namespace object).
     */
    boolean canMatchNamespacedBuiltin() {
        if (operations.isEmpty()) {
            return false;
        }
        if (!scope.equals("Namespaced") && matchesGroup("") && matchesResource("namespaces")) {
            return true;
        }
        if (scope.equals("Cluster")) {
            return false;
        }
        boolean builtinGroup = groups.stream().anyMatch(g -> g.equals("*") || KubeResources.isBuiltinGroup(g));
        if (!builtinGroup) {
            return false;
        }
        for (String r : resources) {
            String main = r.contains("/") ? r.substring(0, r.indexOf('/')) : r;
            if (main.equals("*") || KubeResources.mayBeNamespaced(main)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Every resource of every group, for at least every CREATE and UPDATE: all writes that make or change an
     * object, whether or not DELETE and CONNECT are listed too.
     */
    boolean matchesEverything() {
        return groups.contains("*") && (resources.contains("*") || resources.contains("*/*"))
                && (operations.contains("*") || (operations.contains("CREATE") && operations.contains("UPDATE")));
    }
}

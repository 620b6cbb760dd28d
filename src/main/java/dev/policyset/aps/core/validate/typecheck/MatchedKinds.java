package dev.policyset.aps.core.validate.typecheck;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.intercept.Rule;
import dev.policyset.aps.core.schema.GroupVersionKind;
import dev.policyset.aps.core.schema.ResourceType;
import dev.policyset.aps.core.schema.SchemaSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kinds whose objects a policy's {@code spec.matchConstraints} can hand to its expressions, resolved through
 * the interception model's rules ({@link Rule}) against the resources a schema source knows. Unlike upstream's
 * {@code typechecking.go: typesToCheck}, which gives up on any {@code *} in groups or versions, skips {@code *}
 * resources and stops at 10 kinds, wildcards expand to every known resource they match (the built-in kinds and
 * the CRDs of the input) and there is no limit. Subresources are left out, as upstream does (their object is not
 * the resource's kind); so are rules that only CONNECT, and resources an {@code excludeResourceRules} rule names.
 */
public final class MatchedKinds {
    /** One matched kind; {@code wildcard} when no rule names its group, version and resource literally. */
    public record Matched(ResourceType resource, boolean wildcard) {
        public GroupVersionKind gvk() {
            return resource.gvk();
        }
    }

    private MatchedKinds() {
    }

    public static List<Matched> of(JsonNode matchConstraints, SchemaSource schemas) {
        List<Rule> rules = Rule.readAll(matchConstraints.path("resourceRules"), "spec.matchConstraints.resourceRules");
        List<Rule> excluded = Rule.readAll(matchConstraints.path("excludeResourceRules"),
                "spec.matchConstraints.excludeResourceRules");
        Map<GroupVersionKind, Boolean> matched = new LinkedHashMap<>();
        Map<GroupVersionKind, ResourceType> resources = new LinkedHashMap<>();
        for (Rule rule : rules) {
            if (!rule.operations().isEmpty() && rule.operations().stream().allMatch("CONNECT"::equals)) {
                continue;
            }
            boolean literal = !rule.groups().contains("*") && !rule.versions().contains("*");
            if (literal && rule.resources().stream().noneMatch(r -> r.startsWith("*"))) {
                // named resources: resolve each one directly (cheap, and no wildcard involved)
                for (String group : rule.groups()) {
                    for (String version : rule.versions()) {
                        for (String resource : rule.resources()) {
                            if (resource.contains("/")) {
                                continue;
                            }
                            schemas.resource(group, version, resource)
                                    .filter(r -> rule.matchesScope(r.namespaced(), isNamespaces(r)))
                                    .filter(r -> !excluded(excluded, r))
                                    .ifPresent(r -> {
                                        matched.put(r.gvk(), false);
                                        resources.putIfAbsent(r.gvk(), r);
                                    });
                        }
                    }
                }
                continue;
            }
            for (ResourceType r : schemas.resources()) {
                GroupVersionKind gvk = r.gvk();
                if (rule.matchesGroup(gvk.group()) && rule.matchesVersion(gvk.version())
                        && rule.matchesResource(r.plural(), "") && rule.matchesScope(r.namespaced(), isNamespaces(r))
                        && !excluded(excluded, r)) {
                    matched.putIfAbsent(gvk, true);
                    resources.putIfAbsent(gvk, r);
                }
            }
        }
        List<Matched> out = new ArrayList<>();
        matched.forEach((gvk, wildcard) -> out.add(new Matched(resources.get(gvk), wildcard)));
        return out;
    }

    private static boolean isNamespaces(ResourceType r) {
        return r.gvk().group().isEmpty() && r.plural().equals("namespaces");
    }

    private static boolean excluded(List<Rule> excluded, ResourceType r) {
        return excluded.stream().anyMatch(e -> e.matchesGroup(r.gvk().group()) && e.matchesVersion(r.gvk().version())
                && e.matchesResource(r.plural(), "") && e.resourceNames().isEmpty()
                && (e.operations().isEmpty() || e.operations().contains("*")));
    }
}

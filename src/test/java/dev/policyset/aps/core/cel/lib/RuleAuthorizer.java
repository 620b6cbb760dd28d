package dev.policyset.aps.core.cel.lib;

import java.util.List;
import java.util.Map;

/**
 * A test authorizer with the cel-eval README's semantics: the first rule whose {@code match} attributes all
 * equal the check's attributes decides; otherwise the default does.
 */
record RuleAuthorizer(List<Rule> rules, CelAuthorizer.Decision fallback) implements CelAuthorizer {
    record Rule(Map<String, String> match, Decision decision) {
    }

    static Decision decision(String kind, String reason, String error) {
        Decision.Kind k = switch (kind) {
            case "allow" -> Decision.Kind.ALLOW;
            case "deny" -> Decision.Kind.DENY;
            default -> Decision.Kind.NO_OPINION;
        };
        return new Decision(k, reason == null ? "" : reason, error);
    }

    @SuppressWarnings("unchecked")
    static RuleAuthorizer fromYaml(Map<String, Object> spec) {
        List<Rule> rules = new java.util.ArrayList<>();
        for (Object o : (List<Object>) spec.getOrDefault("rules", List.of())) {
            Map<String, Object> r = (Map<String, Object>) o;
            rules.add(new Rule((Map<String, String>) r.getOrDefault("match", Map.of()),
                    decision((String) r.get("decision"), (String) r.get("reason"), (String) r.get("error"))));
        }
        Map<String, Object> d = (Map<String, Object>) spec.getOrDefault("default", Map.of("decision", "deny"));
        return new RuleAuthorizer(rules, decision((String) d.get("decision"), (String) d.get("reason"), (String) d.get("error")));
    }

    @Override
    public Decision authorize(Attributes a) {
        Map<String, String> attrs = Map.of("user", a.user(), "verb", a.verb(), "path", a.path(), "group", a.group(),
                "resource", a.resource(), "subresource", a.subresource(), "namespace", a.namespace(), "name", a.name());
        for (Rule rule : rules) {
            if (rule.match().entrySet().stream().allMatch(e -> e.getValue().equals(attrs.get(e.getKey())))) {
                return rule.decision();
            }
        }
        return fallback;
    }
}

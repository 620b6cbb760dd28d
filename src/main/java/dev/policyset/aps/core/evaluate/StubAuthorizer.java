package dev.policyset.aps.core.evaluate;

import dev.policyset.aps.core.cel.lib.CelAuthorizer;

import java.util.List;
import java.util.Map;

/**
 * Stubbed authorizer decisions for {@code authorizer} checks: the first rule whose attributes all equal the
 * check's wins, else {@link #fallback}. The same stub the cel-eval suite describes, so a rule written for
 * {@code authorizer.group('apps').resource('deployments').namespace('prod').check('create')} matches
 * {@code {group: apps, resource: deployments, namespace: prod, verb: create}}; a
 * {@code authorizer.serviceAccount('ns', 'sa')} check is made as user {@code system:serviceaccount:ns:sa};
 * a {@code authorizer.path('/healthz').check('get')} check has {@code path} and {@code verb} only.
 *
 * @param rules    in order; an attribute a rule does not name matches anything
 * @param fallback the decision when no rule matches (deny, no reason, by default)
 */
public record StubAuthorizer(List<Rule> rules, CelAuthorizer.Decision fallback) implements CelAuthorizer {
    /** Attribute names a rule may match on. */
    public static final List<String> ATTRIBUTES =
            List.of("user", "path", "verb", "group", "resource", "subresource", "namespace", "name");

    public StubAuthorizer {
        rules = List.copyOf(rules);
        fallback = fallback == null ? new Decision(Decision.Kind.DENY, "", null) : fallback;
    }

    public static final StubAuthorizer DENY_ALL = new StubAuthorizer(List.of(), null);

    /** One stubbed decision: attribute name (one of {@link #ATTRIBUTES}) to the value it must equal. */
    public record Rule(Map<String, String> match, Decision decision) {
        public Rule {
            match = Map.copyOf(match);
        }

        boolean matches(Attributes a) {
            for (Map.Entry<String, String> e : match.entrySet()) {
                if (!e.getValue().equals(attribute(a, e.getKey()))) {
                    return false;
                }
            }
            return true;
        }
    }

    @Override
    public Decision authorize(Attributes attributes) {
        for (Rule rule : rules) {
            if (rule.matches(attributes)) {
                return rule.decision();
            }
        }
        return fallback;
    }

    static String attribute(Attributes a, String name) {
        return switch (name) {
            case "user" -> a.user();
            case "path" -> a.path();
            case "verb" -> a.verb();
            case "group" -> a.group();
            case "resource" -> a.resource();
            case "subresource" -> a.subresource();
            case "namespace" -> a.namespace();
            case "name" -> a.name();
            default -> null;
        };
    }
}

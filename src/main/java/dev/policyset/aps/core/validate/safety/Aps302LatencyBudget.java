package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.validate.Finding;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * APS302: the worst-case admission latency of one request exceeds the budget (30 s; the API server's own
 * request timeout is 60 s).
 *
 * <p>For one resource and operation the API server calls every matching mutating webhook in sequence, calls
 * those with {@code reinvocationPolicy: IfNeeded} once more if a later mutation changed the object, then calls
 * the matching validating webhooks in parallel. Worst case: the sum of the mutating timeouts, plus the
 * IfNeeded ones again, plus the slowest validating timeout. Fail-open webhooks count too: a timeout costs the
 * same time whatever happens after it. Policies run in-process and are not counted.
 *
 * <p>Requests are enumerated exactly enough for matching: every group, resource and subresource named by some
 * rule plus a stand-in for "any other", times the four operations. namespaceSelectors and objectSelectors are
 * ignored (worst case: assume one request can match them all).
 */
public final class Aps302LatencyBudget implements SafetyRule {
    static final int BUDGET_SECONDS = 30;
    private static final String OTHER = "\u0000other";

    @Override
    public String id() {
        return "APS302";
    }

    @Override
    public List<Finding> check(SafetyContext context) {
        List<WebhookRef> webhooks = WebhookRef.all(context);
        if (webhooks.isEmpty()) {
            return List.of();
        }
        Map<WebhookRef, List<MatchRule>> rules = new LinkedHashMap<>();
        Set<String> groups = new TreeSet<>();
        Set<String> resources = new TreeSet<>();
        groups.add(OTHER);
        resources.add(OTHER);
        resources.add(OTHER + "/" + OTHER);
        for (WebhookRef w : webhooks) {
            List<MatchRule> rs = w.rules();
            rules.put(w, rs);
            for (MatchRule r : rs) {
                r.groups().stream().filter(g -> !g.equals("*")).forEach(groups::add);
                for (String res : r.resources()) {
                    String main = res.contains("/") ? res.substring(0, res.indexOf('/')) : res;
                    String sub = res.contains("/") ? res.substring(res.indexOf('/') + 1) : "";
                    String m = main.equals("*") ? OTHER : main;
                    resources.add(sub.isEmpty() ? m : m + "/" + (sub.equals("*") ? OTHER : sub));
                    if (!sub.isEmpty()) {
                        resources.add(m);
                    }
                }
            }
        }
        // One finding per distinct chain of webhooks, naming the first request that produces it.
        Map<Set<String>, Finding> findings = new LinkedHashMap<>();
        for (String op : MatchRule.OPERATIONS) {
            for (String group : groups) {
                for (String resource : resources) {
                    List<WebhookRef> mutating = new ArrayList<>();
                    List<WebhookRef> validating = new ArrayList<>();
                    for (var e : rules.entrySet()) {
                        if (e.getValue().stream().anyMatch(r -> r.matches(group, resource, op))) {
                            (e.getKey().mutating() ? mutating : validating).add(e.getKey());
                        }
                    }
                    int total = 0;
                    List<String> steps = new ArrayList<>();
                    for (WebhookRef w : mutating) {
                        boolean again = w.reinvocationPolicy().orElse("Never").equals("IfNeeded");
                        total += w.timeoutSeconds() * (again ? 2 : 1);
                        steps.add(describe(w) + " " + w.timeoutSeconds() + " s" + (again ? " x2 (IfNeeded)" : ""));
                    }
                    WebhookRef slowest = validating.stream()
                            .max(java.util.Comparator.comparingInt(WebhookRef::timeoutSeconds)).orElse(null);
                    if (slowest != null) {
                        total += slowest.timeoutSeconds();
                        steps.add(describe(slowest) + " " + slowest.timeoutSeconds() + " s (slowest validating)");
                    }
                    if (total <= BUDGET_SECONDS) {
                        continue;
                    }
                    Set<String> chain = new LinkedHashSet<>();
                    mutating.forEach(w -> chain.add(describe(w)));
                    if (slowest != null) {
                        chain.add(describe(slowest));
                    }
                    if (findings.containsKey(chain)) {
                        continue;
                    }
                    WebhookRef blame = mutating.isEmpty() ? slowest : mutating.stream()
                            .max(java.util.Comparator.comparingInt(WebhookRef::timeoutSeconds)).orElseThrow();
                    findings.put(chain, Finding.error(id(), blame.id(), blame.field("timeoutSeconds"),
                            "worst-case admission latency for " + op + " " + request(group, resource) + " is " + total
                                    + " s, over the budget of " + BUDGET_SECONDS + " s: " + String.join(" + ", steps)
                                    + ". Lower the timeouts (a healthy webhook answers in milliseconds), narrow the "
                                    + "rules so fewer webhooks match the same requests, or avoid reinvocation"));
                }
            }
        }
        return List.copyOf(findings.values());
    }

    private static String describe(WebhookRef w) {
        return w.id() + " " + w.label();
    }

    private static String request(String group, String resource) {
        String g = group.equals(OTHER) ? "*" : group.isEmpty() ? "core" : group;
        return g + "/" + resource.replace(OTHER, "*");
    }
}

package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.validate.Finding;

import java.util.ArrayList;
import java.util.LinkedHashMap;
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
        // Parallel lists, not a map: identical webhooks in duplicated objects must each count.
        List<List<MatchRule>> rules = new ArrayList<>();
        Set<String> groups = new TreeSet<>();
        Set<String> resources = new TreeSet<>();
        groups.add(OTHER);
        resources.add(OTHER);
        resources.add(OTHER + "/" + OTHER);
        for (WebhookRef w : webhooks) {
            List<MatchRule> rs = w.rules();
            rules.add(rs);
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
        // Precompute, per rule, which probe groups, resources and operations it matches: the enumeration below
        // then only looks up booleans (the corpus as one input is ~50 groups x ~250 resources x 4 operations).
        List<String> groupList = List.copyOf(groups);
        List<String> resourceList = List.copyOf(resources);
        List<WebhookRef> hooks = webhooks;
        List<boolean[][]> matrices = new ArrayList<>(); // per webhook: per rule {groups[], resources[], ops[]}
        for (List<MatchRule> rs : rules) {
            boolean[][] m = new boolean[rs.size() * 3][];
            for (int i = 0; i < rs.size(); i++) {
                MatchRule r = rs.get(i);
                m[3 * i] = new boolean[groupList.size()];
                for (int g = 0; g < groupList.size(); g++) {
                    m[3 * i][g] = r.matchesGroup(groupList.get(g));
                }
                m[3 * i + 1] = new boolean[resourceList.size()];
                for (int x = 0; x < resourceList.size(); x++) {
                    m[3 * i + 1][x] = r.matchesResource(resourceList.get(x)) && r.matchesScopeOf(resourceList.get(x));
                }
                m[3 * i + 2] = new boolean[MatchRule.OPERATIONS.size()];
                for (int o = 0; o < MatchRule.OPERATIONS.size(); o++) {
                    m[3 * i + 2][o] = r.matchesOperation(MatchRule.OPERATIONS.get(o));
                }
            }
            matrices.add(m);
        }
        // One finding per distinct chain of webhooks, naming the first request that produces it.
        Map<java.util.BitSet, Finding> findings = new LinkedHashMap<>();
        int[] timeouts = hooks.stream().mapToInt(WebhookRef::timeoutSeconds).toArray();
        boolean[] reinvoked = new boolean[hooks.size()];
        for (int h = 0; h < hooks.size(); h++) {
            reinvoked[h] = hooks.get(h).reinvocationPolicy().orElse("Never").equals("IfNeeded");
        }
        for (int o = 0; o < MatchRule.OPERATIONS.size(); o++) {
            String op = MatchRule.OPERATIONS.get(o);
            for (int g = 0; g < groupList.size(); g++) {
                String group = groupList.get(g);
                for (int x = 0; x < resourceList.size(); x++) {
                    String resource = resourceList.get(x);
                    // Cheap first pass: the total, and the chain as webhook indices.
                    int total = 0;
                    int slowest = -1;
                    java.util.BitSet chain = new java.util.BitSet(hooks.size());
                    for (int h = 0; h < hooks.size(); h++) {
                        boolean[][] m = matrices.get(h);
                        boolean hit = false;
                        for (int i = 0; i < m.length && !hit; i += 3) {
                            hit = m[i][g] && m[i + 1][x] && m[i + 2][o];
                        }
                        if (!hit) {
                            continue;
                        }
                        WebhookRef w = hooks.get(h);
                        if (w.mutating()) {
                            total += timeouts[h] * (reinvoked[h] ? 2 : 1);
                            chain.set(h);
                        } else if (slowest < 0 || timeouts[h] > timeouts[slowest]) {
                            slowest = h;
                        }
                    }
                    if (slowest >= 0) {
                        total += timeouts[slowest];
                        chain.set(slowest);
                    }
                    if (total <= BUDGET_SECONDS || findings.containsKey(chain)) {
                        continue;
                    }
                    List<WebhookRef> mutating = new ArrayList<>();
                    chain.stream().filter(h -> hooks.get(h).mutating()).forEach(h -> mutating.add(hooks.get(h)));
                    List<String> steps = new ArrayList<>();
                    for (WebhookRef w : mutating) {
                        boolean again = w.reinvocationPolicy().orElse("Never").equals("IfNeeded");
                        steps.add(describe(w) + " " + w.timeoutSeconds() + " s" + (again ? " x2 (IfNeeded)" : ""));
                    }
                    WebhookRef slowestHook = slowest < 0 ? null : hooks.get(slowest);
                    if (slowestHook != null) {
                        steps.add(describe(slowestHook) + " " + slowestHook.timeoutSeconds() + " s (slowest validating)");
                    }
                    WebhookRef blame = mutating.isEmpty() ? slowestHook : mutating.stream()
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

package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.chain.WorstCaseLatency;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.intercept.KubeResources;
import dev.policyset.aps.core.intercept.LabelSelector;
import dev.policyset.aps.core.intercept.Operation;
import dev.policyset.aps.core.intercept.Rule;

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
 * IfNeeded ones again, plus the slowest validating timeout ({@link WorstCaseLatency}, shared with {@code aps chain}). Fail-open webhooks count too: a timeout costs the
 * same time whatever happens after it. Policies run in-process and are not counted.
 *
 * <p>Requests are enumerated exactly enough for matching: every group, resource and subresource named by some
 * rule plus a stand-in for "any other", times the four operations. Webhooks count together only when one request
 * can satisfy their selectors together ({@link LabelSelector#satisfiable}): Istio's four injector webhooks, each
 * for a different namespace or object label, are not one chain. matchConditions are ignored (worst case).
 */
public final class Aps302LatencyBudget implements SafetyRule {
    static final int BUDGET_SECONDS = WorstCaseLatency.BUDGET_SECONDS;
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
        List<List<Rule>> rules = new ArrayList<>();
        Set<String> groups = new TreeSet<>();
        Set<String> resources = new TreeSet<>();
        groups.add(OTHER);
        resources.add(OTHER);
        resources.add(OTHER + "/" + OTHER);
        for (WebhookRef w : webhooks) {
            List<Rule> rs = w.rules();
            rules.add(rs);
            for (Rule r : rs) {
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
        for (List<Rule> rs : rules) {
            boolean[][] m = new boolean[rs.size() * 3][];
            for (int i = 0; i < rs.size(); i++) {
                Rule r = rs.get(i);
                m[3 * i] = new boolean[groupList.size()];
                for (int g = 0; g < groupList.size(); g++) {
                    m[3 * i][g] = r.matchesGroup(groupList.get(g));
                }
                m[3 * i + 1] = new boolean[resourceList.size()];
                for (int x = 0; x < resourceList.size(); x++) {
                    m[3 * i + 1][x] = matchesResource(r, resourceList.get(x));
                }
                m[3 * i + 2] = new boolean[OPERATIONS.length];
                for (int o = 0; o < OPERATIONS.length; o++) {
                    m[3 * i + 2][o] = r.matchesOperation(OPERATIONS[o]);
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
        for (int o = 0; o < OPERATIONS.length; o++) {
            String op = OPERATIONS[o].name();
            for (int g = 0; g < groupList.size(); g++) {
                String group = groupList.get(g);
                for (int x = 0; x < resourceList.size(); x++) {
                    String resource = resourceList.get(x);
                    // Cheap first pass: the total, and the chain as webhook indices.
                    WorstCaseLatency latency = new WorstCaseLatency();
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
                            latency.addMutating(timeouts[h], reinvoked[h]);
                            chain.set(h);
                        } else {
                            latency.addValidating(timeouts[h]);
                            if (slowest < 0 || timeouts[h] > timeouts[slowest]) {
                                slowest = h;
                            }
                        }
                    }
                    if (slowest >= 0) {
                        chain.set(slowest);
                    }
                    int total = latency.totalSeconds();
                    if (!latency.overBudget()) {
                        continue;
                    }
                    // Over budget if every matching webhook could see the same request: find the slowest chain whose
                    // selectors one request can satisfy together.
                    Chain worst = worstChain(hooks, chain, timeouts, reinvoked, OPERATIONS[o], namespaced(resource));
                    total = worst.total();
                    chain = worst.members();
                    slowest = worst.validating();
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

    private static final Operation[] OPERATIONS = Operation.values();

    /** A chain of webhooks for one request: its worst-case total, its members, the validating one (or -1). */
    private record Chain(int total, java.util.BitSet members, int validating) {}

    /**
     * The slowest chain among {@code matched} (webhooks whose rules match the request) that one request can reach
     * together: their namespaceSelectors must be satisfiable by one namespace (for namespaced resources), their
     * objectSelectors by one object for CREATE and DELETE (an UPDATE is selected by the new <em>or</em> the old
     * object's labels, so two webhooks may each see one of them). Exhaustive over subsets with pruning; the
     * webhooks that match one request are few.
     */
    private static Chain worstChain(List<WebhookRef> hooks, java.util.BitSet matched, int[] timeouts, boolean[] reinvoked,
                                    Operation op, boolean namespaced) {
        List<Integer> mutating = new ArrayList<>();
        List<Integer> validating = new ArrayList<>();
        matched.stream().forEach(h -> (hooks.get(h).mutating() ? mutating : validating).add(h));
        mutating.sort(java.util.Comparator.comparingInt((Integer h) -> -WorstCaseLatency.mutatingCost(timeouts[h], reinvoked[h])));
        boolean twoObjects = op == Operation.UPDATE;
        Chain best = new Chain(0, new java.util.BitSet(), -1);
        List<Integer> choices = new ArrayList<>(validating);
        choices.add(-1);
        for (int v : choices) {
            List<Integer> base = v < 0 ? List.of() : List.of(v);
            List<Integer> pool = mutating.stream().filter(m -> together(hooks, base, m, namespaced, twoObjects)).toList();
            java.util.BitSet chosen = new java.util.BitSet();
            int[] bestSum = {-1};
            java.util.BitSet[] bestSet = {new java.util.BitSet()};
            search(hooks, pool, 0, new ArrayList<>(base), 0, timeouts, reinvoked, namespaced, twoObjects, bestSum, bestSet, chosen);
            int total = bestSum[0] + (v < 0 ? 0 : timeouts[v]);
            if (total > best.total()) {
                java.util.BitSet members = (java.util.BitSet) bestSet[0].clone();
                if (v >= 0) {
                    members.set(v);
                }
                best = new Chain(total, members, v);
            }
        }
        return best;
    }

    private static void search(List<WebhookRef> hooks, List<Integer> pool, int i, List<Integer> current, int sum,
                               int[] timeouts, boolean[] reinvoked, boolean namespaced, boolean twoObjects,
                               int[] bestSum, java.util.BitSet[] bestSet, java.util.BitSet chosen) {
        if (sum > bestSum[0]) {
            bestSum[0] = sum;
            bestSet[0] = (java.util.BitSet) chosen.clone();
        }
        int rest = 0;
        for (int k = i; k < pool.size(); k++) {
            rest += WorstCaseLatency.mutatingCost(timeouts[pool.get(k)], reinvoked[pool.get(k)]);
        }
        if (i >= pool.size() || sum + rest <= bestSum[0]) {
            return;
        }
        int h = pool.get(i);
        if (together(hooks, current, h, namespaced, twoObjects)) {
            current.add(h);
            chosen.set(h);
            search(hooks, pool, i + 1, current, sum + WorstCaseLatency.mutatingCost(timeouts[h], reinvoked[h]), timeouts, reinvoked,
                    namespaced, twoObjects, bestSum, bestSet, chosen);
            chosen.clear(h);
            current.remove(current.size() - 1);
        }
        search(hooks, pool, i + 1, current, sum, timeouts, reinvoked, namespaced, twoObjects, bestSum, bestSet, chosen);
    }

    /**
     * Whether webhook {@code h} can see one request together with all of {@code others}: one namespace satisfies their
     * namespaceSelectors (namespaced resources), and one object satisfies their objectSelectors, or for an UPDATE two
     * (the new and the old object: each webhook needs one of them).
     */
    private static boolean together(List<WebhookRef> hooks, List<Integer> others, int h, boolean namespaced, boolean twoObjects) {
        if (others.isEmpty()) {
            return true;
        }
        List<Integer> all = new ArrayList<>(others);
        all.add(h);
        if (namespaced && !LabelSelector.satisfiable(all.stream().map(k -> hooks.get(k).namespaceSelector()).toList())) {
            return false;
        }
        List<LabelSelector> objects = all.stream().map(k -> hooks.get(k).objectSelector()).toList();
        return twoObjects ? coverableByTwo(objects) : LabelSelector.satisfiable(objects);
    }

    /** Whether the selectors split into two groups each satisfiable by one label set (beyond 12: assumed so). */
    private static boolean coverableByTwo(List<LabelSelector> selectors) {
        int n = selectors.size();
        if (n > 12 || LabelSelector.satisfiable(selectors)) {
            return true;
        }
        for (int mask = 1; mask < (1 << (n - 1)); mask++) {
            List<LabelSelector> a = new ArrayList<>();
            List<LabelSelector> b = new ArrayList<>();
            for (int k = 0; k < n; k++) {
                ((mask >> k & 1) == 1 ? a : b).add(selectors.get(k));
            }
            if (LabelSelector.satisfiable(a) && LabelSelector.satisfiable(b)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a namespaceSelector applies to requests for this probe resource: known namespaced, or a Namespace. */
    private static boolean namespaced(String resource) {
        String main = resource.contains("/") ? resource.substring(0, resource.indexOf('/')) : resource;
        return main.equals("namespaces") || !KubeResources.mayBeClusterScoped(main);
    }

    /**
     * Whether the rule matches {@code resource} ("pods", "pods/status") in some scope it can have: a rule limited
     * to one scope does not match a built-in resource known to have the other one.
     */
    private static boolean matchesResource(Rule r, String resource) {
        int slash = resource.indexOf('/');
        String main = slash < 0 ? resource : resource.substring(0, slash);
        String sub = slash < 0 ? "" : resource.substring(slash + 1);
        if (!r.matchesResource(main, sub)) {
            return false;
        }
        return switch (r.scope()) {
            case "Cluster" -> KubeResources.mayBeClusterScoped(main);
            case "Namespaced" -> KubeResources.mayBeNamespaced(main);
            default -> true;
        };
    }

    private static String describe(WebhookRef w) {
        return w.id() + " " + w.label();
    }

    private static String request(String group, String resource) {
        String g = group.equals(OTHER) ? "*" : group.isEmpty() ? "core" : group;
        return g + "/" + resource.replace(OTHER, "*");
    }
}

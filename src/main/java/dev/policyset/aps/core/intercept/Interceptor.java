package dev.policyset.aps.core.intercept;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What one webhook, or one policy through one binding, intercepts: the requests the API server sends to it.
 *
 * <p>Usage: build it from the rendered JSON and ask about a request.
 * <pre>{@code
 * Interceptor hook = Interceptor.ofWebhook(configuration.manifest().get("webhooks").get(0), "webhooks[0]");
 * Interceptor bound = Interceptor.ofBinding(policy.content(), binding.content());   // the two specs
 * Verdict v = bound.match(AdmissionRequest.of("apps", "v1", "deployments", Operation.CREATE)
 *         .inNamespace("team-a", Map.of()).withObjectLabels(Map.of("app", "web")));
 * if (v.matches()) ...                      // the API server evaluates the policy for this request
 * else if (v.undecided()) v.conditionsToEvaluate() ...   // evaluate these matchConditions (CEL) yourself
 * }</pre>
 * A concrete request (one operation, labels known exactly, name and version set) is answered MATCHES or NO_MATCH,
 * or UNDECIDED only because of matchConditions the model does not evaluate (listed in the verdict). A symbolic
 * request may also be UNDECIDED because of what it leaves open (see {@link LabelSet}, {@link AdmissionRequest}).
 *
 * <p>The decision follows the API server, step by step: requests for admission configuration objects themselves
 * are never intercepted ({@code rules.IsExemptAdmissionConfigurationResource}); then for each set of criteria (a
 * webhook has one; a binding adds its matchResources to the policy's matchConstraints, and both must match):
 * namespaceSelector ({@code namespace/matcher.go}: cluster-scoped objects other than namespaces are never excluded;
 * a Namespace object created or updated is judged by its own labels), objectSelector ({@code object/matcher.go}:
 * the object's or the old object's labels), excludeResourceRules, rules (with {@code matchPolicy: Equivalent}, the
 * default, also any other version of the same resource and the equivalents in {@link KubeResources}); finally the
 * matchConditions.
 */
public final class Interceptor {
    private static final Set<String> EXEMPT_CONFIGURATION = Set.of("validatingwebhookconfigurations",
            "mutatingwebhookconfigurations", "validatingadmissionpolicies", "validatingadmissionpolicybindings",
            "mutatingadmissionpolicies", "mutatingadmissionpolicybindings");

    /** One set of match criteria: a webhook's fields, a policy's matchConstraints or a binding's matchResources. */
    record Criteria(String path, List<Rule> rules, boolean noRulesMatchAll, List<Rule> excludeRules, boolean equivalent,
                    LabelSelector namespaceSelector, LabelSelector objectSelector) {}

    private final List<Criteria> criteria;
    private final List<MatchCondition> conditions;

    private Interceptor(List<Criteria> criteria, List<MatchCondition> conditions) {
        this.criteria = List.copyOf(criteria);
        this.conditions = List.copyOf(conditions);
    }

    /**
     * A webhook of a Validating/MutatingWebhookConfiguration ({@code webhooks[i]}); {@code path} is how reasons
     * name it, e.g. {@code webhooks[0]}. A webhook without rules intercepts nothing.
     */
    public static Interceptor ofWebhook(JsonNode webhook, String path) {
        return new Interceptor(List.of(read(webhook, path, "rules", false)),
                MatchCondition.readAll(webhook == null ? null : webhook.get("matchConditions"), path + ".matchConditions"));
    }

    /**
     * A ValidatingAdmissionPolicy or MutatingAdmissionPolicy through one binding: {@code policySpec} and
     * {@code bindingSpec} are the two objects' {@code spec}. A binding without matchResources adds nothing; a policy
     * without matchConstraints matches nothing ({@code DefinitionMatches}). Reasons name the policy's fields
     * {@code policy spec.…} and the binding's {@code binding spec.…}.
     */
    public static Interceptor ofBinding(JsonNode policySpec, JsonNode bindingSpec) {
        List<Criteria> list = new ArrayList<>();
        list.add(policyCriteria(policySpec));
        JsonNode mr = bindingSpec == null ? null : bindingSpec.get("matchResources");
        if (mr != null && mr.isObject()) {
            list.add(read(mr, "binding spec.matchResources", "resourceRules", true));
        }
        return new Interceptor(list, conditions(policySpec));
    }

    /** A policy through a binding that does not narrow it (no matchResources): what the policy alone can see. */
    public static Interceptor ofPolicy(JsonNode policySpec) {
        return new Interceptor(List.of(policyCriteria(policySpec)), conditions(policySpec));
    }

    private static List<MatchCondition> conditions(JsonNode policySpec) {
        return MatchCondition.readAll(policySpec == null ? null : policySpec.get("matchConditions"), "policy spec.matchConditions");
    }

    private static Criteria policyCriteria(JsonNode policySpec) {
        JsonNode mc = policySpec == null ? null : policySpec.get("matchConstraints");
        if (mc == null || !mc.isObject()) {
            return new Criteria("policy spec.matchConstraints", List.of(), false, List.of(), false,
                    LabelSelector.EVERYTHING, LabelSelector.EVERYTHING);
        }
        return read(mc, "policy spec.matchConstraints", "resourceRules", true);
    }

    private static Criteria read(JsonNode node, String path, String rulesField, boolean policy) {
        if (node == null || !node.isObject()) {
            return new Criteria(path, List.of(), false, List.of(), false, LabelSelector.EVERYTHING, LabelSelector.EVERYTHING);
        }
        JsonNode mp = node.get("matchPolicy");
        boolean equivalent = mp == null || !mp.isTextual() || !mp.asText().equals("Exact");
        return new Criteria(path, Rule.readAll(node.get(rulesField), path + "." + rulesField), policy,
                policy ? Rule.readAll(node.get("excludeResourceRules"), path + ".excludeResourceRules") : List.of(),
                equivalent, LabelSelector.read(node.get("namespaceSelector")), LabelSelector.read(node.get("objectSelector")));
    }

    /** The matchConditions, in order. */
    public List<MatchCondition> conditions() {
        return conditions;
    }

    /** The rules of the first criteria (the webhook's rules, or the policy's resourceRules). */
    public List<Rule> rules() {
        return criteria.get(0).rules();
    }

    /**
     * Whether the API server sends {@code request} to this webhook or policy. For several operations: whether it
     * does for at least one of them (the verdict of the first that matches, else the most open one).
     */
    public Verdict match(AdmissionRequest request) {
        if (request.operations().size() == 1) {
            return matchOne(request);
        }
        Verdict best = null;
        for (Operation op : EnumSet.copyOf(request.operations().isEmpty() ? EnumSet.noneOf(Operation.class) : request.operations())) {
            Verdict v = matchOne(single(request, op));
            if (v.matches()) {
                return v;
            }
            if (best == null || (v.undecided() && !best.undecided())) {
                best = v;
            }
        }
        return best != null ? best : new Verdict(Verdict.Outcome.NO_MATCH, List.of("the request names no operation"), List.of());
    }

    /** One operation of a symbolic request, with the object and old object that operation carries. */
    private static AdmissionRequest single(AdmissionRequest r, Operation op) {
        LabelSet any = r.object() != null ? r.object() : r.oldObject() != null ? r.oldObject() : LabelSet.NONE;
        LabelSet anyOld = r.oldObject() != null ? r.oldObject() : any;
        return new AdmissionRequest(r.group(), r.version(), r.resource(), r.subresource(), Set.of(op), r.name(),
                r.namespace(), r.namespaceLabels(),
                op == Operation.CREATE || op == Operation.UPDATE ? any : null,
                op == Operation.UPDATE || op == Operation.DELETE ? anyOld : null, r.kind());
    }

    private Verdict matchOne(AdmissionRequest r) {
        Operation op = r.operations().iterator().next();
        List<String> reasons = new ArrayList<>();
        if (r.group().equals("admissionregistration.k8s.io") && EXEMPT_CONFIGURATION.contains(r.resource())) {
            return new Verdict(Verdict.Outcome.NO_MATCH, List.of("the API server never sends requests for admission "
                    + "configuration objects (" + r.resource() + ") to webhooks or policies"), List.of());
        }
        Tri result = Tri.YES;
        for (Criteria c : criteria) {
            result = result.and(criteria(c, r, op, reasons));
            if (result == Tri.NO) {
                return new Verdict(Verdict.Outcome.NO_MATCH, reasons, List.of());
            }
        }
        List<MatchCondition> open = new ArrayList<>();
        for (MatchCondition mc : conditions) {
            Tri t = mc.evaluate(r);
            if (t == Tri.NO) {
                return new Verdict(Verdict.Outcome.NO_MATCH, List.of(mc.label() + " is false for " + op + " " + r.describe()), List.of());
            }
            if (t == Tri.UNKNOWN) {
                open.add(mc);
                reasons.add(mc.label() + " is CEL this model does not evaluate");
            }
        }
        result = result.and(open.isEmpty() ? Tri.YES : Tri.UNKNOWN);
        return new Verdict(result == Tri.YES ? Verdict.Outcome.MATCHES : Verdict.Outcome.UNDECIDED, reasons, open);
    }

    private static Tri criteria(Criteria c, AdmissionRequest r, Operation op, List<String> reasons) {
        // namespace/matcher.go MatchNamespaceSelector
        if (!(r.namespace().isEmpty() && !r.isNamespaceObject()) && !c.namespaceSelector().isEmpty()) {
            boolean ownLabels = r.isNamespaceObject() && r.subresource().isEmpty()
                    && (op == Operation.CREATE || op == Operation.UPDATE) && r.object() != null;
            LabelSelector.Judgement j = c.namespaceSelector().evaluate(ownLabels ? r.object() : r.namespaceLabels());
            String ns = r.isNamespaceObject() ? "the namespace" : "namespace " + r.namespace();
            if (j.value() == Tri.NO) {
                reasons.add(0, c.path() + ".namespaceSelector excludes " + ns + " (" + j.because() + ")");
                return Tri.NO;
            }
            if (j.value() == Tri.UNKNOWN) {
                reasons.add(c.path() + ".namespaceSelector admits " + ns + " unless it carries a label that opts it out ("
                        + j.because() + ")");
                return andRest(Tri.UNKNOWN, c, r, op, reasons);
            }
        }
        return andRest(Tri.YES, c, r, op, reasons);
    }

    private static Tri andRest(Tri soFar, Criteria c, AdmissionRequest r, Operation op, List<String> reasons) {
        // object/matcher.go MatchObjectSelector: the object's labels or the old object's
        if (!c.objectSelector().isEmpty()) {
            LabelSelector.Judgement a = r.object() == null ? new LabelSelector.Judgement(Tri.NO, "no object") : c.objectSelector().evaluate(r.object());
            LabelSelector.Judgement b = r.oldObject() == null ? new LabelSelector.Judgement(Tri.NO, "no old object") : c.objectSelector().evaluate(r.oldObject());
            Tri t = a.value().or(b.value());
            if (t == Tri.NO) {
                reasons.add(0, c.path() + ".objectSelector does not select the object (" + a.because() + ")");
                return Tri.NO;
            }
            if (t == Tri.UNKNOWN) {
                reasons.add(c.path() + ".objectSelector selects the object unless it carries a label that opts it out ("
                        + (a.value() == Tri.UNKNOWN ? a.because() : b.because()) + ")");
                soFar = soFar.and(Tri.UNKNOWN);
            }
        }
        // matching.go: excludeResourceRules first
        for (Rule x : c.excludeRules()) {
            Tri t = rule(x, c.equivalent(), r, op);
            if (t == Tri.YES) {
                reasons.add(0, x.path() + " excludes " + op + " " + r.describe());
                return Tri.NO;
            }
            if (t == Tri.UNKNOWN) {
                reasons.add(x.path() + " excludes it if the object's name is one of " + x.resourceNames());
                soFar = soFar.and(Tri.UNKNOWN);
            }
        }
        if (c.rules().isEmpty()) {
            if (c.noRulesMatchAll()) {
                return soFar;
            }
            reasons.add(0, c.path() + " has no rules: it intercepts nothing");
            return Tri.NO;
        }
        Tri any = Tri.NO;
        String hit = null;
        for (Rule x : c.rules()) {
            Tri t = rule(x, c.equivalent(), r, op);
            if (t != Tri.NO && (hit == null || t == Tri.YES && any != Tri.YES)) {
                hit = x.path() + (t == Tri.YES ? " matches " + op + " " + r.describe()
                        : " matches it if the object's name is one of " + x.resourceNames());
            }
            any = any.or(t);
            if (any == Tri.YES) {
                break;
            }
        }
        if (any == Tri.NO) {
            reasons.add(0, "no rule of " + c.path() + " matches " + op + " " + r.describe());
            return Tri.NO;
        }
        reasons.add(0, hit);
        return soFar.and(any);
    }

    /** rules.go Matcher.Matches, then (matchPolicy Equivalent) the same for each equivalent resource; resourceNames last. */
    private static Tri rule(Rule x, boolean equivalent, AdmissionRequest r, Operation op) {
        boolean hit = one(x, r.group(), r.version(), r.resource(), r, op);
        if (!hit && equivalent) {
            hit = one(x, r.group(), null, r.resource(), r, op);
            for (String eq : KubeResources.equivalentsOf(r.group(), r.resource())) {
                int slash = eq.indexOf('/');
                hit = hit || one(x, eq.substring(0, slash), null, eq.substring(slash + 1), r, op);
            }
        }
        if (!hit) {
            return Tri.NO;
        }
        if (x.resourceNames().isEmpty()) {
            return Tri.YES;
        }
        return r.name() == null ? Tri.UNKNOWN : Tri.of(x.resourceNames().contains(r.name()));
    }

    /** One rule against one group/version/resource; {@code version} null: any version the rule lists. */
    private static boolean one(Rule x, String group, String version, String resource, AdmissionRequest r, Operation op) {
        boolean namespaceObject = group.isEmpty() && resource.equals("namespaces");
        return x.matchesScope(!r.namespace().isEmpty(), namespaceObject)
                && x.matchesOperation(op)
                && x.matchesGroup(group)
                && (version == null ? !x.versions().isEmpty() : x.matchesVersion(version))
                && x.matchesResource(resource, r.subresource());
    }
}

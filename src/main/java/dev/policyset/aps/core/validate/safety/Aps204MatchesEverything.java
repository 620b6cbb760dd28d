package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.intercept.Rule;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.render.RenderedObject;

import java.util.ArrayList;
import java.util.List;

/**
 * APS204: an object matches everything: a rule with {@code *} API groups, {@code *} (or {@code * /*}) resources
 * and {@code *} operations (or at least CREATE and UPDATE: every write that makes or changes an object), or a
 * webhook with no rules at all. A catch-all sits in the path of every write in the
 * cluster, including those the control plane needs.
 */
public final class Aps204MatchesEverything implements SafetyRule {
    @Override
    public String id() {
        return "APS204";
    }

    @Override
    public List<Finding> check(SafetyContext context) {
        List<Finding> out = new ArrayList<>();
        for (WebhookRef w : WebhookRef.all(context)) {
            List<Rule> rules = w.rules();
            if (rules.isEmpty()) {
                out.add(Finding.warning(id(), w.id(), w.field("rules"),
                        w.label() + " has no rules: as written it intercepts nothing, and whatever fills in its rules "
                                + "later (a controller at runtime) decides what it intercepts, unseen by this check. "
                                + "List the resources and operations it is for"));
                continue;
            }
            rules.stream().filter(Rule::matchesEverything).forEach(r -> out.add(Finding.warning(id(), w.id(), r.path(),
                    w.label() + " matches every write to every resource of every API group (" + w.failureDescription()
                            + "): it is in the path of every write in the cluster. List the groups, resources and "
                            + "operations it needs")));
        }
        java.util.Map<String, List<RenderedObject>> bindings = new java.util.HashMap<>();
        for (var s : context.subjects()) {
            RenderedObject b = s.object();
            Subjects.policyKindOf(b.kind()).ifPresent(k -> Subjects.text(b.content(), "policyName").ifPresent(n ->
                    bindings.computeIfAbsent(k.kind() + "/" + n, x -> new ArrayList<>()).add(b)));
        }
        for (AdmissionKind kind : List.of(AdmissionKind.VALIDATING_ADMISSION_POLICY, AdmissionKind.MUTATING_ADMISSION_POLICY)) {
            for (RenderedObject p : Subjects.ofKind(context, kind)) {
                if (everyBindingNarrows(bindings.getOrDefault(p.id(), List.of()))) {
                    continue;
                }
                Rule.readAll(p.content().path("matchConstraints").get("resourceRules"), "spec.matchConstraints.resourceRules")
                        .stream().filter(Rule::matchesEverything)
                        .forEach(r -> out.add(Finding.warning(id(), p.id(), r.path(),
                                "the policy matches every write to every resource of every API group: it is evaluated "
                                        + "for every write in the cluster and, failing closed, can block the control plane. "
                                        + "List the groups, resources and operations it needs (or narrow every "
                                        + "binding with matchResources.resourceRules)")));
            }
        }
        return out;
    }

    /**
     * A policy's bindings can only narrow what it matches. When the input has bindings for the policy and each
     * of them lists its own resourceRules, no request reaches the policy through the catch-all. Without any
     * binding in the input, the first binding made without resourceRules would.
     */
    private static boolean everyBindingNarrows(List<RenderedObject> bindings) {
        return !bindings.isEmpty() && bindings.stream().allMatch(b ->
                !Rule.readAll(b.content().path("matchResources").get("resourceRules"), "").isEmpty());
    }
}

package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.intercept.KubeResources;
import dev.policyset.aps.core.intercept.Rule;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.render.RenderedObject;

import java.util.ArrayList;
import java.util.List;

/**
 * APS206: a rule names only the core API group {@code ""} together with a resource the core group does not
 * have (typically {@code deployments}, which is in {@code apps}). The rule never matches that resource, so the
 * check silently does nothing for it. Added from the corpus, where it is the most common risk in policies.
 */
public final class Aps206UnmatchableCoreRule implements SafetyRule {
    @Override
    public String id() {
        return "APS206";
    }

    @Override
    public List<Finding> check(SafetyContext context) {
        List<Finding> out = new ArrayList<>();
        for (WebhookRef w : WebhookRef.all(context)) {
            judge(out, w.id(), w.rules());
        }
        for (AdmissionKind kind : List.of(AdmissionKind.VALIDATING_ADMISSION_POLICY, AdmissionKind.MUTATING_ADMISSION_POLICY)) {
            for (RenderedObject p : Subjects.ofKind(context, kind)) {
                judge(out, p.id(), Rule.readAll(p.content().path("matchConstraints").get("resourceRules"),
                        "spec.matchConstraints.resourceRules"));
            }
        }
        for (AdmissionKind kind : List.of(AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING, AdmissionKind.MUTATING_ADMISSION_POLICY_BINDING)) {
            for (RenderedObject b : Subjects.ofKind(context, kind)) {
                judge(out, b.id(), Rule.readAll(b.content().path("matchResources").get("resourceRules"),
                        "spec.matchResources.resourceRules"));
            }
        }
        return out;
    }

    private void judge(List<Finding> out, String object, List<Rule> rules) {
        for (Rule r : rules) {
            if (r.groups().isEmpty() || !r.groups().stream().allMatch(String::isEmpty)) {
                continue;
            }
            List<String> foreign = r.resources().stream()
                    .map(res -> res.contains("/") ? res.substring(0, res.indexOf('/')) : res)
                    .filter(res -> !res.equals("*") && !KubeResources.CORE_RESOURCES.contains(res))
                    .distinct().toList();
            if (!foreign.isEmpty()) {
                out.add(Finding.warning(id(), object, r.path() + ".resources",
                        "apiGroups is [\"\"] (the core group) but " + String.join(", ", foreign)
                                + (foreign.size() == 1 ? " is" : " are") + " not core resources: this rule never matches "
                                + (foreign.size() == 1 ? "it" : "them") + ". Add the resource's group to apiGroups "
                                + "(deployments, statefulsets, daemonsets, replicasets: \"apps\"; jobs, cronjobs: \"batch\")"));
            }
        }
    }
}

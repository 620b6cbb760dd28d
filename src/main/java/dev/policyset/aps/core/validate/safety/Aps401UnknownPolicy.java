package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.validate.ValidationSubject;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * APS401: a binding names a policy that neither the input nor the cluster ({@code ValidationOptions.cluster}, or
 * {@code clusterPolicies})
 * has. The API server accepts such a binding, and it silently does nothing.
 */
public final class Aps401UnknownPolicy implements SafetyRule {
    @Override
    public String id() {
        return "APS401";
    }

    @Override
    public List<Finding> check(SafetyContext context) {
        Set<String> known = new HashSet<>(context.options().clusterPolicies());
        context.subjects().stream().map(ValidationSubject::object).map(RenderedObject::id).forEach(known::add);
        List<Finding> out = new ArrayList<>();
        for (ValidationSubject s : context.subjects()) {
            RenderedObject b = s.object();
            var policyKind = Subjects.policyKindOf(b.kind());
            if (policyKind.isEmpty()) {
                continue;
            }
            String name = Subjects.text(b.content(), "policyName").orElse("");
            if (name.isEmpty() || known.contains(policyKind.get().kind() + "/" + name)
                    || context.options().cluster().find(policyKind.get(), name).isPresent()) {
                continue;
            }
            out.add(Finding.error(id(), b.id(), "spec.policyName",
                    "the binding names " + policyKind.get().kind() + " \"" + name + "\", which is neither in "
                            + (s.setName() != null ? "the set" : "the validated input") + " nor in the cluster: the binding "
                            + "has no effect. Fix the name, or add the policy"));
        }
        return out;
    }
}

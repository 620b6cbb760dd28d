package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.validate.ValidationSubject;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** APS402: a policy that no binding in the input names. A policy without a binding has no effect. */
public final class Aps402UnboundPolicy implements SafetyRule {
    @Override
    public String id() {
        return "APS402";
    }

    @Override
    public List<Finding> check(SafetyContext context) {
        Set<String> bound = new HashSet<>();
        for (ValidationSubject s : context.subjects()) {
            Subjects.policyKindOf(s.object().kind()).ifPresent(kind ->
                    Subjects.text(s.object().content(), "policyName").ifPresent(n -> bound.add(kind.kind() + "/" + n)));
        }
        List<Finding> out = new ArrayList<>();
        for (ValidationSubject s : context.subjects()) {
            RenderedObject p = s.object();
            boolean policy = switch (p.kind()) {
                case VALIDATING_ADMISSION_POLICY, MUTATING_ADMISSION_POLICY -> true;
                default -> false;
            };
            if (policy && !bound.contains(p.id())) {
                out.add(Finding.warning(id(), p.id(), "",
                        "no binding names this policy, so it is never evaluated. Add a binding (in a set: leave "
                                + "bindings out to get the default <name>-binding), or remove the policy if it is staged "
                                + "on purpose"));
            }
        }
        return out;
    }
}

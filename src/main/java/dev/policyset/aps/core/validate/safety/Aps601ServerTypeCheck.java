package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.LiveObject;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.validate.ValidationSubject;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * APS601: the API server's own type check of an applied ValidatingAdmissionPolicy warns
 * ({@code status.typeChecking.expressionWarnings}, written by the policy's type-checking controller,
 * {@code plugin/policy/validating/typechecking.go}), e.g. a field the referenced kind does not have.
 *
 * <p>Only a check of what the set renders now is reported: the live policy must carry every rendered field
 * (otherwise it is about to be rewritten and checked again), and its {@code status.observedGeneration} must be
 * its {@code metadata.generation} (otherwise the warnings describe an earlier version of the policy).
 */
public final class Aps601ServerTypeCheck implements SafetyRule {
    @Override
    public String id() {
        return "APS601";
    }

    @Override
    public List<Finding> check(SafetyContext context) {
        List<Finding> out = new ArrayList<>();
        for (ValidationSubject s : context.subjects()) {
            RenderedObject o = s.object();
            if (o.kind() != AdmissionKind.VALIDATING_ADMISSION_POLICY || s.setName() == null) {
                continue;
            }
            Optional<LiveObject> live = context.options().cluster().find(o.kind(), o.name())
                    .filter(l -> l.isLabelledFor(s.setName()))
                    .filter(l -> l.observedGeneration().filter(g -> g == l.generation()).isPresent())
                    .filter(l -> l.carries(o.manifest()));
            for (LiveObject.TypeCheckWarning w : live.map(LiveObject::typeCheckWarnings).orElse(List.of())) {
                out.add(Finding.warning(id(), o.id(), w.fieldRef(), "the API server's type check warns: " + w.warning()
                        + "; fix the expression (it may fail at admission time)"));
            }
        }
        return out;
    }
}

package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.cel.KubernetesCelEnvironment;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.validate.ValidationSubject;
import dev.policyset.aps.core.validate.typecheck.PolicyTypeCheck;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * APS605: an {@code Object} initializer in a mutation is not named for the field path it sits at
 * ({@code Object{spec: Object.specx{...}}}; lists and maps add nothing to the path).
 *
 * <p>Risk model: the initializers are schemaless, so the compiler accepts any name, but after evaluating the
 * expression the API server checks each name against its path ({@code ObjectVal.CheckTypeNamesMatchFieldPathNames},
 * in {@code smd.go} for an apply configuration and {@code json_patch.go} for each JSONPatch value) and fails the
 * mutation with {@code type mismatch: unexpected type name "Object.specx", expected "Object.spec", which matches field
 * name path from root Object type} (measured on kube-apiserver 1.37.2). Every request the literal is evaluated for
 * fails under the failurePolicy, whatever the object: an <b>error</b>, as the name alone decides it.
 */
public final class Aps605ObjectInitializerName implements SafetyRule {
    @Override
    public String id() {
        return "APS605";
    }

    @Override
    public List<Finding> check(SafetyContext context) {
        List<Finding> out = new ArrayList<>();
        for (ValidationSubject subject : context.subjects()) {
            RenderedObject object = subject.object();
            if (object.kind() != AdmissionKind.MUTATING_ADMISSION_POLICY) {
                continue;
            }
            Optional<PolicyTypeCheck.Result> result = PolicyTypeCheck.of(object.kind(), object.manifest(),
                    context.options().schemas(), context.options().kubeVersion());
            if (result.isEmpty()) {
                continue;
            }
            for (PolicyTypeCheck.Expression e : result.get().expressions()) {
                KubernetesCelEnvironment.Compiled compiled = result.get().untyped().get(e.field());
                if (compiled == null || !compiled.ok() || e.variable() != null) {
                    continue;
                }
                Set<MutationLiterals.Misnamed> seen = new LinkedHashSet<>(
                        MutationLiterals.of(e.kind(), compiled.ast(), null).misnamed());
                for (MutationLiterals.Misnamed m : seen) {
                    out.add(Finding.error(id(), object.id(), e.field(), "the initializer " + m.name()
                            + "{...} sits where " + m.expected() + " is expected: the API server fails every request the "
                            + "mutation is evaluated for (type mismatch: unexpected type name \"" + m.name()
                            + "\", expected \"" + m.expected() + "\", which matches field name path from root Object type)."
                            + " Name it " + m.expected() + "{...}"));
                }
            }
        }
        return out;
    }
}

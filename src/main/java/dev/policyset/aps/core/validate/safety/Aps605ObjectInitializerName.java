package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.finding.Finding;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
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
        for (MutationLiterals.Mutation m : MutationLiterals.mutations(context)) {
            Set<MutationLiterals.Misnamed> seen = new LinkedHashSet<>(
                    MutationLiterals.of(m.expression().kind(), m.ast(), null).misnamed());
            for (MutationLiterals.Misnamed n : seen) {
                out.add(Finding.error(id(), m.object().id(), m.expression().field(), "the initializer " + n.name()
                        + "{...} sits where " + n.expected() + " is expected: the API server fails every request the "
                        + "mutation is evaluated for (type mismatch: unexpected type name \"" + n.name()
                        + "\", expected \"" + n.expected() + "\", which matches field name path from root Object type)."
                        + " Name it " + n.expected() + "{...}"));
            }
        }
        return out;
    }
}

package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.schema.GroupVersionKind;
import dev.policyset.aps.core.schema.Schema;
import dev.policyset.aps.core.util.NearestName;
import dev.policyset.aps.core.validate.typecheck.PolicyTypeCheck;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * APS604: a MutatingAdmissionPolicy's mutation writes a field the matched kind's schema does not declare, in an
 * ApplyConfiguration's {@code Object{...}} literal or in a JSONPatch's constant path or {@code Object} value.
 *
 * <p>Risk model: the API server decodes the mutated object strictly against the kind's schema. An apply
 * configuration with an undeclared field is refused by the type converter ({@code smd.go: error applying patch:
 * failed to convert patch object to typed object: .spec.replicaz: field not declared in schema}) and the request
 * fails under the policy's failurePolicy (Fail, the default: every request the mutation runs for is denied;
 * Ignore: the mutation silently never applies). A JSONPatch that adds one fails the strict decoding of the result
 * ({@code json_patch.go}: {@code Internal error occurred: strict decoding error: unknown field "spec.replicaz"}), an
 * internal error that fails the request whatever the failurePolicy (both measured on kube-apiserver 1.37.2). A
 * <b>warning</b>: the schema is the built-in model's (Kubernetes 1.34) or a CRD's, and a cluster may serve a newer
 * one that declares the field; only literal values are read (a value computed at run time is not).
 */
public final class Aps604MutationUndeclaredField implements SafetyRule {
    @Override
    public String id() {
        return "APS604";
    }

    @Override
    public List<Finding> check(SafetyContext context) {
        List<Finding> out = new ArrayList<>();
        for (MutationLiterals.Mutation m : MutationLiterals.mutations(context)) {
            Map<String, List<GroupVersionKind>> kindsByPath = new LinkedHashMap<>();
            Map<String, MutationLiterals.Undeclared> byPath = new LinkedHashMap<>();
            for (PolicyTypeCheck.KindResult k : m.policy().kinds()) {
                if (k.wildcard()) {
                    continue; // a generic mutation may set fields some of the kinds a wildcard matches lack
                }
                Optional<Schema> schema = context.options().schemas().schema(k.gvk());
                if (schema.isEmpty()) {
                    continue;
                }
                for (MutationLiterals.Undeclared u : MutationLiterals.of(m.expression().kind(), m.ast(), schema.get()).undeclared()) {
                    byPath.putIfAbsent(u.path(), u);
                    kindsByPath.computeIfAbsent(u.path(), p -> new ArrayList<>()).add(k.gvk());
                }
            }
            byPath.forEach((path, u) -> out.add(Finding.warning(id(), m.object().id(), m.expression().field(),
                    message(u, kindsByPath.get(path)))));
        }
        return out;
    }

    private static String message(MutationLiterals.Undeclared u, List<GroupVersionKind> kinds) {
        StringBuilder m = new StringBuilder();
        m.append(u.jsonPatch() ? "the patch writes " : "the apply configuration sets ").append(u.path())
                .append(", which the schema of ").append(kinds.get(0).kind()).append(" (").append(kinds.get(0)).append(")");
        if (kinds.size() > 1) {
            m.append(" and of ").append(kinds.size() - 1).append(" more matched kind").append(kinds.size() > 2 ? "s" : "");
        }
        m.append(" does not declare");
        NearestName.among(u.name(), u.known()).ifPresent(s -> m.append(" (did you mean '").append(s).append("'?)"));
        if (u.jsonPatch()) {
            m.append(": the API server's strict decoding of the patched object fails every request the mutation "
                    + "patches with an internal error, whatever the failurePolicy (strict decoding error: unknown field \"")
                    .append(u.path()).append("\")");
        } else {
            m.append(": the API server's type converter refuses the apply configuration, so every request the mutation "
                    + "runs for fails under the failurePolicy (error applying patch: failed to convert patch object to "
                    + "typed object: .").append(u.path()).append(": field not declared in schema)");
        }
        return m.append(". Fix the field name, or drop the field").toString();
    }
}

package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.cel.KubernetesCelEnvironment;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.SafetySettings;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.schema.GroupVersionKind;
import dev.policyset.aps.core.validate.ValidationSubject;
import dev.policyset.aps.core.validate.typecheck.PolicyTypeCheck;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * APS602: an expression refers to a field the matched resource's schema does not have, or uses a field with the
 * wrong type, as the API server's type checker finds it after the policy is created
 * ({@code plugin/policy/validating/typechecking.go}; its warnings go to {@code status.typeChecking}, which few
 * read). Found here before anything is applied, for every kind the policy matches (CRDs and wildcards included)
 * and every expression (variables, matchConditions, mutations too).
 *
 * <p>Risk model: a field the object does not have fails with {@code no such key} whenever the expression reaches
 * it, so a fail-closed policy denies every matched request and a fail-open one never checks anything; a typo in
 * a guard ({@code has(object.spec.replica)}) silently never matches. A <b>warning</b> by default, as upstream: the
 * schema is the built-in model's (Kubernetes {@value dev.policyset.aps.core.schema.BuiltinSchemas#KUBERNETES_MODEL_VERSION})
 * or a CRD's, and a cluster may serve another. {@code spec.safety.typeChecking: Error} makes it an error, so the
 * operator refuses to apply a policy the type checker would warn about. For kinds a wildcard matched, a finding
 * is reported only when the expression fails for every one of them (a generic policy guarded by
 * {@code has(object.spec)} legitimately names fields some kinds lack).
 */
public final class Aps602SchemaTypeCheck implements SafetyRule {
    private static final Pattern UNDEFINED_FIELD = Pattern.compile("undefined field '([^']*)'");

    @Override
    public String id() {
        return "APS602";
    }

    @Override
    public List<Finding> check(SafetyContext context) {
        List<Finding> out = new ArrayList<>();
        for (ValidationSubject subject : context.subjects()) {
            RenderedObject object = subject.object();
            Optional<PolicyTypeCheck.Result> result = PolicyTypeCheck.of(object.kind(), object.manifest(),
                    context.options().schemas(), context.options().kubeVersion());
            if (result.isEmpty()) {
                continue;
            }
            boolean error = subject.safety().typeChecking() == SafetySettings.TypeChecking.ERROR;
            for (PolicyTypeCheck.Expression e : result.get().expressions()) {
                KubernetesCelEnvironment.Compiled untyped = result.get().untyped().get(e.field());
                if (untyped == null || !untyped.ok()) {
                    continue; // api/Invalid already
                }
                List<Failure> explicit = new ArrayList<>();
                List<Failure> wildcard = new ArrayList<>();
                for (PolicyTypeCheck.KindResult k : result.get().kinds()) {
                    List<String> problems = k.problems().get(e.field());
                    if (problems != null) {
                        (k.wildcard() ? wildcard : explicit).add(new Failure(k.gvk(), problems.get(0)));
                    }
                }
                for (Failure f : explicit) {
                    out.add(finding(object, e, List.of(f), result.get(), error, false));
                }
                if (!wildcard.isEmpty() && wildcard.size() == result.get().wildcardKinds()) {
                    out.add(finding(object, e, wildcard, result.get(), error, true));
                }
            }
        }
        return out;
    }

    private record Failure(GroupVersionKind gvk, String problem) {
    }

    private Finding finding(RenderedObject object, PolicyTypeCheck.Expression e, List<Failure> failures,
                            PolicyTypeCheck.Result result, boolean error, boolean wildcard) {
        Failure first = failures.get(0);
        String firstLine = first.problem().lines().findFirst().orElse(first.problem());
        StringBuilder m = new StringBuilder();
        m.append(first.gvk()).append(": ").append(firstLine);
        if (failures.size() > 1) {
            m.append(" (and for ").append(failures.size() - 1).append(" more kind").append(failures.size() > 2 ? "s" : "")
                    .append(" the wildcard matches: ").append(failures.stream().skip(1).limit(3)
                            .map(f -> f.gvk().kind()).collect(Collectors.joining(", ")))
                    .append(failures.size() > 4 ? ", ..." : "").append(")");
        }
        m.append(". ");
        Matcher undefined = UNDEFINED_FIELD.matcher(firstLine);
        if (undefined.find()) {
            m.append("The schema of ").append(first.gvk().kind()).append(wildcard ? " (and every other kind the wildcard matches)" : "")
                    .append(" has no field '").append(undefined.group(1)).append("' there");
            if (result.paramsKind() != null && result.paramsTyped()) {
                m.append(" (params are typed as ").append(result.paramsKind().kind()).append(")");
            }
            m.append(": the expression fails with \"no such key\" whenever it reaches it. Fix the field name");
        } else {
            m.append("The expression uses a field with a type it does not have in the schema of ")
                    .append(first.gvk().kind()).append(": it fails whenever it reaches it. Fix the expression");
        }
        m.append(" (the API server's type checker reports this in status.typeChecking after the policy is created)");
        String message = m.toString();
        return error ? Finding.error(id(), object.id(), e.field(), message)
                : Finding.warning(id(), object.id(), e.field(), message);
    }
}

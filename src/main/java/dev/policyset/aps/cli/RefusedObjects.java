package dev.policyset.aps.cli;

import dev.policyset.aps.core.cel.CelChecker;
import dev.policyset.aps.core.evaluate.suite.CaseResult;
import dev.policyset.aps.core.evaluate.suite.PolicyTest;
import dev.policyset.aps.core.evaluate.suite.TestCase;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.validate.apiserver.ApiServerRules;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The admission objects a test loads that the API server would refuse to store (the validation it runs when they
 * are written, mirrored by {@link ApiServerRules}: a binding without {@code parameterNotFoundAction}, a mutation
 * that does not compile, ...). A case that runs against one runs against a configuration that cannot exist on a
 * server, so it fails with the finding, whatever it expected, instead of passing. The check belongs to the
 * validator, which sits above the evaluator; this shell joins the two for {@code aps test}.
 */
final class RefusedObjects {
    private RefusedObjects() {}

    /** {@code results} with one failing difference per refused object its case loads. */
    static List<CaseResult> judge(PolicyTest test, List<CaseResult> results, CelChecker cel) {
        Map<RenderedObject, List<String>> refusals = new IdentityHashMap<>();
        List<CaseResult> out = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            CaseResult r = results.get(i);
            TestCase c = test.cases().get(i);
            List<String> differences = new ArrayList<>();
            if (c.config() != null) {
                refusedAt(c, c.options().version(), cel, refusals).forEach((name, why) -> differences.add(
                        "the API server refuses to create " + name + ": " + String.join("; ", why)
                        + ". No request meets it on a server: fix it (aps validate lists every finding)"));
            }
            if (differences.isEmpty()) {
                out.add(r);
            } else {
                List<String> all = new ArrayList<>(differences);
                all.addAll(r.differences());
                out.add(new CaseResult(r.name(), r.line(), false, all, r.notes(), r.outcome()));
            }
        }
        return out;
    }

    /**
     * Why a server of {@code version} refuses to create each object case {@code c} loads, by "Kind/name" (none when
     * it creates them all); {@code memo} keeps each object's answer for the other cases of the same file.
     */
    static Map<String, List<String>> refusedAt(TestCase c, KubeVersion version, CelChecker cel,
                                               Map<RenderedObject, List<String>> memo) {
        Map<String, List<String>> byObject = new LinkedHashMap<>();
        if (c.config() == null) {
            return byObject;
        }
        for (RenderedObject o : c.config().objects()) {
            List<String> why = memo.computeIfAbsent(o, x -> notServed(x, version).map(List::of)
                    .orElseGet(() -> ApiServerRules.check(x, version, cel).stream()
                            .filter(f -> f.severity() == Severity.ERROR).map(RefusedObjects::describe).toList()));
            if (!why.isEmpty()) {
                byObject.put(o.kind().kind() + "/" + o.name(), why);
            }
        }
        return byObject;
    }

    /**
     * A MutatingAdmissionPolicy (or binding) in an API version no server of {@code version} serves, even with the
     * feature gate: there the object cannot be created at all (v1 before 1.36, v1beta1 before 1.34).
     */
    static java.util.Optional<String> notServed(RenderedObject o, KubeVersion version) {
        if (o.kind() != dev.policyset.aps.core.model.AdmissionKind.MUTATING_ADMISSION_POLICY
                && o.kind() != dev.policyset.aps.core.model.AdmissionKind.MUTATING_ADMISSION_POLICY_BINDING) {
            return java.util.Optional.empty();
        }
        String apiVersion = o.apiVersion();
        String v = apiVersion.substring(apiVersion.indexOf('/') + 1);
        List<String> servable = dev.policyset.aps.core.model.MutatingPolicyVersions.servableAt(version);
        if (!dev.policyset.aps.core.model.MutatingPolicyVersions.isKnown(v) || servable.contains(v)) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of("Kubernetes " + version + " does not serve " + apiVersion + " " + o.kind().kind()
                + (servable.isEmpty() ? " (nor any other version of it)" : " (it can serve " + String.join(", ", servable)
                + " with the " + dev.policyset.aps.core.model.MutatingPolicyVersions.FEATURE_GATE + " feature gate)")
                + "; test with --kube-version of a version that serves it, or write the policy in a served version");
    }

    private static String describe(Finding f) {
        return f.field().isEmpty() ? f.message() : f.field() + ": " + f.message();
    }
}

package dev.policyset.aps.core.impact;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.finding.Severity;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.policyset.aps.core.impact.ImpactScanTest.node;
import static dev.policyset.aps.core.impact.ImpactScanTest.scan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The mutating part of the impact scan: each flag in both directions (the case flagged, and its neighbour that must
 * stay as it is).
 */
class MutatingImpactTest {
    /** A MutatingAdmissionPolicy with its binding; {@code extra} goes under spec (matchConditions, ...). */
    static List<String> policy(String name, String failurePolicy, String operations, String resources, String group,
                               String reinvocation, String mutation, String extra) {
        String p = """
                apiVersion: admissionregistration.k8s.io/v1beta1
                kind: MutatingAdmissionPolicy
                metadata: {name: %s}
                spec:
                  failurePolicy: %s
                  reinvocationPolicy: %s
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: ["%s"], apiVersions: [v1], operations: %s, resources: [%s]}
                  mutations:
                  - %s
                %s""".formatted(name, failurePolicy, reinvocation, group, operations, resources, mutation, extra);
        String b = """
                apiVersion: admissionregistration.k8s.io/v1beta1
                kind: MutatingAdmissionPolicyBinding
                metadata: {name: %s-binding}
                spec:
                  policyName: %s
                """.formatted(name, name);
        return List.of(p, b);
    }

    static String apply(String expression) {
        return "{patchType: ApplyConfiguration, applyConfiguration: {expression: '" + expression + "'}}";
    }

    static String jsonPatch(String expression) {
        return "{patchType: JSONPatch, jsonPatch: {expression: '" + expression + "'}}";
    }

    private static final String TEAM_LABEL = apply(
            "Object{metadata: Object.metadata{labels: {\"team\": object.metadata.?labels[\"team\"].orValue(\"unassigned\")}}}");

    static ObjectNode deployment(String name, String labels, String containers) {
        return node("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: " + name + ", namespace: a"
                + (labels == null ? "" : ", labels: {" + labels + "}") + "}\n"
                + "spec:\n  replicas: 1\n  selector: {matchLabels: {app: " + name + "}}\n"
                + "  template:\n    metadata: {labels: {app: " + name + "}}\n    spec:\n      containers: " + containers + "\n");
    }

    static ObjectNode pod(String name, String spec) {
        return node("apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", namespace: a}\nspec: " + spec + "\n");
    }

    private static MutatingBindingImpact only(ImpactReport report) {
        assertEquals(1, report.mutating().size(), report.toString());
        assertTrue(report.bindings().isEmpty(), "no validating row for a mutating policy");
        return report.mutating().get(0);
    }

    private static List<String> rules(ImpactReport report) {
        return report.findings().stream().map(f -> f.rule() + " " + f.severity().label()).toList();
    }

    @Test
    void aMutationThatChangesNothingIsANoOpAndNothingElse() {
        ImpactReport report = scan(policy("team", "Fail", "[CREATE, UPDATE]", "deployments", "apps", "Never", TEAM_LABEL, ""),
                deployment("labelled", "team: x", "[{name: c, image: nginx}]"),
                deployment("bare", null, "[{name: c, image: nginx}]"));
        MutatingBindingImpact b = only(report);
        assertEquals(2, b.matched());
        assertEquals(1, b.changed());
        assertEquals(1, b.noop());
        assertEquals(0, b.refused());
        assertEquals(0, b.errors());
        assertEquals(0, b.notIdempotent());
        // only the changed object is sampled, with its change; the no-op one is not named at all
        assertEquals(1, b.samples().size());
        MutatingBindingImpact.Sample s = b.samples().get(0);
        assertEquals("Deployment a/bare", s.object());
        assertEquals("UPDATE", s.operation());
        assertEquals(MutatingBindingImpact.CHANGED, s.outcome());
        assertEquals(List.of("add /metadata/labels"), s.changes().stream().map(c -> c.op() + " " + c.path()).toList());
        assertEquals(List.of("APS804 info"), rules(report));
        assertTrue(report.findings().get(0).message().startsWith(
                "this binding would change 1 of the 2 existing object(s) it matches (of 2 scanned) the next time they are written (1 left as they are)"),
                report.findings().get(0).message());
    }

    @Test
    void objectsTheMatchConditionsExcludeAreNotMatched() {
        ImpactReport report = scan(policy("team", "Fail", "[CREATE, UPDATE]", "deployments", "apps", "Never", TEAM_LABEL,
                        "  matchConditions:\n  - {name: bare-only, expression: '!has(object.metadata.labels)'}\n"),
                deployment("labelled", "team: x", "[{name: c, image: nginx}]"),
                deployment("bare", null, "[{name: c, image: nginx}]"));
        MutatingBindingImpact b = only(report);
        assertEquals(1, b.matched());
        assertEquals(1, b.changed());
        assertEquals(0, b.noop());
    }

    @Test
    void aPodSpecChangeOnUpdateIsRefusedButNotOnCreateNorAnImageOrLabelChange() {
        String nonRoot = apply("Object{spec: Object.spec{securityContext: Object.spec.securityContext{runAsNonRoot: true}}}");
        ObjectNode web = pod("web", "{containers: [{name: web, image: nginx}]}");

        MutatingBindingImpact update = only(scan(policy("non-root", "Ignore", "[CREATE, UPDATE]", "pods", "", "Never", nonRoot, ""), web));
        assertEquals(1, update.refused());
        assertEquals(0, update.changed());
        MutatingBindingImpact.Sample s = update.samples().get(0);
        assertEquals(MutatingBindingImpact.REFUSED, s.outcome());
        assertEquals("immutable", s.reason());
        assertTrue(s.message().startsWith("Pod \"web\" is invalid: spec: Forbidden: pod updates may not change fields other than"), s.message());
        assertTrue(s.message().endsWith("(changed: spec.securityContext)"), s.message());
        assertEquals(List.of("spec.securityContext: (unset) → {\"runAsNonRoot\":true}"),
                s.changes().stream().map(ObjectChanges.Change::describe).toList());

        // CREATE only: the existing pod is asked as its re-creation, where the spec is free
        MutatingBindingImpact create = only(scan(policy("non-root", "Ignore", "[CREATE]", "pods", "", "Never", nonRoot, ""), web));
        assertEquals(0, create.refused());
        assertEquals(1, create.changed());
        assertEquals("CREATE", create.samples().get(0).operation());

        // on UPDATE, an image and a label may change
        String image = apply("Object{spec: Object.spec{containers: [Object.spec.containers{name: \"web\", image: \"nginx:1.27\"}]}}");
        MutatingBindingImpact images = only(scan(policy("pin", "Fail", "[UPDATE]", "pods", "", "Never", image, ""), web));
        assertEquals(0, images.refused(), images.samples().toString());
        assertEquals(1, images.changed());
        String label = apply("Object{metadata: Object.metadata{labels: {\"scanned\": \"yes\"}}}");
        MutatingBindingImpact labels = only(scan(policy("label", "Fail", "[UPDATE]", "pods", "", "Never", label, ""), web));
        assertEquals(0, labels.refused());
        assertEquals(1, labels.changed());
    }

    @Test
    void aSelectorChangeOnUpdateIsRefusedAReplicasChangeIsNot() {
        ObjectNode d = deployment("web", "team: x", "[{name: c, image: nginx}]");
        String selector = jsonPatch("[JSONPatch{op: \"add\", path: \"/spec/selector/matchLabels/tier\", value: \"web\"}]");
        MutatingBindingImpact refused = only(scan(policy("sel", "Fail", "[UPDATE]", "deployments", "apps", "Never", selector, ""), d));
        assertEquals(1, refused.refused());
        assertTrue(refused.samples().get(0).message().startsWith("Deployment \"web\" is invalid: spec.selector: Invalid value: "),
                refused.samples().get(0).message());
        assertTrue(refused.samples().get(0).message().endsWith(": field is immutable"));

        String replicas = jsonPatch("[JSONPatch{op: \"replace\", path: \"/spec/replicas\", value: 3}]");
        MutatingBindingImpact changed = only(scan(policy("rep", "Fail", "[UPDATE]", "deployments", "apps", "Never", replicas, ""), d));
        assertEquals(0, changed.refused());
        assertEquals(1, changed.changed());
        assertEquals("spec.replicas: 1 → 3", changed.samples().get(0).changes().get(0).describe());
    }

    @Test
    void anUnknownFieldIsRefusedByStrictDecodingWhateverTheFailurePolicyAValidPathIsNot() {
        ObjectNode d = deployment("web", "team: x", "[{name: c, image: nginx}]");
        String typo = jsonPatch("[JSONPatch{op: \"add\", path: \"/spec/progressDeadlineSecond\", value: 600}]");
        ImpactReport report = scan(policy("typo", "Ignore", "[CREATE, UPDATE]", "deployments", "apps", "Never", typo, ""), d);
        MutatingBindingImpact b = only(report);
        assertEquals(1, b.refused());
        assertEquals(1, b.errors());
        assertEquals(0, b.errorsAdmitted());
        assertEquals("schema", b.samples().get(0).reason());
        assertTrue(b.samples().get(0).message().contains("strict decoding error: unknown field \"spec.progressDeadlineSecond\""),
                b.samples().get(0).message());
        assertEquals(List.of("APS802 warning"), rules(report));

        String valid = jsonPatch("[JSONPatch{op: \"add\", path: \"/spec/progressDeadlineSeconds\", value: 600}]");
        ImpactReport fine = scan(policy("deadline", "Ignore", "[CREATE, UPDATE]", "deployments", "apps", "Never", valid, ""), d);
        assertEquals(0, only(fine).refused());
        assertEquals(1, only(fine).changed());
        assertEquals(List.of("APS804 info"), rules(fine));
    }

    @Test
    void anAtomicListInAnApplyConfigurationIsRefusedUnderFailAndDroppedUnderIgnore() {
        ObjectNode web = pod("web", "{containers: [{name: web, image: nginx, args: [a]}]}");
        String args = apply("Object{spec: Object.spec{containers: [Object.spec.containers{name: \"web\", args: [\"b\"]}]}}");
        MutatingBindingImpact fail = only(scan(policy("args", "Fail", "[CREATE]", "pods", "", "Never", args, ""), web));
        assertEquals(1, fail.refused());
        assertEquals("schema", fail.samples().get(0).reason());
        assertTrue(fail.samples().get(0).message().contains("may not mutate atomic arrays, maps or structs"), fail.samples().get(0).message());

        ImpactReport ignored = scan(policy("args", "Ignore", "[CREATE]", "pods", "", "Never", args, ""), web);
        MutatingBindingImpact b = only(ignored);
        assertEquals(0, b.refused());
        assertEquals(1, b.noop());
        assertEquals(1, b.errors());
        assertEquals(1, b.errorsAdmitted());
        assertEquals(MutatingBindingImpact.ERROR, b.samples().get(0).outcome());
        assertEquals(List.of("APS804 info"), rules(ignored));
        assertTrue(ignored.findings().get(0).message().contains("its mutation fails on 1 and failurePolicy Ignore admits them unmutated"),
                ignored.findings().get(0).message());
    }

    @Test
    void anEvaluationErrorRefusesUnderFailOnly() {
        ObjectNode d = deployment("web", null, "[{name: c, image: nginx}]");
        String missing = apply("Object{metadata: Object.metadata{labels: {\"team\": object.metadata.labels[\"team\"]}}}");
        MutatingBindingImpact fail = only(scan(policy("e", "Fail", "[UPDATE]", "deployments", "apps", "Never", missing, ""), d));
        assertEquals(1, fail.refused());
        assertEquals("error", fail.samples().get(0).reason());
        assertTrue(fail.samples().get(0).message().startsWith("policy 'e' with binding 'e-binding' denied request: "),
                fail.samples().get(0).message());

        MutatingBindingImpact ignore = only(scan(policy("e", "Ignore", "[UPDATE]", "deployments", "apps", "Never", missing, ""), d));
        assertEquals(0, ignore.refused());
        assertEquals(1, ignore.errors());
        assertEquals(1, ignore.noop());
    }

    @Test
    void anUnguardedAppendIsNotIdempotentAGuardedOneAndAnApplyConfigurationAre() {
        ObjectNode d = deployment("web", null, "[{name: c, image: nginx}]");
        String append = jsonPatch("[JSONPatch{op: \"add\", path: \"/spec/template/spec/containers/-\", "
                + "value: Object.spec.template.spec.containers{name: \"sidecar\", image: \"busybox\"}}]");
        ImpactReport report = scan(policy("sidecar", "Fail", "[CREATE, UPDATE]", "deployments", "apps", "Never", append, ""), d);
        MutatingBindingImpact b = only(report);
        assertEquals(1, b.changed());
        assertEquals(1, b.notIdempotent());
        MutatingBindingImpact.Sample s = b.samples().get(0);
        assertEquals(MutatingBindingImpact.NOT_IDEMPOTENT, s.outcome());
        assertTrue(s.message().startsWith("applied again to its own output, it changes spec.template.spec.containers[2]: (unset) → "),
                s.message());
        assertEquals(List.of("add /spec/template/spec/containers/1"), s.changes().stream().map(c -> c.op() + " " + c.path()).toList());
        assertEquals(List.of("APS803 warning", "APS804 info"), rules(report));

        String guard = "  matchConditions:\n  - {name: no-sidecar, expression: '!object.spec.template.spec.containers.exists(c, c.name == \"sidecar\")'}\n";
        MutatingBindingImpact guarded = only(scan(policy("sidecar", "Fail", "[CREATE, UPDATE]", "deployments", "apps", "Never", append, guard), d));
        assertEquals(1, guarded.changed());
        assertEquals(0, guarded.notIdempotent());

        String merge = apply("Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{"
                + "containers: [Object.spec.template.spec.containers{name: \"sidecar\", image: \"busybox\"}]}}}}");
        MutatingBindingImpact merged = only(scan(policy("sidecar", "Fail", "[CREATE, UPDATE]", "deployments", "apps", "Never", merge, ""), d));
        assertEquals(1, merged.changed());
        assertEquals(0, merged.notIdempotent(), merged.samples().toString());
    }

    @Test
    void notIdempotentIsOnlyInfoWhenEachObjectMeetsTheMutationOnce() {
        ObjectNode d = deployment("web", null, "[{name: c, image: nginx}]");
        String append = jsonPatch("[JSONPatch{op: \"add\", path: \"/spec/template/spec/containers/-\", "
                + "value: Object.spec.template.spec.containers{name: \"sidecar\", image: \"busybox\"}}]");
        List<Finding> once = scan(policy("sidecar", "Fail", "[CREATE]", "deployments", "apps", "Never", append, ""), d).findings();
        assertEquals(Severity.INFO, once.stream().filter(f -> f.rule().equals("APS803")).findFirst().orElseThrow().severity());
        List<Finding> reinvoked = scan(policy("sidecar", "Fail", "[CREATE]", "deployments", "apps", "IfNeeded", append, ""), d).findings();
        assertEquals(Severity.WARNING, reinvoked.stream().filter(f -> f.rule().equals("APS803")).findFirst().orElseThrow().severity());
    }

    @Test
    void samplesAreBoundedAndPutFlaggedObjectsFirst() {
        String nonRoot = apply("Object{spec: Object.spec{securityContext: Object.spec.securityContext{runAsNonRoot: true}}}");
        List<String> config = policy("non-root", "Fail", "[CREATE, UPDATE]", "pods", "", "Never", nonRoot, "");
        // a pod already non-root is a no-op; the others are refused, and the sample limit (2) names the first two
        ObjectNode[] pods = {
                pod("ok", "{securityContext: {runAsNonRoot: true}, containers: [{name: c, image: x}]}"),
                pod("p1", "{containers: [{name: c, image: x}]}"),
                pod("p2", "{containers: [{name: c, image: x}]}"),
                pod("p3", "{containers: [{name: c, image: x}]}")};
        ImpactReport report = ImpactScan.scan(ImpactScanTest.configuration(config), List.of(pods),
                dev.policyset.aps.core.model.KubeVersion.NEWEST, new ImpactScan.Options(Integer.MAX_VALUE, 2, null));
        MutatingBindingImpact b = only(report);
        assertEquals(4, b.matched());
        assertEquals(1, b.noop());
        assertEquals(3, b.refused());
        assertEquals(List.of("Pod a/p1", "Pod a/p2"), b.samples().stream().map(MutatingBindingImpact.Sample::object).toList());
    }

    @Test
    void aValidatingOnlyConfigurationHasNoMutatingRowNorFinding() {
        String requireTeam = """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: require-team}
                spec:
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
                  validations:
                  - expression: "has(object.metadata.labels)"
                """;
        ImpactReport report = scan(List.of(requireTeam, ImpactScanTest.binding("warn", "require-team", "[Warn]", "")),
                deployment("web", "team: x", "[{name: c, image: nginx}]"));
        assertEquals(1, report.bindings().get(0).matched());
        assertTrue(report.mutating().isEmpty());
        assertTrue(report.findings().stream().noneMatch(f -> f.rule().startsWith("APS80") && !f.rule().equals("APS801")));
    }
}

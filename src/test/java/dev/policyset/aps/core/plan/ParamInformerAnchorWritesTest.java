package dev.policyset.aps.core.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.core.cel.KubernetesCelChecker;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.ClusterView;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.model.LiveObject;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.validate.apiserver.ApiServerRules;
import dev.policyset.aps.core.yaml.Yaml;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which anchors a plan writes, and what an anchor is (the plan goldens param-informer-anchors-* show it in a plan). */
class ParamInformerAnchorWritesTest {
    private static final KubeVersion V137 = new KubeVersion(1, 37);

    @Test
    void aBuiltInParamKindIsAnchoredInEveryServedPluginAndACustomOneNot() {
        List<RenderedObject> rendered = List.of(policy(AdmissionKind.VALIDATING_ADMISSION_POLICY, "p", "v1", "Secret"),
                policy(AdmissionKind.MUTATING_ADMISSION_POLICY, "m", "v1", "Secret"),
                policy(AdmissionKind.VALIDATING_ADMISSION_POLICY, "c", "example.com/v1", "Limits"),
                policy(AdmissionKind.VALIDATING_ADMISSION_POLICY, "none", null, null));
        List<Write> writes = ParamInformerAnchorWrites.needed(rendered, empty(Optional.of("v1")));
        assertEquals(List.of("ValidatingAdmissionPolicy/aps-param-informer-secret-v1",
                "ValidatingAdmissionPolicyBinding/aps-param-informer-secret-v1",
                "MutatingAdmissionPolicy/aps-param-informer-secret-v1",
                "MutatingAdmissionPolicyBinding/aps-param-informer-secret-v1"), ids(writes),
                "one anchor per plugin for the kind both policies use; the custom resource gets a fresh informer");
        assertTrue(writes.stream().allMatch(w -> w.action() == Write.Action.ANCHOR && w.forced()));
        assertEquals("admissionregistration.k8s.io/v1", writes.get(2).apiVersion());

        List<Write> noMutating = ParamInformerAnchorWrites.needed(rendered, empty(Optional.empty()));
        assertEquals(List.of("ValidatingAdmissionPolicy/aps-param-informer-secret-v1",
                "ValidatingAdmissionPolicyBinding/aps-param-informer-secret-v1"), ids(noMutating),
                "no mutating anchor where the cluster serves no MutatingAdmissionPolicy");
        assertEquals(List.of(), ParamInformerAnchorWrites.needed(rendered.subList(2, 4), empty(Optional.of("v1"))));
    }

    @Test
    void namesCarryGroupAndVersion() {
        assertEquals("aps-param-informer-deployment-v1.apps", ParamInformerAnchorWrites.name(
                dev.policyset.aps.core.schema.GroupVersionKind.of("apps/v1", "Deployment")));
        assertEquals("aps-param-informer-configmap-v1", ParamInformerAnchorWrites.name(
                dev.policyset.aps.core.schema.GroupVersionKind.of("v1", "ConfigMap")));
    }

    /**
     * The anchor matches no object, is no set's (no set label, no owner reference: no prune, release or garbage
     * collection touches it) and its binding has no paramRef (writing it needs no grant on the params).
     */
    @Test
    void anAnchorMatchesNothingBelongsToNoSetAndNeedsNoGrantOnParams() {
        List<Write> writes = ParamInformerAnchorWrites.needed(
                List.of(policy(AdmissionKind.VALIDATING_ADMISSION_POLICY, "p", "v1", "ConfigMap")), empty(Optional.of("v1")));
        assertEquals(4, writes.size());
        for (Write w : writes) {
            RenderedObject asRendered = new RenderedObject(w.kind(), w.apiVersion(), w.name(), w.object(), "anchor");
            assertEquals(List.of(), ApiServerRules.check(asRendered, V137, new KubernetesCelChecker()).stream()
                    .filter(f -> f.severity() == Severity.ERROR).toList(), "the API server stores it: " + w.object());
            JsonNode metadata = w.object().path("metadata");
            assertFalse(metadata.path("labels").has(AdmissionPolicySet.SET_LABEL), w.id());
            assertFalse(metadata.has("ownerReferences"), w.id());
            assertEquals("true", metadata.path("labels").path(ParamInformerAnchorWrites.LABEL).asText(), w.id());
            JsonNode selector = w.kind().name().endsWith("BINDING")
                    ? w.object().path("spec").path("matchResources").path("objectSelector")
                    : w.object().path("spec").path("matchConstraints").path("objectSelector");
            List<String> operators = new ArrayList<>();
            selector.path("matchExpressions").forEach(e -> {
                assertEquals(ParamInformerAnchorWrites.LABEL, e.path("key").asText());
                operators.add(e.path("operator").asText());
            });
            assertEquals(List.of("Exists", "DoesNotExist"), operators, w.id() + ": a label cannot both exist and not");
            if (w.kind().name().endsWith("BINDING")) {
                assertFalse(w.object().path("spec").has("paramRef"), w.id());
                assertEquals(w.name(), w.object().path("spec").path("policyName").asText());
            } else {
                assertEquals("ConfigMap", w.object().path("spec").path("paramKind").path("kind").asText());
                assertEquals("Ignore", w.object().path("spec").path("failurePolicy").asText());
            }
        }
    }

    @Test
    void anAnchorInPlaceIsNotWrittenAgainAndSomeoneElsesObjectIsLeftAlone() {
        List<RenderedObject> rendered = List.of(policy(AdmissionKind.VALIDATING_ADMISSION_POLICY, "p", "v1", "ConfigMap"));
        List<Write> first = ParamInformerAnchorWrites.needed(rendered, empty(Optional.empty()));
        List<LiveObject> stored = new ArrayList<>();
        for (Write w : first) {
            ObjectNode live = w.object().deepCopy();
            live.with("metadata").put("uid", "u-" + w.name()).put("resourceVersion", "7");
            live.with("spec").put("matchPolicy", "Equivalent"); // a server default is no difference
            stored.add(new LiveObject(w.kind(), w.name(), live));
        }
        assertEquals(List.of(), ParamInformerAnchorWrites.needed(rendered, ClusterView.of(V137, Optional.empty(), stored)));

        ObjectNode changed = stored.get(1).object().deepCopy();
        changed.with("spec").put("policyName", "elsewhere");
        assertEquals(List.of("ValidatingAdmissionPolicyBinding/aps-param-informer-configmap-v1"), ids(ParamInformerAnchorWrites.needed(
                rendered, ClusterView.of(V137, Optional.empty(), List.of(stored.get(0), new LiveObject(stored.get(1).kind(),
                        stored.get(1).name(), changed))))), "a changed anchor is put back");

        ObjectNode foreign = (ObjectNode) Yaml.mapper().createObjectNode();
        foreign.put("apiVersion", "admissionregistration.k8s.io/v1").put("kind", "ValidatingAdmissionPolicy")
                .putObject("metadata").put("name", "aps-param-informer-configmap-v1");
        List<Write> beside = ParamInformerAnchorWrites.needed(rendered, ClusterView.of(V137, Optional.empty(),
                List.of(LiveObject.of(foreign).orElseThrow())));
        assertEquals(List.of("ValidatingAdmissionPolicyBinding/aps-param-informer-configmap-v1"), ids(beside),
                "an object of the anchor's name without the anchor label is not taken over");
    }

    @Test
    void thePlannerWritesAnchorsFirstAndNoneWhenTurnedOff() throws Exception {
        ObjectNode set = (ObjectNode) Yaml.parse("set.yaml", """
                apiVersion: admission.policyset.dev/v1alpha1
                kind: AdmissionPolicySet
                metadata: {name: s, uid: u1, generation: 1}
                spec:
                  validatingPolicies:
                    - name: p
                      policy:
                        paramKind: {apiVersion: v1, kind: ConfigMap}
                        matchConstraints:
                          resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]
                        validations: [{expression: "params != null"}]
                      bindings:
                        - name: p-binding
                          spec: {paramRef: {selector: {}, parameterNotFoundAction: Deny}}
                """).get(0).content();
        ClusterView cluster = empty(Optional.empty());
        Plan on = new Planner(new KubernetesCelChecker(), 3, true).plan(new PlanInput(set, null), cluster);
        assertEquals(List.of("ValidatingAdmissionPolicy/aps-param-informer-configmap-v1",
                "ValidatingAdmissionPolicyBinding/aps-param-informer-configmap-v1", "ValidatingAdmissionPolicy/p",
                "ValidatingAdmissionPolicyBinding/p-binding"), ids(on.writes()));
        assertEquals(2, on.objects().size(), "the anchors are not the set's: no status row");
        Plan off = new Planner(new KubernetesCelChecker(), 3, false).plan(new PlanInput(set, null), cluster);
        assertEquals(List.of("ValidatingAdmissionPolicy/p", "ValidatingAdmissionPolicyBinding/p-binding"), ids(off.writes()));
    }

    private static ClusterView empty(Optional<String> mutatingVersion) {
        return ClusterView.of(V137, mutatingVersion, List.of());
    }

    private static List<String> ids(List<Write> writes) {
        return writes.stream().map(Write::id).toList();
    }

    private static RenderedObject policy(AdmissionKind kind, String name, String paramApiVersion, String paramKind) {
        ObjectNode manifest = (ObjectNode) Yaml.mapper().createObjectNode();
        manifest.put("apiVersion", "admissionregistration.k8s.io/v1").put("kind", kind.kind());
        manifest.putObject("metadata").put("name", name);
        ObjectNode spec = manifest.putObject("spec");
        if (paramKind != null) {
            spec.putObject("paramKind").put("apiVersion", paramApiVersion).put("kind", paramKind);
        }
        return new RenderedObject(kind, "admissionregistration.k8s.io/v1", name, manifest, "");
    }
}

package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.cel.KubernetesCelChecker;
import dev.policyset.aps.core.evaluate.suite.ParamInformerAnchors;
import dev.policyset.aps.core.evaluate.suite.PolicyTest;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.validate.apiserver.ApiServerRules;
import dev.policyset.aps.core.yaml.Yaml;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The anchors {@code aps test --server} keeps for a built-in paramKind during a run (kubernetes/kubernetes#130887):
 * which kinds get one, that the server would store them and that they can match no request, and when the run tells
 * the user it has left the server without that kind's informer.
 */
class ParamInformerAnchorsTest {
    private static PolicyTest test(String file) {
        return TestRun.run(List.of(Path.of(file)), System.in, KubeVersion.parse("1.37")).files().get(0).test();
    }

    @Test
    void aConfigMapParamKindIsAnchoredOnceAndACustomKindIsNot() {
        List<ParamInformerAnchors.Use> uses = ParamInformerAnchors.builtInParamKinds(test("src/test/resources/aps-test-server/server.test.yaml"));
        assertEquals(1, uses.size(), uses.toString());
        assertEquals("v1/ConfigMap", uses.get(0).describe());
        assertEquals(AdmissionKind.VALIDATING_ADMISSION_POLICY, uses.get(0).policyKind());
    }

    @Test
    void onlyBuiltInKindsNeedAnAnchor() {
        assertTrue(ParamInformerAnchors.isBuiltIn("v1", "ConfigMap"));
        assertTrue(ParamInformerAnchors.isBuiltIn("apps/v1", "Deployment"));
        assertFalse(ParamInformerAnchors.isBuiltIn("example.com/v1", "Limits"), "a custom resource gets a fresh informer each time");
        assertEquals(List.of(), ParamInformerAnchors.builtInParamKinds(new PolicyTest("x", "x", "aps", List.of(), List.of())));
    }

    @Test
    void anchorsAreObjectsTheServerStoresAndMatchNoObject() {
        for (ParamInformerAnchors.Use use : List.of(
                new ParamInformerAnchors.Use(AdmissionKind.VALIDATING_ADMISSION_POLICY, "admissionregistration.k8s.io/v1", "v1", "ConfigMap"),
                new ParamInformerAnchors.Use(AdmissionKind.MUTATING_ADMISSION_POLICY, "admissionregistration.k8s.io/v1", "v1", "Secret"))) {
            List<ObjectNode> objects = ParamInformerAnchors.anchor(use, "r1", 0);
            assertEquals(2, objects.size());
            for (ObjectNode o : objects) {
                AdmissionKind kind = AdmissionKind.valueOf(o.path("kind").asText().replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase());
                RenderedObject r = new RenderedObject(kind, o.path("apiVersion").asText(), o.path("metadata").path("name").asText(), o, "anchor");
                assertEquals(List.of(), ApiServerRules.check(r, KubeVersion.parse("1.37"), new KubernetesCelChecker()).stream()
                        .filter(f -> f.severity() == Severity.ERROR).toList(), o.toString());
                assertEquals("r1", o.path("metadata").path("labels").path("aps.policyset.dev/test-run").asText(), "found as the run's");
            }
            JsonNode binding = objects.get(1).path("spec");
            assertEquals("r1", binding.path("matchResources").path("objectSelector").path("matchLabels")
                    .path(ParamInformerAnchors.ANCHOR_LABEL).asText(), "only an object labelled with the run id could match");
            assertEquals("Allow", binding.path("paramRef").path("parameterNotFoundAction").asText());
            assertEquals(objects.get(0).path("metadata").path("name").asText(), binding.path("policyName").asText());
        }
    }

    @Test
    void theRunWarnsOnlyWhenItsBindingsWereTheLastOfTheKind() throws Exception {
        ParamInformerAnchors.Use use = new ParamInformerAnchors.Use(AdmissionKind.VALIDATING_ADMISSION_POLICY,
                "admissionregistration.k8s.io/v1", "v1", "ConfigMap");
        JsonNode theirs = Yaml.mapper().readTree("""
                {"metadata": {"name": "limits"}, "spec": {"paramKind": {"apiVersion": "v1", "kind": "ConfigMap"}}}""");
        JsonNode theirBinding = Yaml.mapper().readTree("{\"metadata\": {\"name\": \"b\"}, \"spec\": {\"policyName\": \"limits\"}}");
        JsonNode ours = Yaml.mapper().readTree("""
                {"metadata": {"name": "x-aps-r13", "labels": {"aps.policyset.dev/test-run": "r13"}},
                 "spec": {"paramKind": {"apiVersion": "v1", "kind": "ConfigMap"}}}""");
        JsonNode ourBinding = Yaml.mapper().readTree("""
                {"metadata": {"name": "b2", "labels": {"aps.policyset.dev/test-run": "r13"}}, "spec": {"policyName": "x-aps-r13"}}""");
        assertTrue(ParamInformerAnchors.boundElsewhere(use, List.of(theirs, ours), List.of(theirBinding, ourBinding), "r1"));
        assertFalse(ParamInformerAnchors.boundElsewhere(use, List.of(theirs, ours), List.of(ourBinding), "r1"),
                "an unbound policy of the kind does not keep the informer: the server counts bindings");
        assertFalse(ParamInformerAnchors.boundElsewhere(use, List.of(ours), List.of(ourBinding), "r1"));

        assertTrue(ParamInformerAnchors.lastBindingWarning(use, "v1.36.3").contains("paramRef name or selector"));
        assertTrue(ParamInformerAnchors.lastBindingWarning(use, "v1.37.2").contains("paramRef selector (a named paramRef still works"));
        assertTrue(ParamInformerAnchors.lastBindingWarning(use, "v1.37.2").contains("kubernetes/kubernetes#130887"));
    }
}

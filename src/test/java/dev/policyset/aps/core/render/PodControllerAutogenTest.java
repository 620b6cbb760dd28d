package dev.policyset.aps.core.render;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.PodControllers.Shape;
import dev.policyset.aps.core.model.PolicySetReader;
import dev.policyset.aps.core.yaml.Yaml;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pod-controller autogen's path rewriting and eligibility; the rendered objects are the golden case
 * {@code pod-controller-autogen}, their behaviour {@code aps-test/autogen}.
 */
class PodControllerAutogenTest {
    @Test
    void rewritesWholePathSegmentsOfObjectAndOldObject() {
        assertEquals("object.spec.template.spec.containers.all(c, c.image != oldObject.spec.template.spec.x)",
                PodControllerAutogen.rewrite("object.spec.containers.all(c, c.image != oldObject.spec.x)", Shape.TEMPLATE));
        assertEquals("object.spec.jobTemplate.spec.template.metadata.labels",
                PodControllerAutogen.rewrite("object.metadata.labels", Shape.CRONJOBS));
        // not a path of the request's object: another identifier, a longer field name
        assertEquals("myobject.spec + object.specs + x.object.spec",
                PodControllerAutogen.rewrite("myobject.spec + object.specs + x.object.spec", Shape.TEMPLATE));
    }

    @Test
    void theNamespaceStaysTheControllers() {
        // a pod template carries no namespace (kyverno/kyverno: pkg/cel/autogen/replacement.go: protectedSuffixes)
        assertEquals("object.metadata.namespace == 'x' && object.spec.template.metadata.namespaceFoo",
                PodControllerAutogen.rewrite("object.metadata.namespace == 'x' && object.metadata.namespaceFoo", Shape.TEMPLATE));
    }

    @Test
    void aPolicyThatDoesNotMatchPodsAloneIsReportedAndNotAutogend() throws Exception {
        String set = """
                apiVersion: admission.policyset.dev/v1alpha1
                kind: AdmissionPolicySet
                metadata: {name: s}
                spec:
                  validatingPolicies:
                    - name: p
                      autogen: {podControllers: [deployments]}
                      policy:
                        matchConstraints:
                          objectSelector: {matchLabels: {app: web}}
                          resourceRules:
                            - {apiGroups: [""], apiVersions: [v1], resources: [pods], operations: [CREATE]}
                        validations: [{expression: "true"}]
                """;
        PolicySetReader.Result result = PolicySetReader.read(Yaml.parse("s.yaml", set).get(0).content());
        List<Finding> findings = result.findings();
        assertEquals(1, findings.size(), findings.toString());
        Finding f = findings.get(0);
        assertEquals("APS406", f.rule());
        assertEquals("spec.validatingPolicies[0].autogen", f.field());
        assertTrue(f.message().contains("objectSelector"), f.message());
        List<RenderedObject> rendered = Renderer.render(result.set().orElseThrow(), RenderOptions.forKubeVersion(
                dev.policyset.aps.core.model.KubeVersion.NEWEST));
        assertEquals(List.of("ValidatingAdmissionPolicy/p", "ValidatingAdmissionPolicyBinding/p-binding"),
                rendered.stream().map(RenderedObject::id).toList());
    }

    @Test
    void unknownAndRepeatedControllersAreRefused() throws Exception {
        String set = """
                apiVersion: admission.policyset.dev/v1alpha1
                kind: AdmissionPolicySet
                metadata: {name: s}
                spec:
                  validatingPolicies:
                    - name: p
                      autogen: {podControllers: [deployments, pods, deployments]}
                      policy:
                        matchConstraints:
                          resourceRules:
                            - {apiGroups: [""], apiVersions: [v1], resources: [pods], operations: [CREATE]}
                        validations: [{expression: "true"}]
                """;
        List<String> rules = PolicySetReader.read(Yaml.parse("s.yaml", set).get(0).content()).findings().stream()
                .map(f -> f.rule() + " " + f.field()).toList();
        assertEquals(List.of("api/NotSupported spec.validatingPolicies[0].autogen.podControllers[1]",
                "api/Duplicate spec.validatingPolicies[0].autogen.podControllers[2]"), rules);
    }
}

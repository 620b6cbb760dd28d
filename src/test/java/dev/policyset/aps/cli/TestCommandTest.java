package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.policyset.aps.cli.RenderCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code aps test} end to end: the feature suites under {@code src/test/resources/aps-test} (one case per
 * evaluated feature, PolicyTest and kaptest format) pass; the shipped samples' tests pass; a wrong expectation
 * fails with exit 1 and a diff; a malformed file is exit 2 with file and line.
 */
class TestCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void featureSuitesPass() {
        RenderCommandTest.Run r = run("test", "src/test/resources/aps-test");
        assertEquals(ExitCodes.OK, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains(" 0 failed"), r.out());
        assertTrue(!r.out().contains("FAIL"), r.out());
    }

    @Test
    void shippedSampleTestsPass() {
        RenderCommandTest.Run r = run("test", "config/samples/tests/");
        assertEquals(ExitCodes.OK, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("PASS  a privileged pod is allowed with a warning"), r.out());
        // default-image-pull-policy: object.spec.containers.indexOf(c) on a dyn list
        assertTrue(r.out().contains("PASS  containers without an imagePullPolicy get IfNotPresent"), r.out());
    }

    /**
     * The runtime cost limits where the API server applies them, in both dispatchers: the per-call limit, the
     * policy budget shared by validations and messageExpressions, the auditAnnotations' and each mutation's own
     * budget, the matchConditions' smaller one, and variables charged to their first reader.
     */
    @Test
    void costLimitsAndBudgetsAsTheApiServerAppliesThem() {
        RenderCommandTest.Run r = run("test", "src/test/resources/aps-test/cost");
        assertEquals(ExitCodes.OK, r.exit(), r.out() + r.err());
        assertEquals(11, r.out().lines().filter(l -> l.contains("PASS  ")).count(), r.out());
    }

    /**
     * A custom resource's ApplyConfiguration merges with its CRD's schema when the test lists the CRD: a
     * listType=map list by its keys, a set by union, an array without a list type refused as atomic, an
     * undeclared field refused; without the CRD every list is atomic.
     */
    @Test
    void customResourcesMergeWithTheirCrdSchema() {
        RenderCommandTest.Run r = run("test", "src/test/resources/aps-test/crd");
        assertEquals(ExitCodes.OK, r.exit(), r.out() + r.err());
        assertEquals(4, r.out().lines().filter(l -> l.contains("PASS  ")).count(), r.out());
    }

    @Test
    void crdsThatHoldNoCrdAreExitTwoWithTheirLines(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("t.yaml");
        Files.writeString(file, """
                apiVersion: aps.policyset.dev/v1alpha1
                kind: PolicyTest
                policies: [%s]
                crds:
                  - %s
                  - missing.yaml
                cases:
                  - name: a
                    object: {apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: default}}
                    expect: {allowed: true}
                """.formatted(Path.of("src/test/resources/aps-test/crd/policies.yaml").toAbsolutePath(),
                Path.of("src/test/resources/aps-test/crd/policies.yaml").toAbsolutePath()));
        RenderCommandTest.Run r = run("test", file.toString());
        assertEquals(ExitCodes.USAGE_OR_INPUT, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("t.yaml:5: crds[0] '"), r.err());
        assertTrue(r.err().contains("holds no CustomResourceDefinition (apiextensions.k8s.io)"), r.err());
        assertTrue(r.err().contains("t.yaml:6: crds[1] 'missing.yaml': no such file or directory"), r.err());
    }

    @Test
    void wrongExpectationFailsWithADiff() {
        RenderCommandTest.Run r = run("test", "config/samples/failing-test/wrong-expectation.test.yaml");
        assertEquals(ExitCodes.FINDINGS, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("FAIL  a privileged pod is denied (it is not, yet)"), r.out());
        assertTrue(r.out().contains("wrong-expectation.test.yaml:8)"), r.out());
        assertTrue(r.out().contains("verdict: expected denied, got allowed"), r.out());
        assertTrue(r.out().contains("reason: expected Forbidden, got (none)"), r.out());
    }

    /**
     * A case that loads a policy the API server refuses to create fails with the server's reason, whatever it
     * expected (the expectations in that file hold for the mutation's evaluation, and would pass without the check);
     * the same policies fixed pass in aps-test/mutating-server-semantics.
     */
    @Test
    void aCaseAgainstAPolicyTheServerRefusesFailsWithTheRefusal() throws IOException {
        RenderCommandTest.Run r = run("test", "-o", "json", "src/test/resources/aps-test-failing/refused-mutations");
        assertEquals(ExitCodes.FINDINGS, r.exit(), r.out() + r.err());
        JsonNode cases = JSON.readTree(r.out()).path("files").get(0).path("cases");
        assertEquals(3, cases.size());
        for (JsonNode c : cases) {
            assertFalse(c.path("passed").asBoolean(), c.toString());
            assertTrue(c.path("differences").get(0).asText().startsWith("the API server refuses to create "
                    + "MutatingAdmissionPolicy/wrong-root-type: spec.mutations[0].applyConfiguration.expression: Invalid value: "
                    + "\"Object.spec{replicas: 3}\": must evaluate to Object but got Object.spec"), c.toString());
            assertEquals(3, java.util.stream.StreamSupport.stream(c.path("differences").spliterator(), false)
                    .filter(d -> d.asText().startsWith("the API server refuses to create")).count(), c.toString());
        }
    }

    @Test
    void malformedFileIsExitTwoWithFileAndLine() {
        RenderCommandTest.Run r = run("test", "src/test/resources/aps-test-failing/malformed.test.yaml");
        assertEquals(ExitCodes.USAGE_OR_INPUT, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("malformed.test.yaml:9: not valid YAML"), r.err());
    }

    @Test
    void structuralProblemsAreExitTwoWithTheirLines(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("t.yaml");
        Files.writeString(file, """
                apiVersion: aps.policyset.dev/v1alpha1
                kind: PolicyTest
                policies: [missing.yaml]
                cases:
                  - name: a
                    objekt: {}
                    expect: {allowed: true, code: many}
                """);
        RenderCommandTest.Run r = run("test", file.toString());
        assertEquals(ExitCodes.USAGE_OR_INPUT, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("t.yaml:3: policies[0] 'missing.yaml': no such file or directory"), r.err());
        assertTrue(r.err().contains("t.yaml:6: unknown field 'cases[0].objekt'"), r.err());
        assertTrue(r.err().contains("t.yaml:7: code must be an HTTP status code"), r.err());
    }

    @Test
    void aFileThatIsNoTestAndAnEmptyDirectoryAreUsageErrors(@TempDir Path dir) throws IOException {
        RenderCommandTest.Run notATest = run("test", "config/samples/baseline-security.yaml");
        assertEquals(ExitCodes.USAGE_OR_INPUT, notATest.exit(), notATest.out() + notATest.err());
        assertTrue(notATest.err().contains("not a test file"), notATest.err());
        Files.writeString(dir.resolve("x.yaml"), "a: 1\n");
        RenderCommandTest.Run none = run("test", dir.toString());
        assertEquals(ExitCodes.USAGE_OR_INPUT, none.exit());
        assertTrue(none.err().contains("no test files found"), none.err());
    }

    @Test
    void jsonOutputAndJunitReport(@TempDir Path dir) throws IOException {
        Path junit = dir.resolve("junit.xml");
        RenderCommandTest.Run r = run("test", "--output", "json", "--junit", junit.toString(),
                "config/samples/tests/", "config/samples/failing-test/wrong-expectation.test.yaml");
        assertEquals(ExitCodes.FINDINGS, r.exit(), r.out() + r.err());
        JsonNode json = JSON.readTree(r.out());
        assertEquals(1, json.path("summary").path("failed").asInt(), r.out());
        assertEquals(json.path("summary").path("cases").asInt() - 1, json.path("summary").path("passed").asInt());
        JsonNode files = json.path("files");
        JsonNode failing = files.get(files.size() - 1).path("cases").get(0);
        assertEquals(false, failing.path("passed").asBoolean());
        assertTrue(failing.path("outcome").path("allowed").asBoolean());
        assertEquals(1, failing.path("outcome").path("warnings").size());
        String xml = Files.readString(junit);
        assertTrue(xml.contains("<testsuites name=\"aps test\""), xml);
        assertTrue(xml.contains("<failure message=\"verdict: expected denied, got allowed\""), xml);
    }

    @Test
    void aPolicysDecisionIsCheckedWhateverItsBindingsActions(@TempDir Path dir) throws IOException {
        // the binding only audits: the request is admitted, the policy is still violated
        Files.copy(Path.of("src/test/resources/aps-test/autogen/policies.yaml"), dir.resolve("policies.yaml"));
        Files.writeString(dir.resolve("wrong.test.yaml"), """
                apiVersion: aps.policyset.dev/v1alpha1
                kind: PolicyTest
                metadata: {name: wrong-decision}
                policies: [policies.yaml]
                fixtures:
                  namespaces: [{name: shop, labels: {tier: apps}}]
                cases:
                  - name: claims the pod passes
                    object:
                      apiVersion: v1
                      kind: Pod
                      metadata: {name: web, namespace: shop, labels: {app: web}}
                      spec: {hostNetwork: true, containers: [{name: web, image: nginx}]}
                    expect:
                      allowed: true
                      decisions:
                        - {policy: disallow-host-network, violated: false}
                        - {policy: disallow-host-network-autogen, violated: false}
                """);
        RenderCommandTest.Run r = run("test", dir.resolve("wrong.test.yaml").toString());
        assertEquals(ExitCodes.FINDINGS, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("decisions.disallow-host-network: expected not violated, got violated: [pod web uses the host network]"), r.out());
        assertTrue(!r.out().contains("decisions.disallow-host-network-autogen"), r.out());
    }

    @Test
    void webhooksThatWouldAlsoInterceptAreNoted() {
        RenderCommandTest.Run r = run("test", "src/test/resources/aps-test/validating");
        assertTrue(r.out().contains("note: also intercepted by webhook ValidatingWebhookConfiguration/service-checker"), r.out());
    }

    @Test
    void kaptestManifestsReportPoliciesTheApiServerWouldNotApply(@TempDir Path dir) throws IOException {
        Path suite = dir.resolve("suite");
        Files.createDirectories(suite);
        Files.writeString(dir.resolve("policy.yaml"), """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: core-group-deployments}
                spec:
                  matchConstraints:
                    resourceRules:
                      - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
                  validations:
                    - expression: object.spec.replicas <= 5
                """);
        Files.writeString(suite.resolve("resources.yaml"), """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: big}
                spec: {replicas: 6}
                """);
        Files.writeString(suite.resolve("kaptest.yaml"), """
                validatingAdmissionPolicies: [../policy.yaml]
                resources: [resources.yaml]
                testSuites:
                  - policy: core-group-deployments
                    tests:
                      - object: {kind: Deployment, name: big}
                        expect: deny
                """);
        RenderCommandTest.Run r = run("test", suite.toString());
        assertEquals(ExitCodes.OK, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("NOT APPLIED BY THE API SERVER: no rule of policy spec.matchConstraints matches CREATE apps/v1/deployments"), r.out());
    }
}

package dev.policyset.aps.core.validate.apiserver;

import dev.policyset.aps.core.cel.CelChecker.PolicyType;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.KubeVersion;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ApiServerRulesTest {
    @Test
    void minimalPolicyIsAccepted() {
        assertEquals(List.of(), Api.errors(Api.vap(Api.VAP_SPEC)));
    }

    @Test
    void everyErrorIsReportedNotJustTheFirst() {
        assertEquals(List.of("spec.auditAnnotations Required", "spec.failurePolicy NotSupported",
                        "spec.matchConstraints Required", "spec.validations Required"),
                Api.errors(Api.vap("spec:\n  failurePolicy: Retry\n")));
    }

    @Test
    void aMissingSpecIsAnEmptySpecWithDefaults() {
        assertEquals(List.of("spec.auditAnnotations Required", "spec.matchConstraints Required", "spec.validations Required"),
                Api.errors(Api.vap("")));
        assertEquals(List.of("spec.policyName Required", "spec.validationActions Required"),
                Api.errors(Api.binding("ValidatingAdmissionPolicyBinding", "spec: null\n")));
    }

    @Test
    void findingsMirrorTheApiServer() {
        List<Finding> findings = Api.findings(Api.vap(Api.VAP_SPEC + "  failurePolicy: Retry\n"),
                KubeVersion.NEWEST, new FakeCelChecker());
        assertEquals(1, findings.size());
        Finding f = findings.get(0);
        assertEquals("api/NotSupported", f.rule());
        assertTrue(f.isError());
        assertEquals("ValidatingAdmissionPolicy/p.example.com", f.object());
        assertEquals("spec.failurePolicy", f.field());
        assertEquals("Unsupported value: \"Retry\": supported values: \"Fail\", \"Ignore\"", f.message());
    }

    @Test
    void celErrorsAreInvalidOnTheExpressionWithTheCelMessage() {
        List<Finding> findings = Api.findings(Api.vap(Api.VAP_SPEC.replace("object.spec.replicas <= 5", "BROKEN")),
                KubeVersion.NEWEST, new FakeCelChecker());
        assertEquals(1, findings.size());
        Finding f = findings.get(0);
        assertEquals("api/Invalid", f.rule());
        assertEquals("spec.validations[0].expression", f.field());
        assertTrue(f.message().contains("undeclared reference to 'BROKEN'"), f.message());
    }

    @Test
    void policyExpressionsAreCheckedInOneScopeInUpstreamOrder() {
        FakeCelChecker cel = new FakeCelChecker();
        Api.findings(Api.vap("""
                spec:
                  paramKind: {apiVersion: v1, kind: ConfigMap}
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
                  matchConditions:
                  - {name: c, expression: 'true'}
                  variables:
                  - {name: a, expression: '1'}
                  - {name: 'not-ident', expression: '2'}
                  validations:
                  - {expression: variables.a == 1, messageExpression: "'m'"}
                  auditAnnotations:
                  - {key: k, valueExpression: "'v'"}
                """), KubeVersion.NEWEST, cel);
        assertEquals(1, cel.scopes);
        assertEquals(List.of("check MATCH_CONDITION", "declare VARIABLE", "check VARIABLE", "check VALIDATION",
                        "check MESSAGE_EXPRESSION", "check AUDIT_ANNOTATION_VALUE"),
                cel.calls.stream().map(c -> c.what() + " " + c.kind()).toList());
        assertTrue(cel.calls.stream().allMatch(c -> c.type() == PolicyType.VALIDATING && c.hasParams()));
        assertEquals("a", cel.calls.get(1).name());
    }

    @Test
    void webhookMatchConditionsUseTheWebhookEnvironment() {
        FakeCelChecker cel = new FakeCelChecker();
        Api.findings(Api.webhooks("ValidatingWebhookConfiguration",
                "  matchConditions:\n  - {name: c, expression: 'request.name != \"\"'}\n"), KubeVersion.NEWEST, cel);
        assertEquals(1, cel.calls.size());
        FakeCelChecker.Call call = cel.calls.get(0);
        assertEquals(PolicyType.WEBHOOK, call.type());
        assertEquals("WEBHOOK_MATCH_CONDITION", call.kind().name());
        assertFalse(call.hasParams());
    }

    @Test
    void aCheckerThatThrowsBecomesAWarningNotACrash() {
        List<Finding> findings = Api.findings(Api.vap(Api.VAP_SPEC.replace("object.spec.replicas <= 5", "THROW")),
                KubeVersion.NEWEST, new FakeCelChecker());
        assertEquals(1, findings.size());
        assertEquals("cel/Unchecked", findings.get(0).rule());
        assertFalse(findings.get(0).isError());
    }

    @Test
    void apiVersionsTheServerCannotServeAreNotSupported() {
        String v1Map = Api.map("""
                spec:
                  reinvocationPolicy: Never
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
                  mutations:
                  - patchType: JSONPatch
                    jsonPatch: {expression: "[]"}
                """);
        assertEquals(List.of(), Api.errors(v1Map));
        assertEquals(List.of("apiVersion NotSupported"), Api.errors(v1Map, new KubeVersion(1, 35)));
        assertEquals(List.of(), Api.errors(v1Map.replace("/v1\n", "/v1beta1\n"), new KubeVersion(1, 35)));
        // 1.37 serves the same versions as 1.36 (zz_generated.prerelease-lifecycle.go unchanged): v1, and the
        // deprecated v1beta1 / v1alpha1 for clusters that enable them
        for (String version : List.of("/v1\n", "/v1beta1\n", "/v1alpha1\n")) {
            assertEquals(List.of(), Api.errors(v1Map.replace("/v1\n", version), new KubeVersion(1, 37)), version);
            assertEquals(List.of(), Api.errors(v1Map.replace("/v1\n", version), new KubeVersion(1, 36)), version);
        }
        assertEquals(new KubeVersion(1, 37), KubeVersion.NEWEST);
        assertEquals(java.util.Optional.of("v1"), KubeVersion.NEWEST.mutatingPolicyApiVersion());
        assertEquals(List.of("apiVersion NotSupported"), Api.errors(Api.vap(Api.VAP_SPEC).replace("/v1\n", "/v2\n")));
    }

    @Test
    void validatingPolicyBetaAndAlphaAreNotServedFromTheReleaseThatRemovedThem() {
        // k8s.io/api admissionregistration zz_generated.prerelease-lifecycle.go: ValidatingAdmissionPolicy(Binding)
        // v1alpha1 removed in 1.32, v1beta1 in 1.34; a removed version is not served even with --runtime-config
        // (the real 1.37.2 server answers 404; StructureDifferentialRealServerTest, corpus/vap/kaptest--*).
        String vap = Api.vap(Api.VAP_SPEC);
        String vapb = Api.binding("ValidatingAdmissionPolicyBinding", "spec:\n  policyName: p\n  validationActions: [Deny]\n");
        for (String object : List.of(vap, vapb)) {
            String beta = object.replace("/v1\n", "/v1beta1\n");
            String alpha = object.replace("/v1\n", "/v1alpha1\n");
            assertEquals(List.of("apiVersion NotSupported"), Api.errors(beta, new KubeVersion(1, 34)));
            assertEquals(List.of("apiVersion NotSupported"), Api.errors(beta, KubeVersion.NEWEST));
            assertEquals(List.of(), Api.errors(beta, new KubeVersion(1, 33)));
            assertEquals(List.of("apiVersion NotSupported"), Api.errors(alpha, new KubeVersion(1, 32)));
            assertEquals(List.of(), Api.errors(alpha, new KubeVersion(1, 31)));
            assertEquals(List.of(), Api.errors(object, KubeVersion.NEWEST));
        }
    }

    @Test
    void conformanceCasesMayAskForANewerServer() {
        assertEquals(new KubeVersion(1, 36), ConformanceTest.targetFor(""));
        assertEquals(new KubeVersion(1, 36), ConformanceTest.targetFor("a default 1.36/1.37 server answers 404"));
        assertEquals(new KubeVersion(1, 37), ConformanceTest.targetFor("kube-apiserver >= 1.37 (gate beta)"));
        assertEquals(new KubeVersion(1, 37), ConformanceTest.targetFor("Kubernetes 1.37+"));
        assertEquals(new KubeVersion(1, 38), ConformanceTest.targetFor("at least v1.38"));
    }
}

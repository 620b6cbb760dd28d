package dev.policyset.aps.core.validate.apiserver;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** VAP validations/auditAnnotations/variables/paramKind and MAP mutations/reinvocationPolicy. */
class PolicyValidationTest {
    private static final String RULES = """
            spec:
              matchConstraints:
                resourceRules:
                - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
            """;

    @Test
    void validations() {
        assertEquals(List.of("spec.validations[0].expression Required", "spec.validations[0].message Invalid",
                        "spec.validations[0].messageExpression Invalid", "spec.validations[0].reason NotSupported",
                        "spec.validations[1].message Invalid"),
                Api.errors(Api.vap(RULES + """
                          validations:
                          - {expression: ' ', message: '  ', messageExpression: ' ', reason: Unauthorized}
                          - {expression: 'true', message: "two\\nlines"}
                          - {expression: 'true', message: "trailing newline is fine\\n", reason: Invalid}
                        """)));
    }

    @Test
    void auditAnnotations() {
        StringBuilder many = new StringBuilder("  auditAnnotations:\n");
        for (int i = 0; i < 21; i++) {
            many.append("  - {key: k").append(i).append(", valueExpression: \"'v'\"}\n");
        }
        assertEquals(List.of("spec.auditAnnotations Invalid"), Api.errors(Api.vap(RULES + many)));
        assertEquals(List.of("spec.auditAnnotations[0].key Invalid", "spec.auditAnnotations[0].key Invalid",
                        "spec.auditAnnotations[1].key Invalid", "spec.auditAnnotations[2].valueExpression Required",
                        "spec.auditAnnotations[3].key Duplicate", "spec.auditAnnotations[4].valueExpression Required"),
                Api.errors(Api.vap(RULES + """
                          auditAnnotations:
                          - {key: '', valueExpression: "'v'"}
                          - {key: 'a/b', valueExpression: "'v'"}
                          - {key: ok, valueExpression: '  '}
                          - {key: ok, valueExpression: "'v'"}
                          - key: long
                            valueExpression: "'%s'"
                        """.formatted("x".repeat(5200)))));
    }

    @Test
    void variablesAndParamKind() {
        assertEquals(List.of("spec.paramKind.apiVersion Invalid", "spec.paramKind.apiVersion Invalid",
                        "spec.paramKind.kind Invalid", "spec.variables[0].name Invalid",
                        "spec.variables[1].name Required", "spec.variables[2].expression Required"),
                Api.errors(Api.vap(RULES + """
                          paramKind: {apiVersion: Example.com/V1, kind: 9Lives}
                          variables:
                          - {name: namespace, expression: '1'}
                          - {name: ' ', expression: '1'}
                          - {name: ok, expression: ' '}
                          validations:
                          - expression: 'true'
                        """)));
        assertEquals(List.of(), Api.errors(Api.vap(RULES + """
                  paramKind: {apiVersion: rules.example.com/v1, kind: replica-limit}
                  validations:
                  - expression: 'true'
                """)));
    }

    @Test
    void mutations() {
        String map = Api.map(RULES + """
                  mutations:
                  - {}
                  - {patchType: Merge, jsonPatch: {expression: ''}}
                  - {patchType: ApplyConfiguration, applyConfiguration: {expression: ' '}, jsonPatch: {expression: x}}
                  - {patchType: JSONPatch}
                """);
        assertEquals(List.of("spec.mutations[0].patchType Required", "spec.mutations[1].patchType NotSupported",
                        "spec.mutations[2].applyConfiguration.expression Required", "spec.mutations[2].jsonPatch Invalid",
                        "spec.mutations[3].jsonPatch Required", "spec.reinvocationPolicy Required"),
                Api.errors(map));
        assertEquals(List.of("spec.mutations Required", "spec.reinvocationPolicy NotSupported"),
                Api.errors(Api.map(RULES + "  reinvocationPolicy: Always\n")));
    }

    @Test
    void bindings() {
        assertEquals(List.of("spec.policyName Required", "spec.validationActions Required"),
                Api.errors(Api.binding("ValidatingAdmissionPolicyBinding", "spec: {}\n")));
        assertEquals(List.of("spec.paramRef.name Invalid", "spec.validationActions Invalid",
                        "spec.validationActions[2] NotSupported", "spec.validationActions[3] Duplicate"),
                Api.errors(Api.binding("ValidatingAdmissionPolicyBinding", """
                        spec:
                          policyName: p.example.com
                          paramRef: {name: 'a/b', parameterNotFoundAction: Deny}
                          validationActions: [Deny, Warn, deny, Deny]
                        """)));
        assertEquals(List.of("spec.paramRef Required", "spec.paramRef.parameterNotFoundAction Required"),
                Api.errors(Api.binding("MutatingAdmissionPolicyBinding",
                        "spec:\n  policyName: m\n  paramRef: {namespace: n}\n")));
    }

    @Test
    void v1alpha1BindingsDefaultTheParameterNotFoundAction() {
        String alpha = Api.binding("MutatingAdmissionPolicyBinding", "spec:\n  policyName: m\n  paramRef: {name: p}\n")
                .replace("/v1\n", "/v1alpha1\n");
        assertEquals(List.of(), Api.errors(alpha));
        assertEquals(List.of("spec.paramRef.parameterNotFoundAction Required"),
                Api.errors(alpha.replace("/v1alpha1\n", "/v1beta1\n")));
    }
}

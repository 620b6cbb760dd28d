package dev.policyset.aps.core.validate.apiserver;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Label selectors, matchResources (defaults, mutating operations) and matchConditions. */
class SelectorAndMatchTest {
    private static String vapWith(String matchConstraintsExtra, String specExtra) {
        return Api.vap("""
                spec:
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
                """ + matchConstraintsExtra + "  validations:\n  - expression: 'true'\n" + specExtra);
    }

    @Test
    void selectorsAreStrict() {
        assertEquals(List.of(
                        "spec.matchConstraints.namespaceSelector.matchExpressions[0].operator Invalid",
                        "spec.matchConstraints.namespaceSelector.matchExpressions[1].values Required",
                        "spec.matchConstraints.namespaceSelector.matchExpressions[2].values Forbidden",
                        "spec.matchConstraints.namespaceSelector.matchExpressions[3].key Invalid",
                        "spec.matchConstraints.namespaceSelector.matchExpressions[3].values[0] Invalid",
                        "spec.matchConstraints.objectSelector.matchLabels Invalid",
                        "spec.matchConstraints.objectSelector.matchLabels Invalid"),
                Api.errors(vapWith("""
                            namespaceSelector:
                              matchExpressions:
                              - {key: a, operator: Equals, values: [x]}
                              - {key: a, operator: NotIn}
                              - {key: a, operator: Exists, values: [x]}
                              - {key: 'bad key', operator: In, values: ['bad value!']}
                            objectSelector:
                              matchLabels: {'-bad': ok, good: 'not ok!'}
                        """, "")));
    }

    @Test
    void matchResourcesDefaultsMeanNothingIsMissing() {
        assertEquals(List.of(), Api.errors(vapWith("    namespaceSelector: null\n    matchPolicy: null\n", "")));
        assertEquals(List.of("spec.matchConstraints.matchPolicy NotSupported"),
                Api.errors(vapWith("    matchPolicy: exact\n", "")));
    }

    @Test
    void mutatingKindsCannotMatchDeleteButMayExcludeIt() {
        String map = Api.map("""
                spec:
                  reinvocationPolicy: Never
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE, DELETE, PATCH], resources: [pods]}
                    excludeResourceRules:
                    - {apiGroups: [""], apiVersions: [v1], operations: [DELETE], resources: [pods]}
                  mutations:
                  - {patchType: JSONPatch, jsonPatch: {expression: '[]'}}
                """);
        assertEquals(List.of("spec.matchConstraints.resourceRules.operations NotSupported",
                        "spec.matchConstraints.resourceRules.operations NotSupported",
                        "spec.matchConstraints.resourceRules[0].operations[2] NotSupported"),
                Api.errors(map));
        assertEquals(List.of("spec.matchResources.resourceRules.operations NotSupported"),
                Api.errors(Api.binding("MutatingAdmissionPolicyBinding", """
                        spec:
                          policyName: m.example.com
                          matchResources:
                            resourceRules:
                            - {apiGroups: [""], apiVersions: [v1], operations: [DELETE], resources: [pods]}
                        """)));
    }

    @Test
    void matchConditions() {
        StringBuilder many = new StringBuilder("  matchConditions:\n");
        for (int i = 0; i < 65; i++) {
            many.append("  - {name: c").append(i).append(", expression: 'true'}\n");
        }
        assertEquals(List.of("spec.matchConditions TooMany"), Api.errors(vapWith("", many.toString())));
        assertEquals(List.of("spec.matchConditions[0].expression Required", "spec.matchConditions[0].name Invalid",
                        "spec.matchConditions[1].name Required", "spec.matchConditions[3].name Duplicate"),
                Api.errors(vapWith("", """
                          matchConditions:
                          - {name: '-bad', expression: '  '}
                          - {expression: 'true'}
                          - {name: ok, expression: 'true'}
                          - {name: ok, expression: 'true'}
                        """)));
    }

    @Test
    void sameMatchConditionNameMayRepeatAcrossWebhooks() {
        String yaml = Api.webhooks("ValidatingWebhookConfiguration", "  matchConditions: [{name: c, expression: 'true'}]\n")
                + "- name: second.example.com\n  clientConfig: {url: 'https://x.example.com'}\n  sideEffects: None\n"
                + "  admissionReviewVersions: [v1]\n  matchConditions: [{name: c, expression: 'true'}]\n";
        assertEquals(List.of(), Api.errors(yaml));
    }
}

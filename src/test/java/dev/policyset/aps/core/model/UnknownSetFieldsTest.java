package dev.policyset.aps.core.model;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.yaml.Document;
import dev.policyset.aps.core.yaml.DocumentParseException;
import dev.policyset.aps.core.yaml.Yaml;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A field the CRD does not declare, at any level of a set, is an error on its path with the name it most likely
 * meant, and the set is not read (so nothing is rendered with the default the typo fell back to).
 */
class UnknownSetFieldsTest {
    /** A set with every level filled in; each case misspells one of its lines. */
    static final String SET = """
            apiVersion: admission.policyset.dev/v1alpha1
            kind: AdmissionPolicySet
            metadata:
              name: every-level
              labels: {team: platform}
            spec:
              defaults:
                failurePolicy: Ignore
                validationActions: [Deny]
                webhookTimeoutSeconds: 5
                excludedNamespaces: [kube-system, kube-node-lease]
              safety:
                enforcement: Block
                exemptions:
                  - rule: APS301
                    object: ValidatingWebhookConfiguration/checker
                    reason: reviewed
              validatingPolicies:
                - name: require-team
                  labels: {tier: one}
                  policy:
                    failurePolicy: Fail
                    matchConstraints:
                      resourceRules:
                        - apiGroups: [""]
                          apiVersions: [v1]
                          operations: [CREATE]
                          resources: [configmaps]
                    validations:
                      - expression: "has(object.metadata.labels)"
                        message: needs labels
                  bindings:
                    - name: require-team-prod
                      spec:
                        validationActions: [Warn]
                        matchResources:
                          namespaceSelector:
                            matchLabels: {env: prod}
              mutatingPolicies:
                - name: add-owner
                  policy:
                    reinvocationPolicy: Never
                    matchConstraints:
                      resourceRules:
                        - apiGroups: [""]
                          apiVersions: [v1]
                          operations: [CREATE]
                          resources: [configmaps]
                    mutations:
                      - patchType: ApplyConfiguration
                        applyConfiguration:
                          expression: "Object{metadata: Object.metadata{labels: {'owner': 'x'}}}"
              validatingWebhooks:
                - name: checker
                  webhooks:
                    - name: checker.example.com
                      clientConfig:
                        service: {namespace: checker, name: checker, path: /validate}
                      rules:
                        - apiGroups: [""]
                          apiVersions: [v1]
                          operations: [CREATE]
                          resources: [configmaps]
                      sideEffects: None
                      admissionReviewVersions: [v1]
                      timeoutSeconds: 5
              mutatingWebhooks:
                - name: injector
                  annotations: {owner: platform}
                  webhooks:
                    - name: injector.example.com
                      clientConfig: {url: "https://injector.example.com/mutate"}
                      sideEffects: None
                      admissionReviewVersions: [v1]
                      reinvocationPolicy: Never
              prune: true
              deletionPolicy: Delete
              paused: false
            """;

    private static Document document(String text) {
        try {
            return Yaml.parse("set.yaml", text).get(0);
        } catch (DocumentParseException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aSetWithEveryLevelFilledInHasNoFindings() {
        PolicySetReader.Result result = PolicySetReader.read(document(SET).content());
        assertEquals(List.of(), result.findings());
        assertTrue(result.set().isPresent());
    }

    /**
     * {@code line} is the 1-based line of SET that the case misspells; {@code from} → {@code to} is the edit on that
     * line. The finding must name the misspelt field's full path and suggest the declared name.
     */
    @ParameterizedTest(name = "{3}")
    @CsvSource(delimiter = '|', value = {
            " 5 | labels:                | lables:                | metadata.lables                                                    | labels",
            " 6 | spec:                  | sepc:                  | sepc                                                               | spec",
            " 8 | failurePolicy:         | failurPolicy:          | spec.defaults.failurPolicy                                         | failurePolicy",
            "11 | excludedNamespaces:    | excludeNamespaces:     | spec.defaults.excludeNamespaces                                    | excludedNamespaces",
            "12 | safety:                | saftey:                | spec.saftey                                                        | safety",
            "13 | enforcement:           | enforcment:            | spec.safety.enforcment                                             | enforcement",
            "17 | reason:                | reasons:               | spec.safety.exemptions[0].reasons                                  | reason",
            "18 | validatingPolicies:    | validatingPolicy:      | spec.validatingPolicy                                              | validatingPolicies",
            "20 | labels:                | label:                 | spec.validatingPolicies[0].label                                   | labels",
            "29 | validations:           | validation:            | spec.validatingPolicies[0].policy.validation                       | validations",
            "32 | bindings:              | binding:               | spec.validatingPolicies[0].binding                                 | bindings",
            "34 | spec:                  | spce:                  | spec.validatingPolicies[0].bindings[0].spce                        | spec",
            "35 | validationActions:     | validationAction:      | spec.validatingPolicies[0].bindings[0].spec.validationAction       | validationActions",
            "38 | matchLabels:           | matchlabels:           | spec.validatingPolicies[0].bindings[0].spec.matchResources.namespaceSelector.matchlabels | matchLabels",
            "42 | reinvocationPolicy:    | reinvocationpolicy:    | spec.mutatingPolicies[0].policy.reinvocationpolicy                 | reinvocationPolicy",
            "52 | expression:            | expresion:             | spec.mutatingPolicies[0].policy.mutations[0].applyConfiguration.expresion | expression",
            "55 | webhooks:              | webhook:               | spec.validatingWebhooks[0].webhook                                 | webhooks",
            "58 | service:               | servise:               | spec.validatingWebhooks[0].webhooks[0].clientConfig.servise        | service",
            "66 | timeoutSeconds:        | timeoutSecond:         | spec.validatingWebhooks[0].webhooks[0].timeoutSecond               | timeoutSeconds",
            "69 | annotations:           | anotations:            | spec.mutatingWebhooks[0].anotations                                | annotations",
            "75 | reinvocationPolicy:    | reinvokationPolicy:    | spec.mutatingWebhooks[0].webhooks[0].reinvokationPolicy            | reinvocationPolicy",
            "77 | deletionPolicy:        | deletePolicy:          | spec.deletePolicy                                                  | deletionPolicy",
    })
    void aMisspeltFieldIsAnErrorOnItsPathWithTheNameItMeant(int line, String from, String to, String path, String meant) {
        List<String> lines = Arrays.asList(SET.split("\n", -1));
        assertTrue(lines.get(line - 1).contains(from), "line " + line + " is " + lines.get(line - 1));
        lines.set(line - 1, lines.get(line - 1).replace(from, to));
        Document misspelt = document(String.join("\n", lines));

        PolicySetReader.Result result = PolicySetReader.read(misspelt.content());

        assertTrue(result.set().isEmpty(), "a set with a misspelt field is not rendered");
        List<Finding> unknown = result.findings().stream().filter(f -> f.message().contains("unknown field")).toList();
        assertEquals(1, unknown.size(), result.findings().toString());
        Finding f = unknown.get(0);
        assertEquals("api/Invalid", f.rule());
        assertEquals(Severity.ERROR, f.severity());
        assertEquals("AdmissionPolicySet/every-level", f.object());
        assertEquals(path, f.field());
        assertTrue(f.message().contains("unknown field \"" + path + "\""), f.message());
        assertTrue(f.message().contains("did you mean \"" + meant + "\"?"), f.message());
        assertEquals(line, misspelt.lineOf(f.field()), "the finding points at the misspelt line");
    }

    /** What an API server stored was held to the installed CRD already; a field unknown here is from a newer CRD. */
    @Test
    void aStoredSetIsReadWithoutTheUnknownFieldCheck() {
        String newer = SET.replace("  paused: false\n", "  paused: false\n  fieldFromANewerCrd: x\n");
        assertTrue(PolicySetReader.read(document(newer).content()).set().isEmpty());
        PolicySetReader.Result stored = PolicySetReader.readStored(document(newer).content());
        assertEquals(List.of(), stored.findings());
        assertTrue(stored.set().isPresent());
    }
}

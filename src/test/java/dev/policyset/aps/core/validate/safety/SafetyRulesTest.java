package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.validate.ValidationOptions;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static dev.policyset.aps.core.validate.safety.SafetyFixtures.EXCLUDE_SYSTEM;
import static dev.policyset.aps.core.validate.safety.SafetyFixtures.PODS;
import static dev.policyset.aps.core.validate.safety.SafetyFixtures.mwc;
import static dev.policyset.aps.core.validate.safety.SafetyFixtures.run;
import static dev.policyset.aps.core.validate.safety.SafetyFixtures.vwc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SafetyRulesTest {
    private static Finding only(List<Finding> findings) {
        assertEquals(1, findings.size(), () -> "expected one finding, got " + findings);
        return findings.get(0);
    }

    @Test
    void rulesAreRegisteredInIdOrderWithUniqueIds() {
        List<String> ids = SafetyRules.all().stream().map(SafetyRule::id).toList();
        assertEquals(ids.stream().sorted().distinct().toList(), ids);
        assertTrue(ids.stream().allMatch(id -> id.matches("APS[1-7][0-9]{2}")));
    }

    @Nested
    class Aps101 {
        final SafetyRule rule = new Aps101ImplicitReinvocation();

        @Test
        void notesAWebhookThatAsksToBeReinvoked() {
            Finding f = only(run(rule, mwc("inject", PODS + "reinvocationPolicy: IfNeeded\n")));
            assertEquals("APS101", f.rule());
            assertEquals(Severity.INFO, f.severity());
            assertEquals("MutatingWebhookConfiguration/inject", f.object());
            assertEquals("webhooks[0].reinvocationPolicy", f.field());
        }

        @Test
        void quietWhenUnsetNeverOrValidating() {
            assertEquals(List.of(), run(rule, mwc("inject", PODS)), "unset is Never, the conservative default");
            assertEquals(List.of(), run(rule, mwc("inject", PODS + "reinvocationPolicy: Never\n")));
            assertEquals(List.of(), run(rule, vwc("check", PODS + "reinvocationPolicy: IfNeeded\n")));
        }
    }

    @Nested
    class Aps102 {
        final SafetyRule rule = new Aps102NonIdempotentReinvocation();

        static String map(String reinvocation, String mutation) {
            return """
                    apiVersion: admissionregistration.k8s.io/v1
                    kind: MutatingAdmissionPolicy
                    metadata: {name: sidecar}
                    spec:
                      reinvocationPolicy: %s
                      mutations:
                    %s
                    """.formatted(reinvocation, mutation.indent(4));
        }

        static final String APPEND = """
                - patchType: JSONPatch
                  jsonPatch:
                    expression: >-
                      [JSONPatch{op: "add", path: "/spec/initContainers/-", value: Object.spec.initContainers{name: "proxy"}}]
                """;

        static final String APPLY = """
                - patchType: ApplyConfiguration
                  applyConfiguration:
                    expression: 'Object{metadata: Object.metadata{labels: {"a": "b"}}}'
                """;

        @Test
        void firesOnAppendWithIfNeeded() {
            Finding f = only(run(rule, map("IfNeeded", APPEND)));
            assertEquals(Severity.ERROR, f.severity());
            assertEquals("spec.mutations[0].jsonPatch.expression", f.field());
        }

        @Test
        void quietOnNeverOrIdempotentMutation() {
            assertEquals(List.of(), run(rule, map("Never", APPEND)));
            assertEquals(List.of(), run(rule, map("IfNeeded", APPLY)));
        }
    }

    @Nested
    class Aps201 {
        final SafetyRule rule = new Aps201FailClosedSystemNamespaces();

        @Test
        void firesForFailClosedWithoutSelector() {
            Finding f = only(run(rule, vwc("check", PODS)));
            assertEquals(Severity.ERROR, f.severity());
            assertEquals("webhooks[0].namespaceSelector", f.field());
            assertTrue(f.message().contains("failurePolicy unset"), f.message());
            assertTrue(f.message().contains("kube-system"));
            assertTrue(!f.message().contains("kube-node-lease"), "pods are never in kube-node-lease");
        }

        @Test
        void firesWhenKubeSystemIsOnlyExcludedByAMutableLabel() {
            String optOut = PODS + """
                    failurePolicy: Fail
                    namespaceSelector:
                      matchExpressions:
                        - {key: control-plane, operator: DoesNotExist}
                    """;
            only(run(rule, vwc("check", optOut)));
        }

        @Test
        void firesForKubeNodeLeaseWhenLeasesMatch() {
            String leases = """
                    rules:
                      - apiGroups: [coordination.k8s.io]
                        apiVersions: [v1]
                        operations: [UPDATE]
                        resources: [leases]
                    namespaceSelector:
                      matchExpressions:
                        - {key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}
                    """;
            assertTrue(only(run(rule, vwc("check", leases))).message().contains("kube-node-lease"));
        }

        @Test
        void firesForRulesOnNamespacesThemselves() {
            String namespaces = """
                    rules:
                      - {apiGroups: [""], apiVersions: ["*"], operations: [CREATE, UPDATE], resources: [namespaces]}
                    namespaceSelector:
                      matchExpressions:
                        - {key: kubernetes.io/metadata.name, operator: NotIn, values: [hooks]}
                    """;
            only(run(rule, vwc("check", namespaces)));
        }

        @Test
        void quietWhenExcludedByNameOptInOrFailOpen() {
            assertEquals(List.of(), run(rule, vwc("check", PODS + EXCLUDE_SYSTEM)));
            assertEquals(List.of(), run(rule, vwc("check", PODS + "failurePolicy: Ignore\n")));
            String optIn = PODS + "namespaceSelector: {matchLabels: {inject: enabled}}\n";
            assertEquals(List.of(), run(rule, vwc("check", optIn)));
            String inList = PODS + """
                    namespaceSelector:
                      matchExpressions:
                        - {key: kubernetes.io/metadata.name, operator: In, values: [team-a]}
                    """;
            assertEquals(List.of(), run(rule, vwc("check", inList)));
        }

        @Test
        void quietForCustomResourcesAndClusterScopedOnly() {
            String crd = """
                    rules:
                      - apiGroups: [postgresql.cnpg.io]
                        apiVersions: [v1]
                        operations: [CREATE]
                        resources: [clusters]
                    """;
            assertEquals(List.of(), run(rule, vwc("check", crd)));
            String nodes = """
                    rules:
                      - apiGroups: [""]
                        apiVersions: [v1]
                        operations: [CREATE]
                        resources: [nodes]
                    """;
            assertEquals(List.of(), run(rule, vwc("check", nodes)));
            String clusterScope = """
                    rules:
                      - apiGroups: [rbac.authorization.k8s.io]
                        apiVersions: ["*"]
                        operations: [CREATE]
                        resources: ["*"]
                        scope: Cluster
                    """;
            assertEquals(List.of(), run(rule, vwc("check", clusterScope)));
        }
    }

    @Nested
    class Aps202 {
        final SafetyRule rule = new Aps202FailClosedOwnNamespace();

        @Test
        void firesWhenOwnNamespaceIsReachable() {
            String selector = PODS + """
                    namespaceSelector:
                      matchExpressions:
                        - {key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}
                    """;
            Finding f = only(run(rule, vwc("check", selector)));
            assertTrue(f.message().contains("hooks"), f.message());
        }

        @Test
        void quietWhenOwnNamespaceExcludedOrUrlOrFailOpen() {
            assertEquals(List.of(), run(rule, vwc("check", PODS + EXCLUDE_SYSTEM)));
            assertEquals(List.of(), run(rule, vwc("check", PODS + "failurePolicy: Ignore\n")));
            String url = """
                    apiVersion: admissionregistration.k8s.io/v1
                    kind: ValidatingWebhookConfiguration
                    metadata: {name: remote}
                    webhooks:
                      - name: remote.example.com
                        clientConfig: {url: "https://hooks.example.com/validate"}
                    """ + PODS.indent(4);
            assertEquals(List.of(), run(rule, url));
        }
    }

    @Nested
    class Aps203 {
        final SafetyRule rule = new Aps203MutableLabelExemption();

        @Test
        void firesOnNamespaceOptOutLabelAndObjectSelectorOptOut() {
            String both = PODS + """
                    namespaceSelector:
                      matchExpressions:
                        - {key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}
                        - {key: policy.example.com/ignore, operator: DoesNotExist}
                    objectSelector:
                      matchExpressions:
                        - {key: skip-checks, operator: NotIn, values: ["true"]}
                    """;
            List<Finding> findings = run(rule, vwc("check", both));
            assertEquals(List.of("webhooks[0].namespaceSelector.matchExpressions[1]",
                    "webhooks[0].objectSelector.matchExpressions[0]"), findings.stream().map(Finding::field).toList());
        }

        @Test
        void firesOnPolicyBindingSelectors() {
            String binding = """
                    apiVersion: admissionregistration.k8s.io/v1
                    kind: ValidatingAdmissionPolicyBinding
                    metadata: {name: b}
                    spec:
                      policyName: p
                      validationActions: [Deny]
                      matchResources:
                        namespaceSelector:
                          matchExpressions:
                            - {key: exempt, operator: DoesNotExist}
                    """;
            assertEquals("spec.matchResources.namespaceSelector.matchExpressions[0]", only(run(rule, binding)).field());
        }

        @Test
        void quietOnNameExclusionOptInAndMutatingOptOut() {
            assertEquals(List.of(), run(rule, vwc("check", PODS + EXCLUDE_SYSTEM)));
            assertEquals(List.of(), run(rule, vwc("check", PODS + "namespaceSelector: {matchLabels: {enforce: \"true\"}}\n")));
            String injectorOptOut = PODS + """
                    reinvocationPolicy: Never
                    objectSelector:
                      matchExpressions:
                        - {key: sidecar.example.com/inject, operator: NotIn, values: ["false"]}
                    """;
            assertEquals(List.of(), run(rule, mwc("inject", injectorOptOut)));
        }
    }

    @Nested
    class Aps204 {
        final SafetyRule rule = new Aps204MatchesEverything();

        static final String ALL = """
                rules:
                  - apiGroups: ["*"]
                    apiVersions: ["*"]
                    operations: ["*"]
                    resources: ["*/*"]
                """;

        @Test
        void firesOnCatchAllAndOnNoRules() {
            assertEquals("webhooks[0].rules[0]", only(run(rule, vwc("check", ALL))).field());
            assertEquals("webhooks[0].rules", only(run(rule, vwc("check", "timeoutSeconds: 5\n"))).field());
        }

        @Test
        void firesOnCatchAllPolicy() {
            String vap = """
                    apiVersion: admissionregistration.k8s.io/v1
                    kind: ValidatingAdmissionPolicy
                    metadata: {name: p}
                    spec:
                      matchConstraints:
                        resourceRules:
                          - {apiGroups: ["*"], apiVersions: ["*"], operations: [CREATE, UPDATE], resources: ["*"]}
                      validations: [{expression: "true"}]
                    """;
            assertEquals("spec.matchConstraints.resourceRules[0]", only(run(rule, vap)).field());
        }

        @Test
        void quietOnCatchAllPolicyWhenEveryBindingNarrows() {
            String vap = """
                    apiVersion: admissionregistration.k8s.io/v1
                    kind: ValidatingAdmissionPolicy
                    metadata: {name: p}
                    spec:
                      matchConstraints:
                        resourceRules:
                          - {apiGroups: ["*"], apiVersions: ["*"], operations: ["*"], resources: ["*"]}
                      validations: [{expression: "true"}]
                    ---
                    apiVersion: admissionregistration.k8s.io/v1
                    kind: ValidatingAdmissionPolicyBinding
                    metadata: {name: b}
                    spec:
                      policyName: p
                      validationActions: [Deny]
                      matchResources:
                        resourceRules:
                          - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
                    """;
            assertEquals(List.of(), run(rule, vap));
        }

        @Test
        void quietOnListedResources() {
            assertEquals(List.of(), run(rule, vwc("check", PODS)));
            String oneGroup = """
                    rules:
                      - {apiGroups: [apps], apiVersions: ["*"], operations: ["*"], resources: ["*"]}
                    """;
            assertEquals(List.of(), run(rule, vwc("check", oneGroup)));
        }
    }

    @Nested
    class Aps205 {
        final SafetyRule rule = new Aps205ControlPlaneResources();

        @Test
        void firesOnNodesEvenWithNamespaceExclusion() {
            String nodes = """
                    rules:
                      - {apiGroups: [""], apiVersions: [v1], operations: [UPDATE], resources: ["nodes/status"]}
                    """ + EXCLUDE_SYSTEM;
            assertTrue(only(run(rule, vwc("check", nodes))).message().contains("nodes/status"));
        }

        @Test
        void authReviewsCountOnlyBefore137() {
            // Kubernetes 1.37 stops sending authentication/authorization reviews to admission webhooks
            // (ExcludeAdmissionWebhookVirtualResources, beta and on by default: apiserver pkg/features/kube_features.go)
            String reviews = """
                    rules:
                      - {apiGroups: [authentication.k8s.io, authorization.k8s.io], apiVersions: [v1], operations: [CREATE],
                         resources: [tokenreviews, subjectaccessreviews]}
                    """;
            List<Finding> at136 = rule.check(new SafetyContext(SafetyFixtures.subjects(vwc("check", reviews)),
                    new ValidationOptions(new KubeVersion(1, 36), Set.of())));
            assertTrue(only(at136).message().contains("tokenreviews.authentication.k8s.io, subjectaccessreviews"),
                    at136::toString);
            List<Finding> at137 = rule.check(new SafetyContext(SafetyFixtures.subjects(vwc("check", reviews)),
                    new ValidationOptions(new KubeVersion(1, 37), Set.of())));
            assertTrue(at137.isEmpty(), at137::toString);
        }

        @Test
        void firesOnWildcardLeasesReachingKubeNodeLease() {
            String all = """
                    rules:
                      - {apiGroups: ["*"], apiVersions: ["*"], operations: [UPDATE], resources: ["*"]}
                    """;
            assertTrue(only(run(rule, vwc("check", all))).message().contains("leases.coordination.k8s.io"));
        }

        @Test
        void quietWhenFailOpenOrNamespacedCriticalExcluded() {
            String nodes = """
                    rules:
                      - {apiGroups: [""], apiVersions: [v1], operations: [UPDATE], resources: [nodes]}
                    failurePolicy: Ignore
                    """;
            assertEquals(List.of(), run(rule, vwc("check", nodes)));
            String leases = """
                    rules:
                      - {apiGroups: [coordination.k8s.io], apiVersions: [v1], operations: [UPDATE], resources: [leases]}
                    """ + EXCLUDE_SYSTEM;
            assertEquals(List.of(), run(rule, vwc("check", leases)));
            assertEquals(List.of(), run(rule, vwc("check", PODS)));
            String nodesSubresourceOnlyProxy = """
                    rules:
                      - {apiGroups: [""], apiVersions: [v1], operations: [CONNECT], resources: ["pods/exec"]}
                    """;
            assertEquals(List.of(), run(rule, vwc("check", nodesSubresourceOnlyProxy)));
        }
    }

    @Nested
    class Aps206 {
        final SafetyRule rule = new Aps206UnmatchableCoreRule();

        static String vap(String groups) {
            return """
                    apiVersion: admissionregistration.k8s.io/v1
                    kind: ValidatingAdmissionPolicy
                    metadata: {name: p}
                    spec:
                      matchConstraints:
                        resourceRules:
                          - {apiGroups: %s, apiVersions: [v1], operations: [CREATE], resources: [deployments, pods]}
                      validations: [{expression: "true"}]
                    """.formatted(groups);
        }

        @Test
        void firesOnDeploymentsInCoreGroup() {
            Finding f = only(run(rule, vap("[\"\"]")));
            assertEquals("spec.matchConstraints.resourceRules[0].resources", f.field());
            assertTrue(f.message().contains("deployments") && !f.message().contains("pods"), f.message());
        }

        @Test
        void quietWhenAGroupCanServeIt() {
            assertEquals(List.of(), run(rule, vap("[\"\", apps]")));
            assertEquals(List.of(), run(rule, vwc("check", PODS)));
        }
    }

    @Nested
    class Aps301 {
        final SafetyRule rule = new Aps301LongFailClosedTimeout();

        @Test
        void firesAboveTenSecondsFailClosed() {
            assertEquals("webhooks[0].timeoutSeconds", only(run(rule, vwc("check", PODS + "timeoutSeconds: 15\n"))).field());
        }

        @Test
        void quietAtDefaultOrFailOpen() {
            assertEquals(List.of(), run(rule, vwc("check", PODS)));
            assertEquals(List.of(), run(rule, vwc("check", PODS + "timeoutSeconds: 10\n")));
            assertEquals(List.of(), run(rule, vwc("check", PODS + "timeoutSeconds: 30\nfailurePolicy: Ignore\n")));
        }
    }

    @Nested
    class Aps302 {
        final SafetyRule rule = new Aps302LatencyBudget();

        @Test
        void firesWhenMutatingChainWithReinvocationPlusValidatingExceedsBudget() {
            String input = mwc("m1", PODS + "timeoutSeconds: 10\nreinvocationPolicy: IfNeeded\n")
                    + mwc("m2", PODS + "timeoutSeconds: 5\nreinvocationPolicy: Never\n")
                    + vwc("v1", PODS + "timeoutSeconds: 3\n")
                    + vwc("v2", PODS + "timeoutSeconds: 8\n");
            // 10 x2 + 5 + max(3, 8) = 33 > 30
            Finding f = only(run(rule, input));
            assertEquals(Severity.ERROR, f.severity());
            assertEquals("MutatingWebhookConfiguration/m1", f.object());
            assertTrue(f.message().contains("33 s"), f.message());
        }

        @Test
        void quietWhenWebhooksNeverMeetOrWithinBudget() {
            String deployments = """
                    rules:
                      - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
                    timeoutSeconds: 30
                    reinvocationPolicy: Never
                    """;
            String disjoint = mwc("m1", PODS + "timeoutSeconds: 30\nreinvocationPolicy: Never\n") + mwc("m2", deployments);
            assertEquals(List.of(), run(rule, disjoint));
            String parallel = vwc("v1", PODS + "timeoutSeconds: 30\n") + vwc("v2", PODS + "timeoutSeconds: 30\n");
            assertEquals(List.of(), run(rule, parallel), "validating webhooks run in parallel");
        }

        @Test
        void subresourceRulesDoNotMeetMainResourceRules() {
            String status = """
                    rules:
                      - {apiGroups: [""], apiVersions: [v1], operations: [UPDATE], resources: ["pods/status"]}
                    timeoutSeconds: 30
                    reinvocationPolicy: Never
                    """;
            assertEquals(List.of(), run(rule, mwc("m1", PODS + "timeoutSeconds: 30\nreinvocationPolicy: Never\n") + mwc("m2", status)));
        }
    }

    static final String POLICY = """
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: require-labels}
            spec:
              matchConstraints:
                resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]
              validations: [{expression: "true"}]
            ---
            """;

    static String binding(String name, String policy) {
        return """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: %s}
                spec: {policyName: %s, validationActions: [Deny]}
                ---
                """.formatted(name, policy);
    }

    @Nested
    class Aps401 {
        final SafetyRule rule = new Aps401UnknownPolicy();

        @Test
        void firesOnUnknownPolicy() {
            Finding f = only(run(rule, POLICY + binding("b", "require-label")));
            assertEquals("spec.policyName", f.field());
            assertEquals("ValidatingAdmissionPolicyBinding/b", f.object());
        }

        @Test
        void quietWhenPolicyInInputOrCluster() {
            assertEquals(List.of(), run(rule, POLICY + binding("b", "require-labels")));
            assertEquals(List.of(), run(rule, binding("b", "elsewhere"), Set.of("ValidatingAdmissionPolicy/elsewhere")));
        }

        @Test
        void mutatingBindingDoesNotPairWithValidatingPolicy() {
            String mapb = """
                    apiVersion: admissionregistration.k8s.io/v1
                    kind: MutatingAdmissionPolicyBinding
                    metadata: {name: mb}
                    spec: {policyName: require-labels}
                    """;
            only(run(rule, POLICY + mapb));
        }
    }

    @Nested
    class Aps402 {
        final SafetyRule rule = new Aps402UnboundPolicy();

        @Test
        void firesOnUnboundPolicy() {
            assertEquals("ValidatingAdmissionPolicy/require-labels", only(run(rule, POLICY)).object());
        }

        @Test
        void quietWhenBound() {
            assertEquals(List.of(), run(rule, POLICY + binding("b", "require-labels")));
        }
    }

    @Nested
    class Aps404 {
        final SafetyRule rule = new Aps404DuplicateObject();

        @Test
        void firesOnSameKindAndName() {
            Finding f = only(run(rule, POLICY + POLICY));
            assertEquals(Severity.ERROR, f.severity());
            assertTrue(f.message().contains("2 times"));
        }

        @Test
        void quietOnSameNameDifferentKind() {
            assertEquals(List.of(), run(rule, POLICY + binding("require-labels", "require-labels")));
        }
    }

    @Nested
    class Aps501 {
        final SafetyRule rule = new Aps501MissingCaBundle();

        static final String PLAIN = """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: plain}
                webhooks:
                  - name: plain.example.com
                    clientConfig:
                      service: {namespace: hooks, name: plain}
                %s
                """;

        @Test
        void firesWithoutCaBundleOrInjection() {
            assertEquals("webhooks[0].clientConfig.caBundle", only(run(rule, PLAIN.formatted(""))).field());
        }

        @Test
        void quietWithCaBundleOrInjectionAnnotation() {
            assertEquals(List.of(), run(rule, PLAIN.formatted("      caBundle: LS0tLS1CRUdJTg==")));
            assertEquals(List.of(), run(rule, vwc("check", PODS)));
        }
    }

    @Test
    void rulesNeverThrowOnWrongTypes() {
        String hostile = """
                apiVersion: admissionregistration.k8s.io/v1
                kind: MutatingWebhookConfiguration
                metadata: {name: weird, annotations: 7}
                webhooks:
                  - name: [not, a, string]
                    failurePolicy: 3
                    timeoutSeconds: "ten"
                    rules: {apiGroups: "*"}
                    namespaceSelector: [1, 2]
                    objectSelector: {matchExpressions: [1, {key: 2}]}
                    clientConfig: "service"
                  - 42
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: b}
                spec: [1]
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: MutatingAdmissionPolicy
                metadata: {name: p}
                spec: {reinvocationPolicy: IfNeeded, mutations: [1, {jsonPatch: 3}], matchConstraints: {resourceRules: 5}}
                """;
        for (SafetyRule rule : SafetyRules.all()) {
            run(rule, hostile); // must not throw
        }
    }
}

package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.finding.Severity;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.policyset.aps.core.validate.safety.SafetyFixtures.EXCLUDE_SYSTEM;
import static dev.policyset.aps.core.validate.safety.SafetyFixtures.PODS;
import static dev.policyset.aps.core.validate.safety.SafetyFixtures.mwc;
import static dev.policyset.aps.core.validate.safety.SafetyFixtures.run;
import static dev.policyset.aps.core.validate.safety.SafetyFixtures.vwc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The classes of false findings of issue 8, each in both directions: the configuration that can cause the failure
 * fires (at the severity the rule promises), the one that cannot stays silent or says why it is undecided.
 */
class SafetyPrecisionTest {
    private static Finding only(List<Finding> findings) {
        assertEquals(1, findings.size(), () -> "expected one finding, got " + findings);
        return findings.get(0);
    }

    private static String rules(String operations, String groups, String resources) {
        return """
                rules:
                  - {apiGroups: [%s], apiVersions: ["*"], operations: [%s], resources: [%s]}
                """.formatted(groups, operations, resources);
    }

    private static final String OWN_ONLY = """
            namespaceSelector:
              matchExpressions:
                - {key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system, kube-node-lease]}
            """;

    /** Class 1: operations. */
    @Nested
    class Operations {
        @Test
        void deleteOrConnectOnlyWebhooksCannotBlockRecreation() {
            String deleteOnly = rules("DELETE", "\"*\"", "\"*\"");
            String connectOnly = rules("CONNECT", "\"\"", "pods/exec, pods/attach");
            for (String hook : List.of(deleteOnly, connectOnly)) {
                assertEquals(List.of(), run(new Aps201FailClosedSystemNamespaces(), vwc("check", hook)));
                assertEquals(List.of(), run(new Aps202FailClosedOwnNamespace(), vwc("check", hook)));
                assertEquals(List.of(), run(new Aps205ControlPlaneResources(), vwc("check", hook)));
            }
        }

        @Test
        void createOfTheSameResourcesFires() {
            String create = rules("CREATE", "\"*\"", "\"*\"");
            assertEquals(Severity.ERROR, only(run(new Aps201FailClosedSystemNamespaces(), vwc("check", create))).severity());
            assertEquals(Severity.ERROR, only(run(new Aps202FailClosedOwnNamespace(), vwc("check", create))).severity());
            Finding cp = only(new Aps205ControlPlaneResources().check(new SafetyContext(SafetyFixtures.subjects(vwc("check", create)),
                    new dev.policyset.aps.core.validate.ValidationOptions(new dev.policyset.aps.core.model.KubeVersion(1, 36), java.util.Set.of()))));
            assertTrue(cp.message().contains("tokenreviews"), cp.message() + " (1.36: webhooks still see reviews)");
        }

        @Test
        void reviewsAreNamedOnlyForRulesThatCanCreateThem() {
            Finding update = only(new Aps205ControlPlaneResources().check(new SafetyContext(
                    SafetyFixtures.subjects(vwc("check", rules("UPDATE", "\"*\"", "\"*\"") + EXCLUDE_SYSTEM)),
                    new dev.policyset.aps.core.validate.ValidationOptions(new dev.policyset.aps.core.model.KubeVersion(1, 36), java.util.Set.of()))));
            assertFalse(update.message().contains("tokenreviews"), update.message());
            assertFalse(update.message().contains("subjectaccessreviews"), update.message());
            assertTrue(update.message().contains("nodes"), update.message());
        }
    }

    /** Class 2: objectSelector opt-in labels. */
    @Nested
    class ObjectSelectors {
        static final String OPT_IN = PODS + """
                objectSelector:
                  matchLabels: {sidecar.example.com/inject: "true"}
                """;

        @Test
        void optInObjectsAreNotOrdinaryObjects() {
            Finding f = only(run(new Aps201FailClosedSystemNamespaces(), mwc("inject", OPT_IN)));
            assertEquals(Severity.INFO, f.severity(), "reported only as a note: ordinary kube-system pods are not intercepted");
            assertEquals(List.of(), run(new Aps202FailClosedOwnNamespace(), mwc("inject", OPT_IN)));
            String nodes = rules("UPDATE", "\"\"", "nodes, nodes/status") + "objectSelector: {matchExpressions: [{key: managed, operator: Exists}]}\n";
            assertEquals(List.of(), run(new Aps205ControlPlaneResources(), vwc("check", nodes)));
        }

        @Test
        void optOutObjectSelectorLeavesOwnObjectsUndecidedButKubeSystemReached() {
            String optOut = PODS + """
                    objectSelector:
                      matchExpressions: [{key: app.kubernetes.io/name, operator: NotIn, values: [hooks]}]
                    """;
            assertEquals(Severity.ERROR, only(run(new Aps201FailClosedSystemNamespaces(), vwc("check", optOut))).severity());
            Finding own = only(run(new Aps202FailClosedOwnNamespace(), vwc("check", optOut)));
            assertEquals(Severity.WARNING, own.severity());
            assertTrue(own.message().contains("app.kubernetes.io/name NotIn [hooks]"), own.message());
        }
    }

    /** Class 3: APS202 only for what restores the backend. */
    @Nested
    class RecoveryKinds {
        @Test
        void unrelatedResourcesInOwnNamespaceAreSilent() {
            for (String hook : List.of(rules("CREATE, UPDATE", "example.com", "widgets"),
                    rules("CREATE, UPDATE", "networking.k8s.io", "ingresses"),
                    rules("CREATE, UPDATE", "\"\"", "events"),
                    rules("CREATE, UPDATE", "apps", "deployments/scale"))) {
                assertEquals(List.of(), run(new Aps202FailClosedOwnNamespace(), vwc("check", hook + OWN_ONLY)), hook);
            }
        }

        @Test
        void whatRestoresTheBackendFires() {
            for (String hook : List.of(rules("CREATE", "apps", "deployments"), rules("UPDATE", "\"\"", "pods/status"),
                    rules("CREATE", "\"\"", "serviceaccounts/token"), rules("UPDATE", "discovery.k8s.io", "endpointslices"),
                    rules("CREATE", "\"\"", "pods/*"))) {
                Finding f = only(run(new Aps202FailClosedOwnNamespace(), vwc("check", hook + OWN_ONLY)));
                assertEquals(Severity.ERROR, f.severity(), hook);
            }
        }

        @Test
        void ownNamespaceOptOutLabelIsUndecided() {
            String optOut = PODS + """
                    namespaceSelector:
                      matchExpressions: [{key: admission.example.com/ignore, operator: DoesNotExist}]
                    """;
            Finding f = only(run(new Aps202FailClosedOwnNamespace(), vwc("check", optOut)));
            assertEquals(Severity.WARNING, f.severity());
            assertTrue(f.message().contains("admission.example.com/ignore DoesNotExist"), f.message());
            assertEquals(Severity.ERROR, only(run(new Aps201FailClosedSystemNamespaces(), vwc("check", optOut))).severity(),
                    "kube-system as created does not carry the opt-out label");
        }

        @Test
        void otherBuiltinsInKubeSystemAreAWarning() {
            Finding f = only(run(new Aps201FailClosedSystemNamespaces(), vwc("check", rules("CREATE, UPDATE", "networking.k8s.io", "ingresses"))));
            assertEquals(Severity.WARNING, f.severity());
            assertTrue(f.message().contains("ingresses.networking.k8s.io"), f.message());
        }
    }

    /** matchConditions the model does not evaluate lower an error to a warning; recognised ones decide. */
    @Nested
    class MatchConditions {
        @Test
        void opaqueConditionLowersToWarning() {
            String hook = PODS + """
                    matchConditions:
                      - {name: not-system, expression: '!request.userInfo.username.startsWith("system:")'}
                    """;
            Finding f = only(run(new Aps201FailClosedSystemNamespaces(), vwc("check", hook)));
            assertEquals(Severity.WARNING, f.severity());
            assertTrue(f.message().contains("matchConditions[0] \"not-system\""), f.message());
        }

        @Test
        void recognisedConditionDecides() {
            String leases = rules("UPDATE", "\"*\"", "\"*\"") + """
                    matchConditions:
                      - {name: not-leases, expression: '!(request.resource.group == "coordination.k8s.io" && request.resource.resource == "leases")'}
                    """;
            Finding f = only(run(new Aps205ControlPlaneResources(), vwc("check", leases)));
            assertFalse(f.message().contains("leases"), f.message());
            String notKubeSystem = PODS + "matchConditions: [{name: ns, expression: 'request.namespace != \"kube-system\"'}]\n";
            assertEquals(List.of(), run(new Aps201FailClosedSystemNamespaces(), vwc("check", notKubeSystem)));
        }
    }

    /** Class 4: APS102 guards. */
    @Nested
    class ReinvocationGuards {
        static String map(String matchConditions, String expression) {
            return """
                    apiVersion: admissionregistration.k8s.io/v1
                    kind: MutatingAdmissionPolicy
                    metadata: {name: sidecar}
                    spec:
                      reinvocationPolicy: IfNeeded
                    %s
                      mutations:
                        - patchType: JSONPatch
                          jsonPatch:
                            expression: '%s'
                    """.formatted(matchConditions.indent(2).stripTrailing(), expression);
        }

        static final String APPEND = "[JSONPatch{op: \"add\", path: \"/spec/initContainers/-\", value: Object.spec.initContainers{name: \"proxy\"}}]";

        @Test
        void negatedExistsGuardIsRecognised() {
            String guard = "matchConditions:\n  - {name: no-proxy-yet, expression: '!object.spec.initContainers.exists(c, c.name == \"proxy\")'}";
            Finding f = only(run(new Aps102NonIdempotentReinvocation(), map(guard, APPEND)));
            assertEquals(Severity.INFO, f.severity());
            assertTrue(f.message().contains("no-proxy-yet"), f.message());
        }

        @Test
        void earlierResetOfTheListIsIdempotent() {
            String reset = "[JSONPatch{op: \"add\", path: \"/spec/initContainers\", value: []}, "
                    + "JSONPatch{op: \"add\", path: \"/spec/initContainers/-\", value: Object.spec.initContainers{name: \"proxy\"}}]";
            assertEquals(List.of(), run(new Aps102NonIdempotentReinvocation(), map("", reset)));
        }

        @Test
        void unrecognisedTestOfTheObjectIsAWarningNothingIsAnError() {
            String other = "matchConditions:\n  - {name: marked, expression: '!(\"injected\" in object.metadata.annotations)'}";
            assertEquals(Severity.WARNING, only(run(new Aps102NonIdempotentReinvocation(), map(other, APPEND))).severity());
            String requestOnly = "matchConditions:\n  - {name: ns, expression: 'request.namespace != \"kube-system\"'}";
            assertEquals(Severity.ERROR, only(run(new Aps102NonIdempotentReinvocation(), map(requestOnly, APPEND))).severity());
            assertEquals(Severity.ERROR, only(run(new Aps102NonIdempotentReinvocation(), map("", APPEND))).severity());
        }
    }

    /** Class 5: who injects the caBundle. */
    @Nested
    class CaBundleInjection {
        static String config(String metadata) {
            return """
                    apiVersion: admissionregistration.k8s.io/v1
                    kind: ValidatingWebhookConfiguration
                    metadata:
                      name: plain
                    %s
                    webhooks:
                      - name: plain.example.com
                        clientConfig:
                          service: {namespace: hooks, name: plain}
                    """.formatted(metadata.indent(2).stripTrailing());
        }

        @Test
        void injectorsAreRecognised() {
            for (String metadata : List.of("annotations: {service.beta.openshift.io/inject-cabundle: \"true\"}",
                    "labels: {olm.webhook-description-generate-name: plain.example.com}",
                    "labels: {olm.owner.kind: ClusterServiceVersion, olm.owner: my-operator.v1.0.0}",
                    "annotations: {admission.policyset.dev/ca-bundle: runtime}",
                    "annotations: {cert-manager.io/inject-ca-from: hooks/cert}")) {
                assertEquals(List.of(), run(new Aps501MissingCaBundle(), config(metadata)), metadata);
            }
        }

        @Test
        void otherValuesAreNotAnInjector() {
            for (String metadata : List.of("annotations: {service.beta.openshift.io/inject-cabundle: \"false\"}",
                    "annotations: {admission.policyset.dev/ca-bundle: maybe}", "labels: {app: plain}")) {
                Finding f = only(run(new Aps501MissingCaBundle(), config(metadata)));
                assertEquals(Severity.WARNING, f.severity());
                assertTrue(f.message().contains("admission.policyset.dev/ca-bundle: runtime"), f.message());
            }
        }
    }

    /** APS302 counts only webhooks that one request can reach together (the Istio injector's four webhooks). */
    @Nested
    class LatencyChains {
        static String hook(String name, String selectors) {
            return mwc(name, PODS + "timeoutSeconds: 12\nreinvocationPolicy: Never\n" + selectors);
        }

        @Test
        void mutuallyExclusiveNamespaceSelectorsAreNotOneChain() {
            String input = hook("a", "namespaceSelector: {matchLabels: {mesh: a}}\n")
                    + hook("b", "namespaceSelector: {matchLabels: {mesh: b}}\n")
                    + hook("c", "namespaceSelector: {matchExpressions: [{key: mesh, operator: DoesNotExist}]}\n");
            assertEquals(List.of(), run(new Aps302LatencyBudget(), input));
        }

        @Test
        void compatibleSelectorsAreOneChain() {
            String input = hook("a", "namespaceSelector: {matchLabels: {mesh: a}}\n")
                    + hook("b", "namespaceSelector: {matchExpressions: [{key: mesh, operator: In, values: [a, b]}]}\n")
                    + hook("c", "objectSelector: {matchExpressions: [{key: inject, operator: Exists}]}\n");
            Finding f = only(run(new Aps302LatencyBudget(), input));
            assertEquals(Severity.ERROR, f.severity());
            assertTrue(f.message().contains("36 s"), f.message());
        }

        @Test
        void updateCanBeSeenThroughTheOldAndTheNewObject() {
            String updates = """
                    rules:
                      - {apiGroups: [""], apiVersions: [v1], operations: [UPDATE], resources: [pods]}
                    timeoutSeconds: 12
                    reinvocationPolicy: Never
                    """;
            String input = mwc("a", updates + "objectSelector: {matchLabels: {phase: one}}\n")
                    + mwc("b", updates + "objectSelector: {matchLabels: {phase: two}}\n")
                    + mwc("c", updates + "objectSelector: {matchLabels: {phase: three}}\n");
            // no single object carries all three, but an UPDATE from phase one to two reaches a and b (24 s), not c
            assertEquals(List.of(), run(new Aps302LatencyBudget(), input));
        }
    }
}

package dev.policyset.aps.core.intercept;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.yaml.Yaml;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static dev.policyset.aps.core.intercept.Operation.CONNECT;
import static dev.policyset.aps.core.intercept.Operation.CREATE;
import static dev.policyset.aps.core.intercept.Operation.DELETE;
import static dev.policyset.aps.core.intercept.Operation.UPDATE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Concrete and symbolic questions to the interception model, against the API server's matching semantics. */
class InterceptorTest {
    static JsonNode yaml(String text) {
        try {
            return Yaml.parse("t.yaml", text).get(0).content();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    static Interceptor webhook(String text) {
        return Interceptor.ofWebhook(yaml(text), "webhooks[0]");
    }

    private static final String PODS_CREATE = """
            rules:
              - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
            """;

    @Test
    void concreteRequestMatchesRuleByGroupVersionResourceAndOperation() {
        Interceptor w = webhook(PODS_CREATE);
        Verdict v = w.match(AdmissionRequest.of("", "v1", "pods", CREATE).inNamespace("team-a", Map.of()));
        assertTrue(v.matches(), v.explain());
        assertTrue(v.reasons().get(0).contains("webhooks[0].rules[0] matches CREATE"), v.explain());
        assertFalse(w.match(AdmissionRequest.of("", "v1", "pods", UPDATE).inNamespace("team-a", Map.of())).mayMatch());
        assertFalse(w.match(AdmissionRequest.of("apps", "v1", "pods", CREATE).inNamespace("team-a", Map.of())).mayMatch());
        assertFalse(w.match(AdmissionRequest.of("", "v1", "pods", CREATE).withSubresource("status")
                .inNamespace("team-a", Map.of())).mayMatch(), "a subresource needs pods/status or pods/*");
    }

    @Test
    void resourceWildcardsFollowRulesGo() {
        // k8s.io/apiserver/.../predicates/rules/rules_test.go TestResource
        Rule star = new Rule("r", java.util.List.of("*"), java.util.List.of("*"), java.util.List.of("*"), java.util.List.of("*"), "*", java.util.List.of());
        assertTrue(star.matchesResource("deployments", ""));
        assertFalse(star.matchesResource("deployments", "scale"), "* does not match subresources");
        Rule all = rule("*/*");
        assertTrue(all.matchesResource("pods", "exec"));
        assertTrue(all.matchesResource("pods", ""));
        Rule podSubs = rule("pods/*");
        assertTrue(podSubs.matchesResource("pods", "status"));
        assertTrue(podSubs.matchesResource("pods", ""), "r/* matches r itself too (rules_test.go: \"r & subresources\")");
        assertFalse(podSubs.matchesResource("services", ""));
        Rule anyStatus = rule("*/status");
        assertTrue(anyStatus.matchesResource("nodes", "status"));
        assertFalse(anyStatus.matchesResource("nodes", "proxy"));
        assertFalse(anyStatus.matchesResource("nodes", ""));
    }

    private static Rule rule(String resource) {
        return new Rule("r", java.util.List.of("*"), java.util.List.of("*"), java.util.List.of("*"), java.util.List.of(resource), "*", java.util.List.of());
    }

    @Test
    void scopeFollowsRulesGoIncludingNamespaceObjects() {
        Interceptor namespaced = webhook("""
                rules: [{apiGroups: ["*"], apiVersions: ["*"], operations: ["*"], resources: ["*"], scope: Namespaced}]
                """);
        Interceptor cluster = webhook("""
                rules: [{apiGroups: ["*"], apiVersions: ["*"], operations: ["*"], resources: ["*"], scope: Cluster}]
                """);
        AdmissionRequest pod = AdmissionRequest.of("", "v1", "pods", CREATE).inNamespace("a", Map.of());
        AdmissionRequest node = AdmissionRequest.of("", "v1", "nodes", CREATE);
        AdmissionRequest ns = AdmissionRequest.of("", "v1", "namespaces", CREATE).inNamespace("a", Map.of());
        assertTrue(namespaced.match(pod).matches());
        assertFalse(namespaced.match(node).mayMatch());
        assertFalse(namespaced.match(ns).mayMatch(), "a Namespace object is cluster-scoped");
        assertTrue(cluster.match(node).matches());
        assertTrue(cluster.match(ns).matches());
        assertFalse(cluster.match(pod).mayMatch());
    }

    @Test
    void namespaceSelectorIsNotAppliedToClusterScopedObjectsButToNamespacesThemselves() {
        Interceptor w = webhook("""
                namespaceSelector: {matchLabels: {team: a}}
                rules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE, DELETE], resources: [nodes, namespaces, pods]}]
                """);
        assertTrue(w.match(AdmissionRequest.of("", "v1", "nodes", CREATE)).matches(), "cluster-scoped: never exempted");
        assertTrue(w.match(AdmissionRequest.of("", "v1", "pods", CREATE).inNamespace("x", Map.of("team", "a"))).matches());
        Verdict other = w.match(AdmissionRequest.of("", "v1", "pods", CREATE).inNamespace("y", Map.of()));
        assertFalse(other.mayMatch());
        assertTrue(other.reasons().get(0).contains("namespaceSelector excludes namespace y"), other.explain());
        // CREATE of a namespace: judged by the new object's labels, not the (not yet existing) namespace's
        assertTrue(w.match(AdmissionRequest.of("", "v1", "namespaces", CREATE).inNamespace("z", Map.of())
                .withObjectLabels(Map.of("team", "a"))).matches());
        // DELETE of a namespace: judged by the stored namespace's labels
        assertFalse(w.match(AdmissionRequest.of("", "v1", "namespaces", DELETE).inNamespace("z", Map.of())
                .withOldObjectLabels(Map.of("team", "a"))).mayMatch());
    }

    @Test
    void objectSelectorReadsTheObjectOrTheOldObject() {
        Interceptor w = webhook("""
                objectSelector: {matchExpressions: [{key: inject, operator: In, values: ["true"]}]}
                rules: [{apiGroups: [""], apiVersions: [v1], operations: ["*"], resources: [pods, pods/exec]}]
                """);
        AdmissionRequest create = AdmissionRequest.of("", "v1", "pods", CREATE).inNamespace("a", Map.of());
        assertFalse(w.match(create).mayMatch(), "an unlabelled object is not selected");
        assertTrue(w.match(create.withObjectLabels(Map.of("inject", "true"))).matches());
        AdmissionRequest delete = AdmissionRequest.of("", "v1", "pods", DELETE).inNamespace("a", Map.of());
        assertTrue(w.match(delete.withOldObjectLabels(Map.of("inject", "true"))).matches(), "DELETE: the old object's labels");
        assertFalse(w.match(AdmissionRequest.of("", "v1", "pods", CONNECT).withSubresource("exec").inNamespace("a", Map.of())).mayMatch(),
                "CONNECT carries no object: a non-empty objectSelector never selects it");
    }

    @Test
    void admissionConfigurationObjectsAreNeverIntercepted() {
        Interceptor w = webhook("""
                rules: [{apiGroups: ["*"], apiVersions: ["*"], operations: ["*"], resources: ["*"]}]
                """);
        assertFalse(w.match(AdmissionRequest.of("admissionregistration.k8s.io", "v1", "validatingwebhookconfigurations", CREATE)).mayMatch());
        assertTrue(w.match(AdmissionRequest.of("admissionregistration.k8s.io", "v1beta1", "volumeattachments", CREATE)).matches());
    }

    @Test
    void matchPolicyEquivalentMatchesOtherVersionsAndEquivalentGroups() {
        Interceptor equivalent = webhook("""
                rules: [{apiGroups: [autoscaling], apiVersions: [v1], operations: [CREATE], resources: [horizontalpodautoscalers]},
                        {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [events]}]
                """);
        Interceptor exact = webhook("""
                matchPolicy: Exact
                rules: [{apiGroups: [autoscaling], apiVersions: [v1], operations: [CREATE], resources: [horizontalpodautoscalers]},
                        {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [events]}]
                """);
        AdmissionRequest v2 = AdmissionRequest.of("autoscaling", "v2", "horizontalpodautoscalers", CREATE).inNamespace("a", Map.of());
        AdmissionRequest events = AdmissionRequest.of("events.k8s.io", "v1", "events", CREATE).inNamespace("a", Map.of());
        assertTrue(equivalent.match(v2).matches());
        assertTrue(equivalent.match(events).matches());
        assertFalse(exact.match(v2).mayMatch());
        assertFalse(exact.match(events).mayMatch());
    }

    @Test
    void bindingNarrowsThePolicyAndExcludeRulesWin() {
        JsonNode policy = yaml("""
                matchConstraints:
                  resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments, statefulsets]}]
                """);
        JsonNode binding = yaml("""
                policyName: p
                matchResources:
                  namespaceSelector: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}]}
                  excludeResourceRules: [{apiGroups: [apps], apiVersions: ["*"], operations: ["*"], resources: [statefulsets]}]
                """);
        Interceptor bound = Interceptor.ofBinding(policy, binding);
        AdmissionRequest dep = AdmissionRequest.of("apps", "v1", "deployments", CREATE).inNamespace("team-a", Map.of());
        assertTrue(bound.match(dep).matches());
        assertFalse(bound.match(AdmissionRequest.of("apps", "v1", "deployments", CREATE).inNamespace("kube-system", Map.of())).mayMatch());
        Verdict sts = bound.match(AdmissionRequest.of("apps", "v1", "statefulsets", CREATE).inNamespace("team-a", Map.of()));
        assertFalse(sts.mayMatch());
        assertTrue(sts.reasons().get(0).contains("excludeResourceRules[0] excludes"), sts.explain());
        assertFalse(bound.match(AdmissionRequest.of("", "v1", "pods", CREATE).inNamespace("team-a", Map.of())).mayMatch(),
                "the binding cannot widen the policy");
        assertTrue(Interceptor.ofBinding(policy, yaml("policyName: p")).match(dep).matches(), "no matchResources: the policy's");
        assertFalse(Interceptor.ofBinding(yaml("validations: []"), yaml("policyName: p")).match(dep).mayMatch(),
                "a policy without matchConstraints matches nothing");
    }

    @Test
    void resourceNamesNeedTheName() {
        JsonNode policy = yaml("""
                matchConstraints:
                  resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [UPDATE], resources: [configmaps], resourceNames: [cfg]}]
                """);
        Interceptor p = Interceptor.ofPolicy(policy);
        AdmissionRequest r = AdmissionRequest.of("", "v1", "configmaps", UPDATE).inNamespace("a", Map.of());
        assertTrue(p.match(r.withName("cfg")).matches());
        assertFalse(p.match(r.withName("other")).mayMatch());
        assertTrue(p.match(r).undecided(), "name not known");
    }

    @Test
    void matchConditionsAreRecognisedOrLeftToTheCaller() {
        Interceptor w = webhook("""
                matchConditions:
                  - {name: not-leases, expression: '!(request.resource.group == "coordination.k8s.io" && request.resource.resource == "leases")'}
                  - {name: not-rbac, expression: 'request.resource.group != "rbac.authorization.k8s.io"'}
                  - {name: not-nodes, expression: '!("system:nodes" in request.userInfo.groups)'}
                rules: [{apiGroups: ["*"], apiVersions: ["*"], operations: ["*"], resources: ["*"]}]
                """);
        assertFalse(w.match(AdmissionRequest.of("coordination.k8s.io", "v1", "leases", UPDATE).inNamespace("kube-node-lease", Map.of())).mayMatch());
        assertFalse(w.match(AdmissionRequest.of("rbac.authorization.k8s.io", "v1", "roles", CREATE).inNamespace("a", Map.of())).mayMatch());
        Verdict pods = w.match(AdmissionRequest.of("", "v1", "pods", CREATE).inNamespace("a", Map.of()));
        assertTrue(pods.undecided(), pods.explain());
        assertEquals(1, pods.conditionsToEvaluate().size());
        assertEquals("not-nodes", pods.conditionsToEvaluate().get(0).name());
    }

    @Test
    void symbolicRequestsOverOperationsAndPartlyKnownLabels() {
        Interceptor deleteOnly = webhook("""
                rules: [{apiGroups: ["*"], apiVersions: ["*"], operations: [DELETE], resources: ["*"]}]
                """);
        AdmissionRequest writes = AdmissionRequest.anyOf("", "pods", Operation.WRITES).inNamespace("kube-system", Map.of());
        assertFalse(deleteOnly.match(writes).mayMatch(), "DELETE-only cannot intercept a CREATE or UPDATE");
        assertTrue(deleteOnly.match(AdmissionRequest.anyOf("", "pods", Set.of(CREATE, DELETE)).inNamespace("a", Map.of())).matches());

        Interceptor optOut = webhook("""
                namespaceSelector: {matchExpressions: [{key: admission.gatekeeper.sh/ignore, operator: DoesNotExist}]}
                rules: [{apiGroups: ["*"], apiVersions: ["*"], operations: ["*"], resources: ["*"]}]
                """);
        assertTrue(optOut.match(writes).matches(), "kube-system as created carries no opt-out label");
        Verdict own = optOut.match(AdmissionRequest.anyOf("", "pods", Operation.WRITES)
                .inNamespace("gatekeeper-system", LabelSet.atLeast(Map.of())));
        assertTrue(own.undecided(), own.explain());
        assertTrue(own.explain().contains("admission.gatekeeper.sh/ignore DoesNotExist"), own.explain());

        Interceptor optIn = webhook("""
                namespaceSelector: {matchLabels: {istio-injection: enabled}}
                rules: [{apiGroups: [""], apiVersions: ["*"], operations: [CREATE], resources: [pods]}]
                """);
        assertFalse(optIn.match(AdmissionRequest.anyOf("", "pods", Operation.WRITES)
                .inNamespace("istio-system", LabelSet.atLeast(Map.of()))).mayMatch(), "an opt-in label is assumed absent");
    }

    @Test
    void namespaceSelectorAgainstAnUnlabelledNamespace() {
        // kube-system as created: only the name label (formerly MatchingTest)
        assertTrue(bare(null));
        assertTrue(bare("{}"));
        assertFalse(bare("matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}]"));
        assertTrue(bare("matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [other]}]"));
        assertFalse(bare("matchExpressions: [{key: kubernetes.io/metadata.name, operator: In, values: [team-a]}]"));
        assertFalse(bare("matchLabels: {kubernetes.io/metadata.name: team-a}"));
        assertTrue(bare("matchLabels: {kubernetes.io/metadata.name: kube-system}"));
        assertTrue(bare("matchExpressions: [{key: ignore, operator: DoesNotExist}]"), "opt-out label: still reached");
        assertFalse(bare("matchLabels: {inject: enabled}"), "opt-in label");
        assertFalse(bare("matchExpressions: [{key: inject, operator: Exists}]"));
    }

    private static boolean bare(String selector) {
        LabelSelector s = LabelSelector.read(selector == null ? null : yaml(selector));
        return s.matches(Map.of(LabelSelector.NAME_LABEL, "kube-system"));
    }

    @Test
    void catchAllNeedsEveryGroupEveryResourceAndEveryWrite() {
        assertTrue(ruleOf("*", "*", "*").matchesEverything());
        assertTrue(ruleOf("*", "*/*", "CREATE,UPDATE").matchesEverything());
        assertFalse(ruleOf("*", "*", "DELETE").matchesEverything());
        assertFalse(ruleOf("apps", "*", "*").matchesEverything());
    }

    private static Rule ruleOf(String groups, String resources, String operations) {
        return new Rule("r", java.util.List.of(groups.split(",")), java.util.List.of("*"), java.util.List.of(operations.split(",")),
                java.util.List.of(resources.split(",")), "*", java.util.List.of());
    }
}

package dev.policyset.aps.core.validate.safety;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.yaml.Yaml;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The API server's rule and selector semantics, as the safety rules read them. */
class MatchingTest {
    private static MatchRule rule(String groups, String resources, String operations, String scope) {
        return new MatchRule("r", List.of(groups.split(",", -1)), List.of("*"), List.of(operations.split(",")),
                List.of(resources.split(",")), scope);
    }

    @Test
    void resourceWildcards() {
        MatchRule star = rule("*", "*", "*", "*");
        assertTrue(star.matches("apps", "deployments"));
        assertFalse(star.matches("apps", "deployments/scale"), "* does not match subresources");
        MatchRule all = rule("*", "*/*", "*", "*");
        assertTrue(all.matches("", "pods/exec"));
        assertTrue(all.matches("", "pods"));
        MatchRule podSubs = rule("", "pods/*", "*", "*");
        assertTrue(podSubs.matches("", "pods/status"));
        assertFalse(podSubs.matches("", "pods"), "pods/* does not match pods itself");
        MatchRule anyStatus = rule("*", "*/status", "*", "*");
        assertTrue(anyStatus.matches("", "nodes/status"));
        assertFalse(anyStatus.matches("", "nodes/proxy"));
    }

    @Test
    void groupsOperationsAndScope() {
        MatchRule core = rule("", "pods", "CREATE", "*");
        assertTrue(core.matches("", "pods", "CREATE"));
        assertFalse(core.matches("apps", "pods", "CREATE"));
        assertFalse(core.matches("", "pods", "UPDATE"));
        assertFalse(rule("", "nodes", "*", "Namespaced").matches("", "nodes"), "nodes are cluster-scoped");
        assertFalse(rule("", "pods", "*", "Cluster").matches("", "pods"), "pods are namespaced");
        assertTrue(rule("example.com", "widgets", "*", "Cluster").matches("example.com", "widgets"), "unknown: either scope");
    }

    @Test
    void catchAllNeedsEveryGroupEveryResourceAndEveryWrite() {
        assertTrue(rule("*", "*", "*", "*").matchesEverything());
        assertTrue(rule("*", "*/*", "CREATE,UPDATE", "*").matchesEverything());
        assertFalse(rule("*", "*", "DELETE", "*").matchesEverything());
        assertFalse(rule("apps", "*", "*", "*").matchesEverything());
    }

    private static JsonNode selector(String yaml) throws Exception {
        return Yaml.parse("s", yaml).get(0).content();
    }

    @Test
    void namespaceSelectorAgainstAnUnlabelledNamespace() throws Exception {
        assertTrue(Selectors.matchesBareNamespace(null, "kube-system"));
        assertTrue(Selectors.matchesBareNamespace(selector("{}"), "kube-system"));
        assertFalse(Selectors.matchesBareNamespace(selector(
                "matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}]"), "kube-system"));
        assertTrue(Selectors.matchesBareNamespace(selector(
                "matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [other]}]"), "kube-system"));
        assertFalse(Selectors.matchesBareNamespace(selector(
                "matchExpressions: [{key: kubernetes.io/metadata.name, operator: In, values: [team-a]}]"), "kube-system"));
        assertFalse(Selectors.matchesBareNamespace(selector("matchLabels: {kubernetes.io/metadata.name: team-a}"), "kube-system"));
        assertTrue(Selectors.matchesBareNamespace(selector("matchLabels: {kubernetes.io/metadata.name: kube-system}"), "kube-system"));
        assertTrue(Selectors.matchesBareNamespace(selector(
                "matchExpressions: [{key: ignore, operator: DoesNotExist}]"), "kube-system"), "opt-out label: still reached");
        assertFalse(Selectors.matchesBareNamespace(selector("matchLabels: {inject: enabled}"), "kube-system"), "opt-in label");
        assertFalse(Selectors.matchesBareNamespace(selector(
                "matchExpressions: [{key: inject, operator: Exists}]"), "kube-system"));
    }
}

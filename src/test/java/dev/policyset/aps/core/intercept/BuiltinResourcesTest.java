package dev.policyset.aps.core.intercept;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The table of built-in resources: what it knows, what it corrects, what it lets through as possibly custom. */
class BuiltinResourcesTest {
    @Test
    void agreesWithTheScopesTheRulesUse() {
        for (BuiltinResources.Resource r : BuiltinResources.TABLE) {
            if (r.namespaced()) {
                assertTrue(KubeResources.mayBeNamespaced(r.resource()), r.resource());
            } else {
                assertTrue(KubeResources.mayBeClusterScoped(r.resource()), r.resource());
            }
            assertFalse(r.versions().isEmpty(), r.resource());
        }
        KubeResources.NAMESPACED_BY_GROUP.forEach((group, resources) -> resources.forEach(res ->
                assertEquals(Optional.of(true), BuiltinResources.find(group, res).map(BuiltinResources.Resource::namespaced),
                        group + "/" + res)));
        KubeResources.CORE_RESOURCES.forEach(res -> assertTrue(BuiltinResources.find("", res).isPresent(), res));
        KubeResources.BUILTIN_GROUPS.forEach(g -> assertTrue(BuiltinResources.isBuiltinGroup(g), g));
    }

    @Test
    void aCustomResourceMayShareABuiltInPlural() {
        BuiltinResources.Check knative = BuiltinResources.check("serving.knative.dev", "v1", "services");
        assertEquals(BuiltinResources.Status.NOT_BUILTIN, knative.status());
        assertEquals(Optional.empty(), knative.resource(), "no suggestion for an unrelated group");
        BuiltinResources.Check snapshot = BuiltinResources.check("snapshot.storage.k8s.io", "v1", "volumesnapshots");
        assertEquals(BuiltinResources.Status.NOT_BUILTIN, snapshot.status());
    }

    @Test
    void theSuggestionKeepsAServedVersionElseThePreferredOne() {
        BuiltinResources.Check hpa = BuiltinResources.check("", "v1", "horizontalpodautoscalers");
        assertEquals(BuiltinResources.Status.MISSPELT, hpa.status());
        assertEquals("autoscaling/v1/horizontalpodautoscalers", hpa.resource().orElseThrow().spelled("v1"));
        BuiltinResources.Check priority = BuiltinResources.check("", "v1", "priorityclass");
        assertEquals("scheduling.k8s.io/v1/priorityclasses", priority.resource().orElseThrow().spelled("v1"));
        assertEquals("apps/v1/deployments", BuiltinResources.check("apps", "v1beta2", "deployment")
                .resource().orElseThrow().spelled("v1beta2"));
    }
}

package dev.policyset.aps.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.policyset.aps.cli.RenderCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code aps chain --resource} is checked against the built-in resources and their scope (#22 item 5): a typo is a
 * usage error with the nearest resource, a namespaced resource needs -n, -n on a cluster-scoped one is dropped
 * with a warning, and a custom resource is let through, its scope taken from its CRD among PATH or, without one,
 * with a warning that it is not known.
 */
class ChainResourceTest {
    private static final String SAMPLES = "config/samples/";
    private static final String PRODUCTION_ONLY = "ValidatingAdmissionPolicy require-team-label "
            + "(ValidatingAdmissionPolicyBinding/require-team-label-production)";
    private static final Pattern SUGGESTION = Pattern.compile("did you mean (\\S+)\\?");

    private static RenderCommandTest.Run chain(String resource, String... more) {
        List<String> args = new ArrayList<>(List.of("chain", "--resource", resource, "--operation", "CREATE"));
        args.addAll(List.of(more));
        return run(args.toArray(String[]::new));
    }

    @Test
    void aNamespacedResourceNeedsANamespaceAndTheAdviceWorks() {
        // Before: taken as cluster-scoped, so the production-only binding's namespaceSelector seemed to match.
        RenderCommandTest.Run bare = chain("apps/v1/deployments", SAMPLES);
        assertEquals(ExitCodes.USAGE_OR_INPUT, bare.exit(), bare.out() + bare.err());
        assertEquals("", bare.out());
        assertTrue(bare.err().contains("--resource apps/v1/deployments is namespaced: every request for it is in a "
                + "namespace, and namespaceSelectors decide on that namespace's labels"), bare.err());
        String advice = "e.g. -n default";
        assertTrue(bare.err().contains(advice), bare.err());

        RenderCommandTest.Run advised = chain("apps/v1/deployments", "-n", "default", SAMPLES);
        assertEquals(ExitCodes.OK, advised.exit(), advised.err());
        assertTrue(advised.out().contains("  - " + PRODUCTION_ONLY + ": binding spec.matchResources.namespaceSelector "
                + "excludes namespace default"), advised.out());
        RenderCommandTest.Run production = chain("apps/v1/deployments", "-n", "shop", "--namespace-labels",
                "environment=production", SAMPLES);
        assertEquals(ExitCodes.OK, production.exit(), production.err());
        assertFalse(production.out().contains("  - " + PRODUCTION_ONLY), "matches in production: " + production.out());
        assertTrue(production.out().contains("ValidatingAdmissionPolicy require-team-label"), production.out());
    }

    @Test
    void typosAreUsageErrorsWithTheNearestResourceThatWorksPasted() {
        String[][] cases = {
                {"apps/v1/deployment", "group apps has no resource deployment", "apps/v1/deployments"},
                {"v1/deployments", "the core group has no resource deployments (deployments are in group apps)", "apps/v1/deployments"},
                {"apps/deployments", "apps is not an API version", "apps/v1/deployments"},
                {"v1/apps/deployments", "the group comes first", "apps/v1/deployments"},
                {"app/v1/deployments", "app is not a built-in API group", "apps/v1/deployments"},
                {"v1/pod", "the core group has no resource pod", "v1/pods"},
                {"batch/v1/cronjob", "group batch has no resource cronjob", "batch/v1/cronjobs"},
                {"autoscaling/v2/horizontalpodautoscaler", "has no resource", "autoscaling/v2/horizontalpodautoscalers"},
                {"v1/ingresses", "(ingresses are in group networking.k8s.io)", "networking.k8s.io/v1/ingresses"},
        };
        for (String[] c : cases) {
            RenderCommandTest.Run r = chain(c[0], "-n", "team-a", SAMPLES);
            assertEquals(ExitCodes.USAGE_OR_INPUT, r.exit(), c[0] + ": " + r.out() + r.err());
            assertTrue(r.err().startsWith("aps chain: --resource " + c[0] + ": "), r.err());
            assertTrue(r.err().contains(c[1]), c[0] + ": " + r.err());
            Matcher m = SUGGESTION.matcher(r.err());
            assertTrue(m.find(), c[0] + ": " + r.err());
            assertEquals(c[2], m.group(1), c[0]);
            RenderCommandTest.Run pasted = chain(m.group(1), "-n", "team-a", SAMPLES);
            assertEquals(ExitCodes.OK, pasted.exit(), m.group(1) + ": " + pasted.err());
            assertEquals("", pasted.err(), m.group(1));
        }
        RenderCommandTest.Run far = chain("v1/foos", "-n", "team-a", SAMPLES);
        assertEquals(ExitCodes.USAGE_OR_INPUT, far.exit());
        assertTrue(far.err().contains("the core group has no resource foos; its resources: bindings, componentstatuses,"),
                far.err());
    }

    @Test
    void aNamespaceOnAClusterScopedResourceIsDroppedWithAWarning() {
        RenderCommandTest.Run r = chain("v1/nodes", "-n", "team-a", "--namespace-labels", "environment=production", SAMPLES);
        assertEquals(ExitCodes.OK, r.exit(), r.err());
        assertTrue(r.err().contains("aps chain: warning: --resource v1/nodes is cluster-scoped: -n team-a and "
                + "--namespace-labels ignored"), r.err());
        assertTrue(r.out().startsWith("CREATE core/v1/nodes (cluster-scoped):"), r.out());
        RenderCommandTest.Run plain = chain("v1/nodes", SAMPLES);
        assertEquals(ExitCodes.OK, plain.exit(), plain.err());
        assertEquals("", plain.err());
        assertEquals(r.out(), plain.out(), "the same answer as without -n");
        RenderCommandTest.Run namespace = chain("v1/namespaces", "-n", "team-a", SAMPLES);
        assertEquals(ExitCodes.OK, namespace.exit(), namespace.err());
        assertEquals("", namespace.err(), "for a Namespace, -n is its own name");
    }

    @Test
    void aCustomResourceTakesItsScopeFromItsCrdOrSaysItIsNotKnown(@TempDir Path dir) throws Exception {
        RenderCommandTest.Run unknown = chain("example.com/v1/widgets", SAMPLES);
        assertEquals(ExitCodes.OK, unknown.exit(), unknown.err());
        assertTrue(unknown.err().contains("aps chain: warning: --resource example.com/v1/widgets is not a built-in "
                + "resource, and no CustomResourceDefinition for widgets.example.com is among PATH: its scope is not "
                + "known; taken as cluster-scoped (no -n). If it is namespaced, give -n NAMESPACE"), unknown.err());
        assertFalse(unknown.err().contains("did you mean"), unknown.err());

        Path crd = dir.resolve("widgets.yaml");
        Files.writeString(crd, """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: widgets.example.com}
                spec:
                  group: example.com
                  scope: Namespaced
                  names: {plural: widgets, singular: widget, kind: Widget}
                  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]
                """);
        RenderCommandTest.Run withCrd = chain("example.com/v1/widgets", SAMPLES, crd.toString());
        assertEquals(ExitCodes.USAGE_OR_INPUT, withCrd.exit(), withCrd.out() + withCrd.err());
        assertTrue(withCrd.err().contains("--resource example.com/v1/widgets (from its CustomResourceDefinition) is "
                + "namespaced"), withCrd.err());
        RenderCommandTest.Run placed = chain("example.com/v1/widgets", "-n", "team-a", SAMPLES, crd.toString());
        assertEquals(ExitCodes.OK, placed.exit(), placed.err());
        assertEquals("", placed.err());

        // A group that looks like a built-in one is let through (it may be a CRD's), with the built-in it resembles.
        RenderCommandTest.Run lookalike = chain("networking.k8s.oi/v1/ingresses", "-n", "team-a", SAMPLES);
        assertEquals(ExitCodes.OK, lookalike.exit(), lookalike.err());
        assertTrue(lookalike.err().contains("(did you mean networking.k8s.io/v1/ingresses?)"), lookalike.err());
        assertTrue(lookalike.err().contains("taken as namespaced (-n team-a)"), lookalike.err());
    }
}

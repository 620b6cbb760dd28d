package dev.policyset.aps.cli;

import dev.policyset.aps.core.finding.RuleCatalog;
import org.junit.jupiter.api.Test;

import static dev.policyset.aps.cli.RenderCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExplainCommandTest {
    @Test
    void knownRulePrintsItsSectionFromTheJarWithSeverityAndLink() {
        RenderCommandTest.Run r = run("explain", "APS201");
        assertEquals(ExitCodes.OK, r.exit(), r.err());
        String[] lines = r.out().split("\n");
        assertEquals("APS201 (error by default): " + RuleCatalog.summary("APS201"), lines[0]);
        assertTrue(r.out().contains("Why it matters: when the webhook's backend is down"), r.out());
        assertTrue(r.out().contains("Fix: add {key: kubernetes.io/metadata.name, operator: NotIn"), r.out());
        assertFalse(r.out().contains("### APS202"), "stops at the next section");
        assertFalse(r.out().contains("**"), "Markdown emphasis is dropped for the terminal");
        assertTrue(r.out().strip().endsWith("Documentation: " + RuleCatalog.DOCS_URL + "#aps201"), r.out());
    }

    @Test
    void idsAreCaseInsensitiveAndCoverApiAndInputRules() {
        RenderCommandTest.Run api = run("explain", "API/INVALID");
        assertEquals(ExitCodes.OK, api.exit(), api.err());
        assertTrue(api.out().startsWith("api/Invalid (error by default)"), api.out());
        assertTrue(api.out().contains("compile or"), api.out());
        RenderCommandTest.Run skipped = run("explain", "input/Skipped");
        assertTrue(skipped.out().startsWith("input/Skipped (info by default)"), skipped.out());
    }

    @Test
    void unknownRuleExitsTwoAndListsTheKnownOnes() {
        RenderCommandTest.Run r = run("explain", "APS999");
        assertEquals(ExitCodes.USAGE_OR_INPUT, r.exit());
        assertEquals("", r.out());
        assertTrue(r.err().startsWith("aps explain: unknown rule \"APS999\"; the rules are:"), r.err());
        for (RuleCatalog.Rule rule : RuleCatalog.all()) {
            assertTrue(r.err().contains(rule.id() + " "), rule.id() + " listed");
        }
    }

    @Test
    void withoutARuleEveryRuleIsListedWithItsDefaultSeverity() {
        RenderCommandTest.Run r = run("explain");
        assertEquals(ExitCodes.OK, r.exit());
        assertEquals(RuleCatalog.all().size(), r.out().strip().split("\n").length);
        assertTrue(r.out().matches("(?s).*APS101 +info +A mutating webhook.*"), r.out());
    }

    /** Every catalog rule has a section in the packaged docs, so explain never answers "no section". */
    @Test
    void everyCatalogRuleHasAPackagedSection() {
        for (RuleCatalog.Rule rule : RuleCatalog.all()) {
            assertTrue(RuleDocs.section(rule.id()).isPresent(), rule.id() + " has no section in the jar's rules.md");
            assertFalse(RuleDocs.catches(rule.id()).orElseThrow().isBlank(), rule.id());
        }
    }
}

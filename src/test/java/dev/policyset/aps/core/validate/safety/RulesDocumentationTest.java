package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.finding.RuleCatalog;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/rules.md and the rule catalog (the one home of IDs, default severities and summaries) agree: every rule
 * has a section with an example and a fix and a table row with the catalog's severity, and every rule the code
 * runs is in the catalog.
 */
class RulesDocumentationTest {
    private static final Pattern ROW = Pattern.compile("(?m)^\\| \\[([^\\]]+)\\]\\(#([^)]+)\\) \\| (\\w+) \\|");

    @Test
    void everyRuleHasASectionWithExampleAndFixAndATableRowWithTheCatalogsSeverity() throws IOException {
        String docs = Files.readString(Path.of("docs/rules.md"));
        Map<String, String[]> rows = new LinkedHashMap<>();
        Matcher m = ROW.matcher(docs);
        while (m.find()) {
            rows.put(m.group(1), new String[] {m.group(2), m.group(3)});
        }
        List<String> problems = new ArrayList<>();
        for (RuleCatalog.Rule rule : RuleCatalog.all()) {
            String id = rule.id();
            int start = docs.indexOf("\n### " + id + "\n");
            if (start < 0) {
                problems.add(id + ": no '### " + id + "' section");
                continue;
            }
            int end = docs.indexOf("\n### ", start + 1);
            String section = docs.substring(start, end < 0 ? docs.length() : end);
            List<String> parts = id.startsWith("APS") ? List.of("**Why it matters:**", "**Example:**", "**Fix:**")
                    : List.of("**Catches", "**Example:**", "**Fix:**");
            for (String part : parts) {
                if (!section.contains(part)) {
                    problems.add(id + ": section lacks " + part);
                }
            }
            String[] row = rows.remove(id);
            if (row == null) {
                problems.add(id + ": missing from the tables");
            } else {
                if (!row[0].equals(rule.anchor())) {
                    problems.add(id + ": table links #" + row[0] + ", the section's anchor is #" + rule.anchor());
                }
                if (!row[1].equals(rule.severity().label())) {
                    problems.add(id + ": table says " + row[1] + ", the catalog " + rule.severity().label());
                }
            }
        }
        rows.keySet().forEach(id -> problems.add(id + ": in the tables but not in RuleCatalog"));
        assertEquals(List.of(), problems);
    }

    @Test
    void everyRuleTheValidatorRunsIsInTheCatalog() {
        List<String> missing = Stream.concat(SafetyRules.all().stream().map(SafetyRule::id), Stream.of("APS403", "APS601"))
                .filter(id -> RuleCatalog.find(id).isEmpty()).toList();
        assertEquals(List.of(), missing);
    }

    @Test
    void anchorsFollowGitHubsHeadingIds() {
        assertEquals("aps201", RuleCatalog.find("APS201").orElseThrow().anchor());
        assertEquals("apiinvalid", RuleCatalog.find("api/Invalid").orElseThrow().anchor());
        assertEquals("celunchecked", RuleCatalog.find("cel/unchecked").orElseThrow().anchor());
        assertTrue(RuleCatalog.helpUri("APS201").endsWith("/docs/rules.md#aps201"));
    }
}

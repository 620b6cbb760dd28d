package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.validate.RuleCatalog;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** Every rule ID is documented in docs/rules.md (a section with an example and a fix) and in the catalog. */
class RulesDocumentationTest {
    @Test
    void everyRuleHasASectionWithExampleAndFixAndACatalogEntry() throws IOException {
        String docs = Files.readString(Path.of("docs/rules.md"));
        List<String> problems = new ArrayList<>();
        List<String> ids = Stream.concat(SafetyRules.all().stream().map(SafetyRule::id), Stream.of("APS403", "APS601")).toList();
        for (String id : ids) {
            int start = docs.indexOf("\n### " + id + "\n");
            if (start < 0) {
                problems.add(id + ": no '### " + id + "' section");
                continue;
            }
            int end = docs.indexOf("\n### ", start + 1);
            String section = docs.substring(start, end < 0 ? docs.length() : end);
            for (String part : List.of("**Why it matters:**", "**Example:**", "**Fix:**")) {
                if (!section.contains(part)) {
                    problems.add(id + ": section lacks " + part);
                }
            }
            if (!docs.contains("| [" + id + "](#" + id.toLowerCase() + ") |")) {
                problems.add(id + ": missing from the table");
            }
            assertNotEquals(id, RuleCatalog.summary(id), id + " has no catalog summary");
        }
        assertEquals(List.of(), problems);
    }
}

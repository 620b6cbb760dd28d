package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.policyset.aps.core.finding.RuleCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import static dev.policyset.aps.cli.RenderCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What code-scanning and merge-request widgets read: SARIF's rule metadata and GitLab's code-quality report. */
class CiOutputsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void sarifRulesCarryHelpUriFullDescriptionHelpAndDefaultLevel() throws IOException {
        RenderCommandTest.Run r = run("validate", "-o", "sarif", "config/samples/unsafe-fail-closed-webhook.yaml");
        assertEquals(ExitCodes.FINDINGS, r.exit());
        JsonNode rules = JSON.readTree(r.out()).at("/runs/0/tool/driver/rules");
        assertTrue(rules.size() > 0);
        for (JsonNode rule : rules) {
            String id = rule.get("id").asText();
            RuleCatalog.Rule known = RuleCatalog.find(id).orElseThrow(() -> new AssertionError(id + " not in the catalog"));
            assertEquals(known.helpUri(), rule.get("helpUri").asText());
            assertTrue(rule.get("helpUri").asText().startsWith("https://"), "absolute, as code scanning needs");
            assertEquals(known.summary(), rule.at("/shortDescription/text").asText());
            assertEquals(RuleDocs.catches(id).orElseThrow(), rule.at("/fullDescription/text").asText());
            assertTrue(rule.at("/help/markdown").asText().contains("**Fix:**"), id + " help is the documented section");
            assertTrue(rule.at("/help/text").asText().contains("Fix:"), id);
            assertEquals(Set.of("error", "warning", "note").contains(rule.at("/defaultConfiguration/level").asText()), true);
        }
        JsonNode aps201 = null;
        for (JsonNode rule : rules) {
            if (rule.get("id").asText().equals("APS201")) {
                aps201 = rule;
            }
        }
        assertEquals("error", aps201.at("/defaultConfiguration/level").asText());
        assertTrue(aps201.at("/fullDescription/text").asText().startsWith("a webhook with failurePolicy: Fail"),
                aps201.at("/fullDescription/text").asText());
    }

    @Test
    void codeQualityReportHasGitLabsShapeWithUniqueFingerprints(@TempDir Path dir) throws IOException {
        RenderCommandTest.Run r = run("validate", "--output", "codequality", "config/samples/unsafe-fail-closed-webhook.yaml");
        assertEquals(ExitCodes.FINDINGS, r.exit(), "the exit code does not depend on the format");
        JsonNode issues = JSON.readTree(r.out());
        assertTrue(issues.isArray() && issues.size() > 0, r.out());
        Set<String> fingerprints = new HashSet<>();
        boolean critical = false;
        for (JsonNode issue : issues) {
            assertEquals(Set.of("description", "check_name", "fingerprint", "severity", "location"), fields(issue));
            assertTrue(Set.of("info", "minor", "critical").contains(issue.get("severity").asText()));
            critical |= issue.get("check_name").asText().equals("APS201") && issue.get("severity").asText().equals("critical");
            assertTrue(fingerprints.add(issue.get("fingerprint").asText()), "fingerprints are unique");
            assertTrue(issue.get("fingerprint").asText().matches("[0-9a-f]{32}"));
            assertEquals("config/samples/unsafe-fail-closed-webhook.yaml", issue.at("/location/path").asText());
            assertTrue(issue.at("/location/lines/begin").asInt() >= 1);
            assertTrue(issue.get("description").asText().startsWith(issue.get("check_name").asText() + " "));
        }
        assertTrue(critical, "an error finding is critical");

        // The fingerprint ignores the line: the same finding moved down its file is not "new" to GitLab.
        String unsafe = Files.readString(Path.of("config/samples/unsafe-fail-closed-webhook.yaml"));
        Path file = dir.resolve("a.yaml");
        Path moved = dir.resolve("b.yaml");
        Files.writeString(file, unsafe);
        Files.writeString(moved, "# a comment\n# another\n" + unsafe);
        JsonNode before = JSON.readTree(run("validate", "-o", "codequality", file.toString()).out());
        JsonNode after = JSON.readTree(run("validate", "-o", "codequality", moved.toString()).out());
        assertEquals(before.size(), after.size());
        for (int i = 0; i < before.size(); i++) {
            assertEquals(before.get(i).at("/location/lines/begin").asInt() + 2, after.get(i).at("/location/lines/begin").asInt());
        }
        Files.delete(moved);
        Files.writeString(file, "# a comment\n# another\n" + unsafe);
        JsonNode sameFile = JSON.readTree(run("validate", "-o", "codequality", file.toString()).out());
        for (int i = 0; i < before.size(); i++) {
            assertEquals(before.get(i).get("fingerprint"), sameFile.get(i).get("fingerprint"));
        }
    }

    @Test
    void cleanInputGivesAnEmptyReport() throws IOException {
        RenderCommandTest.Run r = run("validate", "-o", "codequality", "config/samples/baseline-security.yaml");
        assertEquals(ExitCodes.OK, r.exit(), r.out() + r.err());
        JsonNode issues = JSON.readTree(r.out());
        for (JsonNode issue : issues) {
            assertTrue(Set.of("info", "minor").contains(issue.get("severity").asText()), issue.toString());
        }
    }

    private static Set<String> fields(JsonNode node) {
        Set<String> out = new HashSet<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }
}

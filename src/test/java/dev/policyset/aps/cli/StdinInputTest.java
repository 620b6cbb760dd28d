package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.policyset.aps.cli.RenderCommandTest.run;
import static dev.policyset.aps.cli.RenderCommandTest.runWithStdin;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code -} as a PATH: standard input, read once, named {@code <stdin>} in findings, with lines. */
class StdinInputTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path UNSAFE = Path.of("config/samples/unsafe-fail-closed-webhook.yaml");

    private static final String POLICY = ValidateCommandTest.POLICY;
    private static final String BINDING = ValidateCommandTest.BINDING;

    private static InputStream stdin(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    /** rule, object, field and line of every finding: what must not depend on where the text came from. */
    private static List<String> located(JsonNode root, String expectedFile) {
        List<String> out = new ArrayList<>();
        for (JsonNode f : root.get("findings")) {
            assertEquals(expectedFile, f.get("file").asText(), f.toString());
            out.add(f.get("rule").asText() + " " + f.get("object").asText() + " " + f.get("field").asText() + " :"
                    + f.get("line").asInt());
        }
        return out;
    }

    @Test
    void stdinGivesTheSameFindingsAndLinesAsTheFileNamedStdin() throws IOException {
        RenderCommandTest.Run fromFile = run("validate", "-o", "json", UNSAFE.toString());
        RenderCommandTest.Run fromStdin = runWithStdin(stdin(Files.readString(UNSAFE)), "validate", "-o", "json", "-");
        assertEquals(ExitCodes.FINDINGS, fromStdin.exit(), fromStdin.out() + fromStdin.err());
        List<String> expected = located(JSON.readTree(fromFile.out()), UNSAFE.toString());
        assertTrue(expected.stream().anyMatch(f -> f.startsWith("APS201 ")), expected.toString());
        assertEquals(expected, located(JSON.readTree(fromStdin.out()), "<stdin>"));
        assertEquals(1, JSON.readTree(fromStdin.out()).get("summary").get("files").asInt());
    }

    @Test
    void textOutputNamesStdinAndTheLine() throws IOException {
        RenderCommandTest.Run r = runWithStdin(stdin(Files.readString(UNSAFE)), "validate", "-");
        assertEquals(ExitCodes.FINDINGS, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("<stdin>: ValidatingWebhookConfiguration/catch-all-validator"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("\\s+\\d+: error\\s+APS201 .*")), r.out());
    }

    @Test
    void sarifLocatesStdinFindings() throws IOException {
        RenderCommandTest.Run r = runWithStdin(stdin(Files.readString(UNSAFE)), "validate", "-o", "sarif", "-");
        assertEquals(ExitCodes.FINDINGS, r.exit(), r.err());
        JsonNode result = JSON.readTree(r.out()).get("runs").get(0).get("results").get(0);
        JsonNode physical = result.get("locations").get(0).get("physicalLocation");
        assertEquals("%3Cstdin%3E", physical.get("artifactLocation").get("uri").asText());
        assertTrue(physical.get("region").get("startLine").asInt() > 1, physical.toString());
    }

    @Test
    void multiDocumentYamlAndJsonOnStdin() throws IOException {
        String stream = POLICY + "---\n" + BINDING + "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n";
        RenderCommandTest.Run yaml = runWithStdin(stdin(stream), "validate", "-o", "json", "-");
        assertEquals(ExitCodes.OK, yaml.exit(), yaml.out() + yaml.err());
        JsonNode summary = JSON.readTree(yaml.out()).get("summary");
        assertEquals(2, summary.get("objects").asInt());
        assertEquals(1, summary.get("skipped").asInt());

        String json = "{\"apiVersion\": \"admissionregistration.k8s.io/v1\", \"kind\": \"ValidatingAdmissionPolicyBinding\",\n"
                + " \"metadata\": {\"name\": \"b\"},\n \"spec\": {\"policyName\": \"missing\", \"validationActions\": [\"Deny\"]}}\n";
        RenderCommandTest.Run fromJson = runWithStdin(stdin(json), "validate", "-o", "json", "-");
        assertEquals(ExitCodes.FINDINGS, fromJson.exit(), fromJson.out());
        JsonNode aps401 = JSON.readTree(fromJson.out()).get("findings").get(0);
        assertEquals("APS401", aps401.get("rule").asText());
        assertEquals("<stdin>", aps401.get("file").asText());
        assertEquals(3, aps401.get("line").asInt(), "line of spec.policyName in the JSON text");
    }

    @Test
    void stdinMixesWithFilesAsOneInput(@TempDir Path dir) throws IOException {
        Path binding = dir.resolve("binding.yaml");
        Files.writeString(binding, BINDING);
        // The policy comes from stdin, the binding from a file: they are paired (no APS401, no APS402).
        RenderCommandTest.Run r = runWithStdin(stdin(POLICY), "validate", "-o", "json", binding.toString(), "-");
        assertEquals(ExitCodes.OK, r.exit(), r.out() + r.err());
        JsonNode root = JSON.readTree(r.out());
        assertEquals(2, root.get("summary").get("files").asInt());
        assertEquals(2, root.get("summary").get("objects").asInt());
        assertEquals(0, root.get("findings").size(), root.toString());

        // A finding about the object from stdin names stdin; one about the file's object names the file.
        String staged = POLICY.replace("name: require-team", "name: staged");
        RenderCommandTest.Run both = runWithStdin(stdin(staged), "validate", "-o", "json", "-", binding.toString());
        JsonNode findings = JSON.readTree(both.out()).get("findings");
        boolean sawStdin = false;
        boolean sawFile = false;
        for (JsonNode f : findings) {
            if (f.get("rule").asText().equals("APS402")) {
                assertEquals("<stdin>", f.get("file").asText());
                sawStdin = true;
            }
            if (f.get("rule").asText().equals("APS401")) {
                assertEquals(binding.toString(), f.get("file").asText());
                sawFile = true;
            }
        }
        assertTrue(sawStdin && sawFile, findings.toString());
    }

    @Test
    void dashTwiceIsAUsageError() {
        // Standard input can be read once; a second '-' would silently read nothing.
        RenderCommandTest.Run r = runWithStdin(stdin(POLICY), "validate", "-", "-");
        assertEquals(ExitCodes.USAGE_OR_INPUT, r.exit());
        assertTrue(r.err().contains("standard input can be read only once"), r.err());
        assertEquals("", r.out());
        RenderCommandTest.Run render = runWithStdin(stdin(POLICY), "render", "-", "-");
        assertEquals(ExitCodes.USAGE_OR_INPUT, render.exit());
    }

    /** As an empty directory is: a pipe whose first command printed nothing must not pass. */
    @Test
    void emptyStdinIsUnreadableInput() throws IOException {
        for (String nothing : new String[] {"", "\n\n", "# only a comment\n---\n"}) {
            RenderCommandTest.Run r = runWithStdin(stdin(nothing), "validate", "-o", "json", "-");
            assertEquals(ExitCodes.USAGE_OR_INPUT, r.exit(), "'" + nothing + "': " + r.out() + r.err());
            JsonNode f = JSON.readTree(r.out()).get("findings").get(0);
            assertEquals("input/Unreadable", f.get("rule").asText());
            assertEquals("<stdin>", f.get("file").asText());
            assertTrue(f.get("message").asText().contains("standard input has no YAML or JSON documents"), f.toString());
            assertEquals(ExitCodes.USAGE_OR_INPUT, runWithStdin(stdin(nothing), "render", "-").exit());
        }
        // One document on stdin is input (as before); an empty stdin is reported even beside other files, as an empty directory is.
        assertEquals(ExitCodes.OK, runWithStdin(stdin(POLICY + "---\n" + BINDING), "validate", "-").exit());
    }

    @Test
    void unparseableStdinIsReportedWithItsLine() throws IOException {
        RenderCommandTest.Run r = runWithStdin(stdin("apiVersion: v1\nkind: [unclosed\n"), "validate", "-o", "json", "-");
        assertEquals(ExitCodes.USAGE_OR_INPUT, r.exit());
        JsonNode f = JSON.readTree(r.out()).get("findings").get(0);
        assertEquals("input/Unreadable", f.get("rule").asText());
        assertEquals("<stdin>", f.get("file").asText());
        assertTrue(f.get("line").asInt() >= 2, f.toString());
        assertTrue(r.err().contains("<stdin>:"), r.err());
    }

    @Test
    void renderReadsStdin() throws IOException {
        RenderCommandTest.Run fromFile = run("render", "config/samples/baseline-security.yaml");
        RenderCommandTest.Run fromStdin = runWithStdin(stdin(Files.readString(Path.of("config/samples/baseline-security.yaml"))),
                "render", "-");
        assertEquals(ExitCodes.OK, fromStdin.exit(), fromStdin.err());
        assertFalse(fromStdin.out().isEmpty());
        assertEquals(fromFile.out(), fromStdin.out());
    }

    /** The shipped sample test as it would be piped in: its relative policy path rewritten for the working directory. */
    private static String sampleTestFromTheWorkingDirectory() throws IOException {
        String text = Files.readString(Path.of("config/samples/tests/baseline-security.test.yaml"));
        assertTrue(text.contains("  - ../baseline-security.yaml\n"), text);
        return text.replace("  - ../baseline-security.yaml\n", "  - config/samples/baseline-security.yaml\n");
    }

    @Test
    void testReadsATestFileFromStdinWithPathsRelativeToTheWorkingDirectory() throws IOException {
        RenderCommandTest.Run fromFile = run("test", "config/samples/tests/baseline-security.test.yaml");
        RenderCommandTest.Run fromStdin = runWithStdin(stdin(sampleTestFromTheWorkingDirectory()), "test", "-");
        assertEquals(ExitCodes.OK, fromStdin.exit(), fromStdin.out() + fromStdin.err());
        assertTrue(fromStdin.out().contains("<stdin> (PolicyTest baseline-security)"), fromStdin.out());
        assertEquals(fromFile.out().lines().filter(l -> l.contains("PASS")).toList(),
                fromStdin.out().lines().filter(l -> l.contains("PASS")).toList());
        assertTrue(fromStdin.out().contains("PASS  a plain pod passes every policy"), fromStdin.out());
    }

    @Test
    void testFromStdinMixesWithFilesAndIsReadOnce() throws IOException {
        RenderCommandTest.Run both = runWithStdin(stdin(sampleTestFromTheWorkingDirectory()), "test", "-o", "json",
                "-", "config/samples/tests/mutating-defaults.test.yaml");
        assertEquals(ExitCodes.OK, both.exit(), both.out() + both.err());
        JsonNode files = JSON.readTree(both.out()).get("files");
        assertEquals(2, files.size(), both.out());
        assertEquals("<stdin>", files.get(0).get("file").asText(), files.get(0).toString());

        RenderCommandTest.Run twice = runWithStdin(stdin(sampleTestFromTheWorkingDirectory()), "test", "-", "-");
        assertEquals(ExitCodes.USAGE_OR_INPUT, twice.exit());
        assertTrue(twice.err().contains("standard input can be read only once"), twice.err());
    }

    @Test
    void testFromStdinReportsItsProblemsAsStdin() throws IOException {
        // a path that only resolves beside the sample file: from stdin it is the working directory's, and missing
        String unchanged = Files.readString(Path.of("config/samples/tests/baseline-security.test.yaml"));
        RenderCommandTest.Run missing = runWithStdin(stdin(unchanged), "test", "-");
        assertEquals(ExitCodes.USAGE_OR_INPUT, missing.exit(), missing.out() + missing.err());
        assertTrue(missing.err().contains("aps test: <stdin>:9: "), missing.err());
        assertTrue(missing.err().contains("../baseline-security.yaml"), missing.err());

        RenderCommandTest.Run malformed = runWithStdin(stdin("apiVersion: aps.policyset.dev/v1alpha1\nkind: [unclosed\n"),
                "test", "-");
        assertEquals(ExitCodes.USAGE_OR_INPUT, malformed.exit());
        assertTrue(malformed.err().contains("aps test: <stdin>:"), malformed.err());
    }
}

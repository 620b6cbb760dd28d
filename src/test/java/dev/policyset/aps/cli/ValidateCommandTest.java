package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static dev.policyset.aps.cli.RenderCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ValidateCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A valid policy and its binding; StdinInputTest feeds the same pair through standard input. */
    static final String POLICY = """
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata:
              name: require-team
            spec:
              failurePolicy: Fail
              matchConstraints:
                resourceRules:
                  - apiGroups: [apps]
                    apiVersions: [v1]
                    operations: [CREATE, UPDATE]
                    resources: [deployments]
              validations:
                - expression: "has(object.metadata.labels)"
            """;

    static final String BINDING = """
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicyBinding
            metadata:
              name: require-team-binding
            spec:
              policyName: require-team
              validationActions: [Deny]
            """;

    private static JsonNode json(RenderCommandTest.Run run) throws IOException {
        return JSON.readTree(run.out());
    }

    @Test
    void unsafeSampleFailsAndTheOthersPass() throws IOException {
        RenderCommandTest.Run unsafe = run("validate", "config/samples/unsafe-fail-closed-webhook.yaml");
        assertEquals(ExitCodes.FINDINGS, unsafe.exit(), unsafe.out() + unsafe.err());
        assertTrue(unsafe.out().contains("APS201"), unsafe.out());
        try (var files = Files.list(Path.of("config/samples"))) {
            for (Path sample : files.filter(p -> !p.getFileName().toString().startsWith("unsafe")).toList()) {
                RenderCommandTest.Run ok = run("validate", sample.toString());
                assertEquals(ExitCodes.OK, ok.exit(), sample + ":\n" + ok.out() + ok.err());
            }
        }
    }

    @Test
    void findingsPointAtTheLineThatNeedsTheFix(@TempDir Path dir) throws IOException {
        Path set = dir.resolve("set.yaml");
        Files.writeString(set, """
                apiVersion: admission.policyset.dev/v1alpha1
                kind: AdmissionPolicySet
                metadata:
                  name: lines
                spec:
                  validatingPolicies:
                    - name: typo
                      policy:
                        matchConstraints:
                          resourceRules:
                            - apiGroups: [apps]
                              apiVersions: [v1]
                              operations: [CREATE]
                              resources: [deployments]
                        validations:
                          - expression: "object.metadata.name.startWith('x')"
                """);
        Path bare = dir.resolve("bare.yaml");
        Files.writeString(bare, POLICY.replace("name: require-team", "name: Upper-Case"));
        JsonNode root = json(run("validate", "--output", "json", set.toString(), bare.toString()));
        int expressionLine = -1;
        int nameLine = -1;
        for (JsonNode f : root.get("findings")) {
            if (f.get("field").asText().equals("spec.validations[0].expression")) {
                assertEquals(set.toString(), f.get("file").asText());
                expressionLine = f.get("line").asInt();
            }
            if (f.get("field").asText().equals("metadata.name") && f.get("object").asText().contains("Upper-Case")) {
                assertEquals(bare.toString(), f.get("file").asText());
                nameLine = f.get("line").asInt();
            }
        }
        assertEquals(16, expressionLine, "the CEL error is on the member's expression line: " + root);
        assertEquals(4, nameLine, "the name error is on metadata.name: " + root);
    }

    @Test
    void jsonHasExactlyTheContractShape() throws IOException {
        RenderCommandTest.Run r = run("validate", "--output", "json", "config/samples/unsafe-fail-closed-webhook.yaml");
        JsonNode root = json(r);
        assertEquals(Set.of("findings", "summary"), fieldNames(root));
        // The contract's four counts, plus compatible additions: skipped documents (not admission objects) and
        // findings a waiver turned into info.
        assertEquals(Set.of("files", "objects", "errors", "warnings", "skipped", "waived"), fieldNames(root.get("summary")));
        assertEquals(1, root.get("summary").get("files").asInt());
        assertEquals(1, root.get("summary").get("objects").asInt());
        assertTrue(root.get("summary").get("errors").asInt() >= 1);
        assertTrue(root.get("findings").size() >= 1);
        for (JsonNode f : root.get("findings")) {
            assertEquals(Set.of("rule", "severity", "object", "field", "message", "file", "line"), fieldNames(f));
            assertTrue(Set.of("error", "warning", "info").contains(f.get("severity").asText()));
        }
        JsonNode aps201 = findRule(root, "APS201");
        assertEquals("ValidatingWebhookConfiguration/catch-all-validator", aps201.get("object").asText());
        assertEquals("webhooks[0].namespaceSelector", aps201.get("field").asText());
        assertEquals("config/samples/unsafe-fail-closed-webhook.yaml", aps201.get("file").asText());
        assertTrue(aps201.get("line").isInt());
    }

    @Test
    void sarifParsesWithOneRulePerIdAndLocations() throws IOException {
        RenderCommandTest.Run r = run("validate", "-o", "sarif", "config/samples/");
        assertEquals(ExitCodes.FINDINGS, r.exit());
        JsonNode root = json(r);
        assertEquals("2.1.0", root.get("version").asText());
        JsonNode run = root.get("runs").get(0);
        List<String> ids = new ArrayList<>();
        run.get("tool").get("driver").get("rules").forEach(rule -> ids.add(rule.get("id").asText()));
        assertEquals(ids.stream().distinct().toList(), ids, "one rule per ID");
        assertTrue(ids.contains("APS201"));
        for (JsonNode result : run.get("results")) {
            assertEquals(result.get("ruleId").asText(), ids.get(result.get("ruleIndex").asInt()));
            assertTrue(Set.of("error", "warning", "note").contains(result.get("level").asText()));
            JsonNode physical = result.get("locations").get(0).get("physicalLocation");
            assertTrue(physical.get("artifactLocation").get("uri").asText().startsWith("config/samples/"));
            assertTrue(physical.get("region").get("startLine").asInt() >= 1);
        }
    }

    @Test
    void bareBindingIsPairedWithAPolicyFromAnotherFile(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("policy.yaml"), POLICY);
        Files.writeString(dir.resolve("binding.yaml"), BINDING);
        RenderCommandTest.Run both = run("validate", "-o", "json", dir.toString());
        assertEquals(ExitCodes.OK, both.exit(), both.out());
        assertTrue(findRuleOrNull(json(both), "APS401") == null);
        RenderCommandTest.Run alone = run("validate", "-o", "json", dir.resolve("binding.yaml").toString());
        assertEquals(ExitCodes.FINDINGS, alone.exit());
        assertEquals(dir.resolve("binding.yaml").toString(), findRule(json(alone), "APS401").get("file").asText());
    }

    @Test
    void multiDocumentFilesAndOtherKindsAreCountedAndListedOnRequest(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("all.yaml"), POLICY + "---\n" + BINDING
                + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n---\napiVersion: apps/v1\nkind: Deployment\n"
                + "metadata: {name: web}\n---\n");
        String file = dir.resolve("all.yaml").toString();

        // JSON follows the contract (DESIGN §5: other kinds are skipped with an info finding) whatever the flag.
        RenderCommandTest.Run machine = run("validate", "-o", "json", file);
        assertEquals(ExitCodes.OK, machine.exit(), machine.out());
        assertEquals(2, json(machine).get("findings").size(), machine.out());
        assertEquals(2, json(machine).get("summary").get("skipped").asInt());
        assertEquals("info", findRule(json(machine), "input/Skipped").get("severity").asText());
        // Quiet for people by default: counted, not listed.
        RenderCommandTest.Run text = run("validate", file);
        assertFalse(text.out().contains("input/Skipped"), text.out());
        assertTrue(text.out().contains("1 file(s), 2 object(s): 0 error(s), 0 warning(s);\n2 other document(s) skipped "
                + "(--show-skipped lists them)"), text.out());
        RenderCommandTest.Run sarif = run("validate", "-o", "sarif", file);
        assertEquals(0, JSON.readTree(sarif.out()).get("runs").get(0).get("results").size(), sarif.out());

        // Listed on request, in every format.
        RenderCommandTest.Run r = run("validate", "-o", "json", "--show-skipped", file);
        assertEquals(ExitCodes.OK, r.exit(), r.out());
        JsonNode root = json(r);
        assertEquals(2, root.get("summary").get("objects").asInt());
        assertEquals(2, root.get("summary").get("skipped").asInt());
        assertEquals(2, root.get("findings").size(), root.toString());
        assertTrue(run("validate", "--show-skipped", file).out().contains("input/Skipped"));
        assertEquals(2, JSON.readTree(run("validate", "-o", "sarif", "--show-skipped", file).out())
                .get("runs").get(0).get("results").size());
        JsonNode skipped = findRule(root, "input/Skipped");
        assertEquals("info", skipped.get("severity").asText());
        assertEquals("ConfigMap/x", skipped.get("object").asText());
        assertTrue(skipped.get("line").asInt() > 10, "line of the ConfigMap document");
    }

    @Test
    void unparseableFileIsReportedWithLineAndOthersStillValidated(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("a-broken.yaml"), "apiVersion: v1\nkind: [unclosed\nmetadata: {name: x}\n");
        Files.writeString(dir.resolve("b-unsafe.yaml"), Files.readString(Path.of("config/samples/unsafe-fail-closed-webhook.yaml")));
        RenderCommandTest.Run r = run("validate", "-o", "json", dir.toString());
        assertEquals(ExitCodes.USAGE_OR_INPUT, r.exit());
        assertTrue(r.err().contains("a-broken.yaml:"), r.err());
        JsonNode root = json(r);
        JsonNode unreadable = findRule(root, "input/Unreadable");
        assertTrue(unreadable.get("file").asText().endsWith("a-broken.yaml"));
        assertTrue(unreadable.get("line").asInt() >= 2, unreadable.toString());
        assertTrue(findRuleOrNull(root, "APS201") != null, "the other file is still validated");
    }

    @Test
    void wrongTypesAndHostileDocumentsNeverCrash(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("types.yaml"), """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: 5}
                webhooks: {not: a-list}
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: MutatingWebhookConfiguration
                metadata: [x]
                webhooks: [1, "two", {rules: 3, namespaceSelector: "x", timeoutSeconds: 1e99}]
                ---
                apiVersion: admission.policyset.dev/v1alpha1
                kind: AdmissionPolicySet
                metadata: {name: s}
                spec: {validatingWebhooks: 7, safety: {exemptions: "all"}}
                ---
                - just
                - a list
                ---
                plain scalar
                """);
        StringBuilder deep = new StringBuilder("apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: deep}\nspec: ");
        deep.append("[".repeat(5000)).append("]".repeat(5000)).append('\n');
        Files.writeString(dir.resolve("deep.yaml"), deep);
        StringBuilder wide = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            wide.append(BINDING.replace("require-team-binding", "b" + i)).append("---\n");
        }
        Files.writeString(dir.resolve("wide.yaml"), wide);
        for (String format : List.of("text", "json", "sarif")) {
            RenderCommandTest.Run r = run("validate", "-o", format, dir.toString());
            assertTrue(r.exit() == ExitCodes.FINDINGS || r.exit() == ExitCodes.USAGE_OR_INPUT, r.err());
            assertFalse(r.err().contains("internal error"), r.err());
            assertFalse(r.err().contains("Exception"), r.err());
        }
    }

    @Test
    void setExemptionsAndWarnEnforcementApplyEndToEnd(@TempDir Path dir) throws IOException {
        String unsafe = Files.readString(Path.of("config/samples/unsafe-fail-closed-webhook.yaml"));
        String exempted = unsafe.replace("spec:\n", """
                spec:
                  safety:
                    exemptions:
                      - {rule: APS201, object: ValidatingWebhookConfiguration/catch-all-validator, reason: drill only}
                """);
        Files.writeString(dir.resolve("exempted.yaml"), exempted);
        JsonNode root = json(run("validate", "-o", "json", dir.resolve("exempted.yaml").toString()));
        JsonNode aps201 = findRule(root, "APS201");
        assertEquals("info", aps201.get("severity").asText());
        assertTrue(aps201.get("message").asText().contains("drill only"));
        assertEquals("error", findRule(root, "APS202").get("severity").asText(), "only the exempted rule is waived");

        Files.writeString(dir.resolve("warn.yaml"), unsafe.replace("spec:\n", "spec:\n  safety: {enforcement: Warn}\n"));
        RenderCommandTest.Run warn = run("validate", "-o", "json", dir.resolve("warn.yaml").toString());
        assertEquals(ExitCodes.OK, warn.exit(), warn.out());
        assertEquals(0, json(warn).get("summary").get("errors").asInt());
    }

    @Test
    void usageErrorsExitTwo() {
        assertEquals(ExitCodes.USAGE_OR_INPUT, run("validate").exit());
        assertEquals(ExitCodes.USAGE_OR_INPUT, run("validate", "--output", "xml", "config/samples").exit());
        assertEquals(ExitCodes.USAGE_OR_INPUT, run("validate", "--kube-version", "one", "config/samples").exit());
        assertEquals(ExitCodes.USAGE_OR_INPUT, run("validate", "does/not/exist.yaml").exit());
    }

    @Test
    void textOutputGroupsFindingsPerObjectWithoutColourWhenNotATerminal() {
        RenderCommandTest.Run r = run("validate", "config/samples/unsafe-fail-closed-webhook.yaml");
        assertFalse(r.out().contains("\u001b["), "no ANSI colour when stdout is not a terminal");
        assertTrue(r.out().startsWith("config/samples/unsafe-fail-closed-webhook.yaml: ValidatingWebhookConfiguration/catch-all-validator\n"), r.out());
        assertEquals(1, r.out().split("catch-all-validator\n", -1).length - 1, "one heading per object: " + r.out());
        assertTrue(r.out().contains("  17: error   APS201 webhooks[0].namespaceSelector: "), r.out());
        assertTrue(r.out().strip().endsWith("error(s), 3 warning(s)"), r.out());
    }

    private static Set<String> fieldNames(JsonNode node) {
        Set<String> names = new java.util.HashSet<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static JsonNode findRule(JsonNode root, String rule) {
        JsonNode f = findRuleOrNull(root, rule);
        assertTrue(f != null, () -> "no " + rule + " finding in " + root);
        return f;
    }

    private static JsonNode findRuleOrNull(JsonNode root, String rule) {
        for (JsonNode f : root.get("findings")) {
            if (f.get("rule").asText().equals(rule)) {
                return f;
            }
        }
        return null;
    }
}

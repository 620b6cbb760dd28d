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
import java.util.Optional;

import static dev.policyset.aps.cli.RenderCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code aps validate} on a vendor chart it does not own: cert-manager's published webhooks (30 s timeouts on both:
 * APS302, an error) waived by a {@code .aps.yaml} or by the object's annotation, {@code --fail-on}, and the waived
 * findings in JSON and SARIF.
 */
class WaiverCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * cert-manager v1.18.0's webhooks as its chart renders them (cert-manager/templates/webhook-*-webhook.yaml, as
     * vendored in knative/serving third_party/cert-manager-latest/cert-manager.yaml @98e5ef90), trimmed.
     */
    static final String CERT_MANAGER = """
            apiVersion: admissionregistration.k8s.io/v1
            kind: MutatingWebhookConfiguration
            metadata:
              name: cert-manager-webhook
              annotations:
                cert-manager.io/inject-ca-from-secret: "cert-manager/cert-manager-webhook-ca"
            %s
            webhooks:
              - name: webhook.cert-manager.io
                rules:
                  - apiGroups: ["cert-manager.io"]
                    apiVersions: ["v1"]
                    operations: [CREATE]
                    resources: ["certificaterequests"]
                admissionReviewVersions: ["v1"]
                matchPolicy: Equivalent
                timeoutSeconds: 30
                failurePolicy: Fail
                sideEffects: None
                clientConfig:
                  service: {name: cert-manager-webhook, namespace: cert-manager, path: /mutate}
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingWebhookConfiguration
            metadata:
              name: cert-manager-webhook
              annotations:
                cert-manager.io/inject-ca-from-secret: "cert-manager/cert-manager-webhook-ca"
            webhooks:
              - name: webhook.cert-manager.io
                namespaceSelector:
                  matchExpressions:
                  - key: cert-manager.io/disable-validation
                    operator: NotIn
                    values: ["true"]
                rules:
                  - apiGroups: ["cert-manager.io", "acme.cert-manager.io"]
                    apiVersions: ["v1"]
                    operations: [CREATE, UPDATE]
                    resources: ["*/*"]
                admissionReviewVersions: ["v1"]
                matchPolicy: Equivalent
                timeoutSeconds: 30
                failurePolicy: Fail
                sideEffects: None
                clientConfig:
                  service: {name: cert-manager-webhook, namespace: cert-manager, path: /validate}
            """;

    private static final String WAIVERS = """
            waivers:
              - rule: APS302
                objects: [MutatingWebhookConfiguration/cert-manager-*, ValidatingWebhookConfiguration/cert-manager-*]
                reason: cert-manager's chart sets 30 s on both webhooks; vendored as published
                expires: %s
            """;

    private static Path chart(Path dir, String annotation) throws IOException {
        Path file = dir.resolve("cert-manager.yaml");
        Files.writeString(file, CERT_MANAGER.formatted(annotation));
        return file;
    }

    private static Path waivers(Path dir, String text) throws IOException {
        Path file = dir.resolve("waivers.yaml");
        Files.writeString(file, text);
        return file;
    }

    private static JsonNode finding(JsonNode json, String rule) {
        for (JsonNode f : json.path("findings")) {
            if (f.path("rule").asText().equals(rule)) {
                return f;
            }
        }
        throw new AssertionError(rule + " not in " + json);
    }

    private static List<String> rules(JsonNode json) {
        List<String> out = new ArrayList<>();
        json.path("findings").forEach(f -> out.add(f.path("rule").asText() + " " + f.path("severity").asText()));
        return out;
    }

    @Test
    void certManagersLatencyErrorIsWaivedByTheRepositoryFile(@TempDir Path dir) throws IOException {
        Path chart = chart(dir, "");
        RenderCommandTest.Run plain = run("validate", chart.toString());
        assertEquals(ExitCodes.FINDINGS, plain.exit(), plain.out());
        assertTrue(plain.out().contains("error   APS302"), plain.out());

        Path config = waivers(dir, WAIVERS.formatted("2999-12-31"));
        RenderCommandTest.Run waived = run("validate", "--config", config.toString(), "-o", "json", chart.toString());
        assertEquals(ExitCodes.OK, waived.exit(), waived.out() + waived.err());
        JsonNode json = JSON.readTree(waived.out());
        JsonNode latency = finding(json, "APS302");
        assertEquals("info", latency.path("severity").asText());
        assertEquals("cert-manager's chart sets 30 s on both webhooks; vendored as published",
                latency.path("waived").path("reason").asText());
        assertEquals("error", latency.path("waived").path("severity").asText());
        assertTrue(latency.path("waived").path("by").asText().endsWith("waivers[0].objects[0]"), latency.toString());
        assertEquals(1, json.path("summary").path("waived").asInt());
        assertEquals(0, json.path("summary").path("errors").asInt());
        // The contract's fields are all still there.
        for (String field : List.of("rule", "severity", "object", "field", "message", "file", "line")) {
            assertTrue(latency.has(field), field);
        }
        // The second pattern matched nothing (APS302 is reported once, on the mutating webhook): said at its line.
        JsonNode unmatched = finding(json, "APS901");
        assertEquals("waivers[0].objects[1]", unmatched.path("field").asText());
        assertEquals(config.toString(), unmatched.path("file").asText());
        assertEquals(3, unmatched.path("line").asInt());
    }

    @Test
    void sarifKeepsTheWaivedResultAsASuppressedOne(@TempDir Path dir) throws IOException {
        Path chart = chart(dir, "");
        Path config = waivers(dir, WAIVERS.formatted("2999-12-31"));
        RenderCommandTest.Run r = run("validate", "--config", config.toString(), "-o", "sarif", chart.toString());
        JsonNode results = JSON.readTree(r.out()).path("runs").get(0).path("results");
        JsonNode latency = null;
        for (JsonNode result : results) {
            if (result.path("ruleId").asText().equals("APS302")) {
                latency = result;
            }
        }
        assertTrue(latency != null, r.out());
        JsonNode suppression = latency.path("suppressions").get(0);
        assertEquals("external", suppression.path("kind").asText());
        assertEquals("accepted", suppression.path("status").asText());
        assertTrue(suppression.path("justification").asText().startsWith("cert-manager's chart sets 30 s"), suppression.toString());
        assertEquals("note", latency.path("level").asText());
    }

    @Test
    void theObjectsAnnotationWaivesToo(@TempDir Path dir) throws IOException {
        // Under the chart's own annotations (the placeholder follows cert-manager's injector annotation).
        Path chart = chart(dir, "    admission.policyset.dev/waive: |\n"
                + "      APS302: vendored chart, 30 s by design\n"
                + "      APS301: same");
        RenderCommandTest.Run r = run("validate", "-o", "json", chart.toString());
        assertEquals(ExitCodes.OK, r.exit(), r.out() + r.err());
        JsonNode json = JSON.readTree(r.out());
        assertEquals("vendored chart, 30 s by design", finding(json, "APS302").path("waived").path("reason").asText());
        assertEquals(List.of(), rules(json).stream().filter(x -> x.startsWith("APS90")).toList());
    }

    @Test
    void anExpiredWaiverBringsTheErrorBack(@TempDir Path dir) throws IOException {
        Path chart = chart(dir, "");
        Path config = waivers(dir, WAIVERS.formatted("2020-01-31"));
        RenderCommandTest.Run r = run("validate", "--config", config.toString(), chart.toString());
        assertEquals(ExitCodes.FINDINGS, r.exit(), r.out());
        // a message's continuation lines joined back (text output wraps at 100 columns)
        assertTrue(r.out().replaceAll("\n +", " ").contains("expired on 2020-01-31 and no longer waives it"), r.out());
        assertTrue(r.out().contains("warning APS902"), r.out());
    }

    @Test
    void failOnChoosesTheLeastSevereFindingThatFails(@TempDir Path dir) throws IOException {
        Path chart = chart(dir, "");
        Path config = waivers(dir, WAIVERS.formatted("2999-12-31"));
        // Unwaived: one error (APS302) and warnings (APS203, APS301).
        assertEquals(ExitCodes.FINDINGS, run("validate", chart.toString()).exit());
        assertEquals(ExitCodes.FINDINGS, run("validate", "--fail-on", "error", chart.toString()).exit());
        assertEquals(ExitCodes.OK, run("validate", "--fail-on", "none", chart.toString()).exit());
        // Waived: no error left, the warnings remain, the waived finding is info.
        assertEquals(ExitCodes.OK, run("validate", "--config", config.toString(), chart.toString()).exit());
        assertEquals(ExitCodes.FINDINGS, run("validate", "--config", config.toString(), "--fail-on", "warning",
                chart.toString()).exit());
        assertEquals(ExitCodes.FINDINGS, run("validate", "--config", config.toString(), "--fail-on", "info",
                chart.toString()).exit());
        RenderCommandTest.Run bad = run("validate", "--fail-on", "fatal", chart.toString());
        assertEquals(ExitCodes.USAGE_OR_INPUT, bad.exit(), bad.err());
        // Inputs that cannot be read are exit 2 whatever --fail-on says.
        assertEquals(ExitCodes.USAGE_OR_INPUT, run("validate", "--fail-on", "none", dir.resolve("missing.yaml").toString()).exit());
    }

    @Test
    void aMissingConfigFileIsAnInputError(@TempDir Path dir) throws IOException {
        RenderCommandTest.Run r = run("validate", "--config", dir.resolve("nope.yaml").toString(), chart(dir, "").toString());
        assertEquals(ExitCodes.USAGE_OR_INPUT, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("nope.yaml"), r.err());
    }

    @Test
    void theWaiverFileIsFoundUpToTheRepositorysRootAndNoFurther(@TempDir Path dir) throws IOException {
        Path repo = Files.createDirectories(dir.resolve("repo"));
        Files.createDirectories(repo.resolve(".git"));
        Path deep = Files.createDirectories(repo.resolve("charts/cert-manager"));
        assertEquals(Optional.empty(), WaiverFile.find(deep));
        Files.writeString(dir.resolve(WaiverFile.NAME), "waivers: []\n"); // above the root: another repository's
        assertEquals(Optional.empty(), WaiverFile.find(deep));
        Files.writeString(repo.resolve(WaiverFile.NAME), "waivers: []\n");
        assertEquals(Optional.of(repo.resolve(WaiverFile.NAME)), WaiverFile.find(deep));
        Files.writeString(deep.resolve(WaiverFile.NAME), "waivers: []\n");
        assertEquals(Optional.of(deep.resolve(WaiverFile.NAME)), WaiverFile.find(deep), "the nearest one wins");
    }

    /** The waiver file shown in docs/rules.md, README.md and `aps validate --help` works when pasted. */
    @Test
    void theDocumentedWaiverFilesWaiveCertManagersLatency(@TempDir Path dir) throws IOException {
        Path chart = chart(dir, "");
        List<String> examples = new ArrayList<>();
        for (String doc : List.of("docs/rules.md", "README.md")) {
            String text = Files.readString(Path.of(doc));
            int at = text.indexOf("waivers:\n");
            int start = text.lastIndexOf("\n", at) + 1;
            int end = text.indexOf("```", at);
            String indent = text.substring(start, at);
            examples.add(text.substring(start, end).lines().map(l -> l.startsWith(indent) ? l.substring(indent.length()) : l)
                    .reduce("", (a, b) -> a + b + "\n"));
        }
        String help = run("validate", "--help").out();
        String fromHelp = help.substring(help.indexOf("  waivers:\n"), help.indexOf("\n\n", help.indexOf("  waivers:\n")));
        examples.add(fromHelp.lines().map(l -> l.substring(2)).reduce("", (a, b) -> a + b + "\n"));
        for (String example : examples) {
            // The examples' dates pass one day; what they must keep doing is parse and waive.
            Path config = waivers(dir, example.replaceAll("expires: [0-9-]+", "expires: 2999-12-31"));
            RenderCommandTest.Run r = run("validate", "--config", config.toString(), "-o", "json", chart.toString());
            assertEquals(ExitCodes.OK, r.exit(), example + r.out() + r.err());
            JsonNode json = JSON.readTree(r.out());
            assertTrue(finding(json, "APS302").path("waived").isObject(), example + r.out());
            assertEquals(List.of(), rules(json).stream().filter(x -> x.startsWith("APS90")).toList(), example);
        }
    }

    @Test
    void explainKnowsTheWaiverRules() {
        for (String id : List.of("APS901", "APS902")) {
            RenderCommandTest.Run r = run("explain", id);
            assertEquals(ExitCodes.OK, r.exit(), r.err());
            assertTrue(r.out().contains("**Fix:**") || r.out().contains("Fix:"), r.out());
        }
    }
}

package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.policyset.aps.cli.RenderCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChainCommandTest {
    private static final String SLOW = """
            apiVersion: admissionregistration.k8s.io/v1
            kind: MutatingWebhookConfiguration
            metadata: {name: slow}
            webhooks:
              - name: m.example.com
                rules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]
                timeoutSeconds: 15
                reinvocationPolicy: IfNeeded
                sideEffects: None
                admissionReviewVersions: [v1]
                clientConfig: {url: "https://m.example.com/"}
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingWebhookConfiguration
            metadata: {name: check}
            webhooks:
              - name: v.example.com
                rules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]
                timeoutSeconds: 5
                namespaceSelector: {matchLabels: {tier: web}}
                sideEffects: None
                admissionReviewVersions: [v1]
                clientConfig: {url: "https://v.example.com/"}
            """;

    @Test
    void samplesListThePhasesInOrder() {
        RenderCommandTest.Run r = run("chain", "--resource", "v1/pods", "--operation", "CREATE", "--namespace", "team-a",
                "config/samples/", "examples/image-checker/");
        assertEquals(ExitCodes.OK, r.exit(), r.err());
        String out = r.out();
        int mutating = out.indexOf("Mutating phase");
        int schema = out.indexOf("Schema validation:");
        int validating = out.indexOf("Validating phase:");
        int quota = out.indexOf("plugin ResourceQuota");
        assertTrue(mutating >= 0 && mutating < schema && schema < validating && validating < quota, out);
        assertTrue(out.contains("MutatingAdmissionPolicy default-image-pull-policy"), out);
        assertTrue(out.contains("validating webhook images.image-checker.example.com [undecided]"), out);
        assertTrue(out.contains("undecided: webhooks[0].matchConditions[0] \"skip-node-identities\""), out);
        assertTrue(out.contains("Worst-case added latency: 30 s"), out);
    }

    @Test
    void latencyOverTheBudgetExitsOneAndNamespaceLabelsCount(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("hooks.yaml");
        Files.writeString(file, SLOW);
        RenderCommandTest.Run plain = run("chain", "--resource", "apps/v1/deployments", "--operation", "CREATE",
                "-n", "shop", file.toString());
        assertEquals(ExitCodes.OK, plain.exit(), plain.out() + plain.err());
        assertTrue(plain.out().contains("Worst-case added latency: 30 s = 15 s mutating webhooks in sequence + 15 s reinvocation + 0 s"),
                plain.out());
        assertTrue(plain.out().contains("validating webhook v.example.com (ValidatingWebhookConfiguration/check): "
                + "webhooks[0].namespaceSelector excludes namespace shop"), plain.out());
        RenderCommandTest.Run web = run("chain", "--resource", "apps/v1/deployments", "--operation", "CREATE",
                "-n", "shop", "--namespace-labels", "tier=web", "--output", "json", file.toString());
        assertEquals(ExitCodes.FINDINGS, web.exit(), "35 s is over the APS302 budget");
        JsonNode json = new ObjectMapper().readTree(web.out());
        assertEquals(35, json.path("latency").path("totalSeconds").asInt());
        assertTrue(json.path("latency").path("overBudget").asBoolean());
        assertEquals("NamespaceLifecycle", json.path("steps").get(0).path("name").asText(), web.out());
        assertEquals("MUTATING", json.path("steps").get(0).path("phase").asText(), "NamespaceLifecycle is a mutating plugin");
        assertEquals("reinvocation round", json.path("steps").get(2).path("name").asText(), web.out());
        JsonNode v = json.path("steps").get(json.path("steps").size() - 2);
        assertEquals("v.example.com", v.path("name").asText(), web.out());
        assertEquals(5, v.path("timeoutSeconds").asInt());
        assertEquals("Fail", v.path("failurePolicy").asText());
        assertEquals("MATCHES", v.path("outcome").asText());
    }

    @Test
    void aRequestThatMatchesNothingFromStdin() {
        RenderCommandTest.Run r = RenderCommandTest.runWithStdin(new ByteArrayInputStream(SLOW.getBytes(StandardCharsets.UTF_8)),
                "chain", "--resource", "example.com/v1/widgets", "--operation", "DELETE", "-n", "x", "-");
        assertEquals(ExitCodes.OK, r.exit(), r.err());
        assertTrue(r.out().contains("Mutating phase: no step acts on this request."), r.out());
        assertFalse(r.out().contains("Schema validation"), "no schema validation on DELETE: " + r.out());
        assertTrue(r.out().contains("Not reached:\n  - mutating webhook m.example.com"), r.out());
        assertTrue(r.out().contains("Worst-case added latency: 0 s"), r.out());
    }

    @Test
    void badRequestsAreUsageErrors() {
        RenderCommandTest.Run kind = run("chain", "--resource", "apps/v1/Deployment", "--operation", "CREATE", "config/samples/");
        assertEquals(ExitCodes.USAGE_OR_INPUT, kind.exit());
        assertTrue(kind.err().contains("lower-case plural"), kind.err());
        RenderCommandTest.Run op = run("chain", "--resource", "v1/pods", "--operation", "PATCH", "config/samples/");
        assertEquals(ExitCodes.USAGE_OR_INPUT, op.exit());
        assertTrue(op.err().contains("expected CREATE, UPDATE, DELETE or CONNECT"), op.err());
        RenderCommandTest.Run labels = run("chain", "--resource", "v1/pods", "--operation", "CREATE", "-n", "a",
                "--labels", "novalue", "config/samples/");
        assertEquals(ExitCodes.USAGE_OR_INPUT, labels.exit());
        assertTrue(labels.err().contains("--labels novalue: expected key=value"), labels.err());
        RenderCommandTest.Run missing = run("chain", "--resource", "v1/pods", "--operation", "CREATE", "no/such/dir");
        assertEquals(ExitCodes.USAGE_OR_INPUT, missing.exit());
    }
}

package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code aps review} against in-test webhooks (HTTP and HTTPS with certificates made by keytool): what is sent, how
 * good and bad answers are judged, configuration-driven runs, and exit codes.
 */
class ReviewCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DEPLOYMENT = """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: web
              namespace: team-a
              labels: {app: web}
            spec:
              replicas: 1
            """;

    @TempDir
    static Path dir;
    static TestCertificates.Pair local;
    static TestCertificates.Pair service;
    static TestCertificates.Pair legacy;
    static WebhookTestServer https;
    static WebhookTestServer serviceHttps;
    static WebhookTestServer http;
    static Path deployment;

    @BeforeAll
    static void start() throws Exception {
        local = TestCertificates.create(dir, "local", "dns:localhost,ip:127.0.0.1");
        service = TestCertificates.create(dir, "svc", "dns:hook.webhooks.svc,dns:image-checker.image-checker.svc");
        legacy = TestCertificates.create(dir, "localhost", null);
        https = WebhookTestServer.https(local.keystore());
        serviceHttps = WebhookTestServer.https(service.keystore());
        http = WebhookTestServer.http();
        deployment = dir.resolve("deployment.yaml");
        Files.writeString(deployment, DEPLOYMENT);
    }

    @AfterAll
    static void stop() {
        https.close();
        serviceHttps.close();
        http.close();
    }

    private static RenderCommandTest.Run review(String... args) {
        return RenderCommandTest.run(args(args));
    }

    private static String[] args(String... args) {
        List<String> all = new ArrayList<>(List.of("review"));
        all.addAll(List.of(args));
        return all.toArray(String[]::new);
    }

    @Test
    void allowedOverHttpsSendsWhatTheApiServerSends() {
        RenderCommandTest.Run r = review("--url", https.base() + "/allow", "--ca", local.pem().toString(),
                "--operation", "CREATE", "--user", "alice", "--group", "dev", "--group", "system:authenticated",
                deployment.toString());
        assertEquals(ExitCodes.OK, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("Decision: allowed"), r.out());
        assertTrue(r.out().contains("ok       response present, uid echoed"), r.out());
        JsonNode sent = https.received("/allow");
        assertEquals("admission.k8s.io/v1", sent.path("apiVersion").asText());
        assertEquals("AdmissionReview", sent.path("kind").asText());
        JsonNode q = sent.path("request");
        assertFalse(q.path("uid").asText().isEmpty());
        assertEquals("{\"group\":\"apps\",\"version\":\"v1\",\"kind\":\"Deployment\"}", q.path("kind").toString());
        assertEquals("{\"group\":\"apps\",\"version\":\"v1\",\"resource\":\"deployments\"}", q.path("resource").toString());
        assertEquals(q.path("kind"), q.path("requestKind"));
        assertEquals(q.path("resource"), q.path("requestResource"));
        assertFalse(q.has("subResource"), "omitempty");
        assertEquals("web", q.path("name").asText());
        assertEquals("team-a", q.path("namespace").asText());
        assertEquals("CREATE", q.path("operation").asText());
        assertEquals("{\"username\":\"alice\",\"groups\":[\"dev\",\"system:authenticated\"]}", q.path("userInfo").toString());
        assertEquals("web", q.path("object").path("metadata").path("name").asText());
        assertTrue(q.path("oldObject").isNull(), "a RawExtension without an object is null");
        assertFalse(q.path("dryRun").asBoolean());
        assertEquals("{\"kind\":\"CreateOptions\",\"apiVersion\":\"meta.k8s.io/v1\"}", q.path("options").toString());
        assertEquals("timeout=10s", https.query("/allow"), "client-go passes the deadline as ?timeout=");
    }

    @Test
    void denialShowsTheStatusAndWhatTheClientSees() {
        RenderCommandTest.Run r = review("--url", https.base() + "/deny", "--ca", local.pem().toString(),
                "--operation", "CREATE", deployment.toString());
        assertEquals(ExitCodes.FINDINGS, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("Decision: denied, HTTP 403 Forbidden: pods need a team label"), r.out());
        assertTrue(r.out().contains("the client sees: deployments.apps \"web\" is forbidden: admission webhook "
                + "\"127.0.0.1\" denied the request: pods need a team label"), r.out());
        assertTrue(r.out().contains("Result: denied (0 errors"), r.out());
    }

    @Test
    void warningsAndAuditAnnotationsArePrintedAndABadKeyIsFlagged() throws Exception {
        RenderCommandTest.Run r = review("--url", https.base() + "/warn", "--ca", local.pem().toString(),
                "--operation", "CREATE", "--output", "json", deployment.toString());
        assertEquals(ExitCodes.OK, r.exit(), r.out() + r.err());
        JsonNode out = JSON.readTree(r.out());
        assertEquals("[\"spec.foo is deprecated\",\"use spec.bar\"]", out.path("warnings").toString());
        assertEquals("warn-hook", out.path("auditAnnotations").path("checked-by").asText());
        assertTrue(out.path("findings").toString().contains("audit annotation bad/key is dropped by the API server"), r.out());
        assertEquals("allowed", out.path("summary").path("result").asText());
    }

    @Test
    void aJsonPatchIsAppliedAndShownAsADiffAndTheMutatedObject() throws Exception {
        RenderCommandTest.Run r = review("--url", https.base() + "/mutate", "--ca", local.pem().toString(),
                "--operation", "CREATE", deployment.toString());
        assertEquals(ExitCodes.OK, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("Patch (JSONPatch, 1 operation):\n  {\"op\":\"add\",\"path\":\"/metadata/labels/team\",\"value\":\"a\"}"), r.out());
        assertTrue(r.out().contains("  --- object\n  +++ mutated\n"), r.out());
        assertTrue(r.out().contains("  +    team: a\n"), r.out());
        assertTrue(r.out().contains("Mutated object:"), r.out());
        RenderCommandTest.Run j = review("--url", https.base() + "/mutate", "--ca", local.pem().toString(),
                "--operation", "CREATE", "-o", "json", deployment.toString());
        JsonNode out = JSON.readTree(j.out());
        assertEquals("a", out.path("mutatedObject").path("metadata").path("labels").path("team").asText());
        assertEquals("web", out.path("mutatedObject").path("metadata").path("labels").path("app").asText());
    }

    @Test
    void badWebhooksAreContractViolations() {
        String[][] cases = {
                {"/wrong-uid", "response.uid: expected response.uid=\""},
                {"/no-response", "response: webhook response was absent"},
                {"/not-json", "body: the response body is not JSON"},
                {"/patch-without-type", "webhook returned response.patch but not response.patchType"},
                {"/patch-does-not-apply", "the patch does not apply to the object: error in remove for path: '/spec/missing': Unable to remove nonexistent key: missing: missing value"},
                {"/error", "http.status: HTTP 500: the API server treats any status outside 200-206 as a failed call"},
                {"/wrong-version", "expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1beta1, Kind=AdmissionReview"},
        };
        for (String[] c : cases) {
            RenderCommandTest.Run r = review("--url", http.base() + c[0], "--operation", "CREATE", deployment.toString());
            assertEquals(ExitCodes.FINDINGS, r.exit(), c[0] + ": " + r.out() + r.err());
            assertTrue(r.out().contains(c[1]), c[0] + ": " + r.out());
            assertTrue(r.out().contains("with failurePolicy Fail (the default) it refuses the request")
                    || r.out().contains("the API server refuses the request (500)"), c[0] + ": " + r.out());
            assertTrue(r.out().contains("clientConfig.url: the URL's scheme is http"), "plain HTTP is flagged: " + r.out());
        }
        RenderCommandTest.Run text = review("--url", http.base() + "/not-json", "--operation", "CREATE", deployment.toString());
        assertTrue(text.out().contains("warning  http.contentType: Content-Type is \"text/plain\""), text.out());
    }

    @Test
    void aSlowWebhookTimesOut() {
        long start = System.nanoTime();
        RenderCommandTest.Run r = review("--url", http.base() + "/slow", "--timeout", "1", "--operation", "CREATE",
                deployment.toString());
        assertEquals(ExitCodes.FINDINGS, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("timeout: no answer within timeoutSeconds 1 s"), r.out());
        assertTrue((System.nanoTime() - start) / 1_000_000 < 2400, "gave up at the timeout, not after the answer");
    }

    @Test
    void aValidatingWebhookMayNotPatch() {
        RenderCommandTest.Run r = review("--url", http.base() + "/mutate", "--type", "validating", "--operation", "CREATE",
                deployment.toString());
        assertEquals(ExitCodes.FINDINGS, r.exit(), r.out());
        assertTrue(r.out().contains("validating webhook may not return response.patch"), r.out());
    }

    @Test
    void certificatesAreCheckedAsTheApiServerChecksThem() {
        RenderCommandTest.Run unknownCa = review("--url", https.base() + "/allow", "--operation", "CREATE", deployment.toString());
        assertEquals(ExitCodes.FINDINGS, unknownCa.exit(), unknownCa.out());
        assertTrue(unknownCa.out().contains("x509: certificate signed by unknown authority"), unknownCa.out());
        RenderCommandTest.Run wrongHost = review("--url", serviceHttps.base() + "/allow", "--ca", service.pem().toString(),
                "--operation", "CREATE", deployment.toString());
        assertEquals(ExitCodes.FINDINGS, wrongHost.exit(), wrongHost.out());
        assertTrue(wrongHost.out().contains("x509: cannot validate certificate for 127.0.0.1 because it doesn't contain any IP SANs"),
                wrongHost.out());
    }

    /** Java's HTTPS check would accept a name in the Common Name only; Go (the API server) does not. */
    @Test
    void aCommonNameWithoutSubjectAltNamesIsRefusedAsGoRefusesIt() throws Exception {
        try (WebhookTestServer cnOnly = WebhookTestServer.https(legacy.keystore())) {
            RenderCommandTest.Run r = review("--url", "https://localhost:" + cnOnly.port() + "/allow", "--ca",
                    legacy.pem().toString(), "--operation", "CREATE", deployment.toString());
            assertEquals(ExitCodes.FINDINGS, r.exit(), r.out() + r.err());
            assertTrue(r.out().contains("x509: certificate relies on legacy Common Name field, use SANs instead"), r.out());
            assertTrue(r.out().contains("with failurePolicy Fail (the default) it refuses the request"), r.out());
            // once in the check, once in the API server's own words; not again for each failurePolicy
            assertEquals(2, occurrences(r.out(), "certificate relies on legacy Common Name field"), r.out());
        }
    }

    /** An AdmissionPolicySet as --config: its rendered webhook, namespace exclusions and matchConditions. */
    @Test
    void anAdmissionPolicySetIsAConfigurationToo() throws Exception {
        Path pod = dir.resolve("pod.yaml");
        Files.writeString(pod, """
                apiVersion: v1
                kind: Pod
                metadata: {name: p}
                spec:
                  containers: [{name: c, image: nginx}]
                """);
        String set = "examples/image-checker/image-checker-webhook.yaml";
        String hook = "images.image-checker.example.com";
        RenderCommandTest.Run own = review("--config", set, "--webhook", hook, "--url", serviceHttps.base(),
                "--ca", service.pem().toString(), "--operation", "CREATE", "-n", "image-checker", pod.toString());
        assertEquals(ExitCodes.FINDINGS, own.exit(), own.out() + own.err());
        assertTrue(own.out().contains("namespaceSelector excludes namespace image-checker"), own.out());
        assertTrue(own.out().contains("Sent: nothing"), own.out());
        serviceHttps.on("/validate-images", r -> WebhookTestServer.Reply.json(WebhookTestServer.answer(r, true)));
        RenderCommandTest.Run tenant = review("--config", set, "--webhook", hook, "--url", serviceHttps.base(),
                "--ca", service.pem().toString(), "--operation", "CREATE", "-n", "team-a", pod.toString());
        assertTrue(tenant.out().contains("Sent: POST " + serviceHttps.base() + "/validate-images?timeout=5s"), tenant.out());
        assertTrue(tenant.out().contains("skip-node-identities"), "the matchCondition left open is named: " + tenant.out());
        assertEquals(ExitCodes.OK, tenant.exit(), tenant.out() + tenant.err());
        assertTrue(tenant.out().contains("Decision: allowed"), tenant.out());
        assertEquals("team-a", serviceHttps.received("/validate-images").path("request").path("namespace").asText());
    }

    @Test
    void unreachableAndUsageErrorsExitTwo() throws Exception {
        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        RenderCommandTest.Run r = review("--url", "https://127.0.0.1:" + closed + "/", "--operation", "CREATE", deployment.toString());
        assertEquals(ExitCodes.USAGE_OR_INPUT, r.exit(), r.out() + r.err());
        String refused = "cannot connect to 127.0.0.1:" + closed + ": connection refused";
        assertEquals(1, occurrences(r.out() + r.err(), refused), "said once: " + r.out() + r.err());
        assertTrue(r.out().contains("Not reached: " + refused), r.out());
        RenderCommandTest.Run json = review("--url", "https://127.0.0.1:" + closed + "/", "--operation", "CREATE",
                "-o", "json", deployment.toString());
        assertEquals(ExitCodes.USAGE_OR_INPUT, json.exit(), json.out() + json.err());
        assertTrue(json.err().contains(refused), "beside the JSON document, for the person who ran it: " + json.err());
        RenderCommandTest.Run noOld = review("--url", http.base() + "/allow", "--operation", "UPDATE", deployment.toString());
        assertEquals(ExitCodes.USAGE_OR_INPUT, noOld.exit());
        assertTrue(noOld.err().contains("UPDATE sends the existing object too: give it with --old FILE"), noOld.err());
        RenderCommandTest.Run noTarget = review("--operation", "CREATE", deployment.toString());
        assertEquals(ExitCodes.USAGE_OR_INPUT, noTarget.exit());
        assertTrue(noTarget.err().contains("give the webhook: --url URL, or --config FILE --webhook NAME"), noTarget.err());
    }

    @Test
    void deleteSendsTheObjectAsOldObjectAndAPatchIsRefused() {
        RenderCommandTest.Run r = RenderCommandTest.runWithStdin(new ByteArrayInputStream(DEPLOYMENT.getBytes(StandardCharsets.UTF_8)),
                args("--url", http.base() + "/mutate", "--operation", "DELETE", "-"));
        assertEquals(ExitCodes.FINDINGS, r.exit(), r.out() + r.err());
        JsonNode q = http.received("/mutate").path("request");
        assertTrue(q.path("object").isNull());
        assertEquals("web", q.path("oldObject").path("metadata").path("name").asText());
        assertEquals("DeleteOptions", q.path("options").path("kind").asText());
        assertTrue(r.out().contains("attempted to modify the object, which is not supported for this operation"), r.out());
    }

    private static Path config(String name, String text) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    private static String caBundle(Path pem) throws Exception {
        return Base64.getEncoder().encodeToString(Files.readAllBytes(pem));
    }

    @Test
    void aServiceReferenceNeedsAForwardAndIsVerifiedForTheServiceName() throws Exception {
        Path file = config("service.yaml", """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: checks}
                webhooks:
                  - name: deployments.example.com
                    rules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}]
                    clientConfig:
                      service: {namespace: webhooks, name: hook, path: /allow, port: 443}
                      caBundle: %s
                    timeoutSeconds: 5
                    sideEffects: None
                    admissionReviewVersions: [v1]
                """.formatted(caBundle(service.pem())));
        RenderCommandTest.Run noUrl = review("--config", file.toString(), "--webhook", "deployments.example.com",
                "--operation", "CREATE", deployment.toString());
        assertEquals(ExitCodes.USAGE_OR_INPUT, noUrl.exit(), noUrl.out() + noUrl.err());
        assertTrue(noUrl.err().contains("is reached through service webhooks/hook (port 443), which only resolves inside the cluster"), noUrl.err());
        assertTrue(noUrl.err().contains("kubectl -n webhooks port-forward svc/hook 8443:443"), noUrl.err());
        RenderCommandTest.Run forwarded = review("--config", file.toString(), "--webhook", "deployments.example.com",
                "--url", serviceHttps.base(), "--operation", "CREATE", deployment.toString());
        assertEquals(ExitCodes.OK, forwarded.exit(), forwarded.out() + forwarded.err());
        assertTrue(forwarded.out().contains("Decision: allowed"), forwarded.out());
        assertEquals("timeout=5s", serviceHttps.query("/allow"), "timeoutSeconds from the configuration");
    }

    @Test
    void aRequestTheWebhookDoesNotMatchIsNotSentUnlessAsked() throws Exception {
        Path file = config("pods-only.yaml", """
                apiVersion: admissionregistration.k8s.io/v1
                kind: MutatingWebhookConfiguration
                metadata: {name: pods}
                webhooks:
                  - name: pods.example.com
                    rules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]
                    clientConfig: {url: "%s/allow", caBundle: %s}
                    sideEffects: None
                    admissionReviewVersions: [v1]
                """.formatted(https.base(), caBundle(local.pem())));
        RenderCommandTest.Run r = review("--config", file.toString(), "--webhook", "pods.example.com", "--operation",
                "CREATE", deployment.toString());
        assertEquals(ExitCodes.FINDINGS, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("Sent: nothing"), r.out());
        assertTrue(r.out().contains("match: the API server would not call webhook pods.example.com (MutatingWebhookConfiguration/pods) "
                + "for CREATE apps/v1/deployments"), r.out());
        RenderCommandTest.Run anyway = review("--config", file.toString(), "--webhook", "pods.example.com", "--operation",
                "CREATE", "--send-unmatched", deployment.toString());
        assertEquals(ExitCodes.OK, anyway.exit(), anyway.out() + anyway.err());
        assertTrue(anyway.out().contains("sent anyway (--send-unmatched)"), anyway.out());
        RenderCommandTest.Run unknown = review("--config", file.toString(), "--webhook", "nope.example.com", "--operation",
                "CREATE", deployment.toString());
        assertEquals(ExitCodes.USAGE_OR_INPUT, unknown.exit());
        assertTrue(unknown.err().contains("no webhook named nope.example.com in --config; it has: pods/pods.example.com"), unknown.err());
    }

    @Test
    void dryRunsFollowSideEffects() throws Exception {
        String template = """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: dry}
                webhooks:
                  - name: dry.example.com
                    rules: [{apiGroups: ["*"], apiVersions: ["*"], operations: ["*"], resources: ["*"]}]
                    clientConfig: {url: "%s/allow", caBundle: %s}
                    sideEffects: %s
                    admissionReviewVersions: [v1]
                """;
        Path some = config("some.yaml", template.formatted(https.base(), caBundle(local.pem()), "Some"));
        RenderCommandTest.Run refused = review("--config", some.toString(), "--webhook", "dry.example.com",
                "--operation", "CREATE", "--dry-run", deployment.toString());
        assertEquals(ExitCodes.FINDINGS, refused.exit(), refused.out());
        assertTrue(refused.out().contains("admission webhook \"dry.example.com\" does not support dry run"), refused.out());
        assertTrue(refused.out().contains("Sent: nothing"), refused.out());
        Path none = config("none.yaml", template.formatted(https.base(), caBundle(local.pem()), "None"));
        RenderCommandTest.Run sent = review("--config", none.toString(), "--webhook", "dry.example.com",
                "--operation", "CREATE", "--dry-run", deployment.toString());
        assertEquals(ExitCodes.OK, sent.exit(), sent.out() + sent.err());
        JsonNode q = https.received("/allow").path("request");
        assertTrue(q.path("dryRun").asBoolean());
        assertEquals("[\"All\"]", q.path("options").path("dryRun").toString());
    }

    @Test
    void aConfigurationThatListsOnlyV1beta1GetsAV1beta1Review() throws Exception {
        Path file = config("beta.yaml", """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: beta}
                webhooks:
                  - name: beta.example.com
                    rules: [{apiGroups: [apps], apiVersions: [v1], operations: [UPDATE], resources: [deployments]}]
                    clientConfig: {url: "%s/wrong-uid", caBundle: %s}
                    sideEffects: None
                    admissionReviewVersions: [v1beta1, v1]
                """.formatted(https.base(), caBundle(local.pem())));
        Path old = dir.resolve("old.yaml");
        Files.writeString(old, DEPLOYMENT.replace("replicas: 1", "replicas: 2"));
        RenderCommandTest.Run r = review("--config", file.toString(), "--webhook", "beta.example.com", "--operation",
                "UPDATE", "--old", old.toString(), deployment.toString());
        JsonNode sent = https.received("/wrong-uid");
        assertNotNull(sent);
        assertEquals("admission.k8s.io/v1beta1", sent.path("apiVersion").asText(), "the first version the API server knows");
        assertEquals(2, sent.path("request").path("oldObject").path("spec").path("replicas").asInt());
        assertEquals("UpdateOptions", sent.path("request").path("options").path("kind").asText());
        assertEquals(ExitCodes.OK, r.exit(), "v1beta1 does not verify the uid: " + r.out());
        assertTrue(r.out().contains("warning  response.uid"), r.out());
    }

    /**
     * cert-manager's two configurations are both named cert-manager-webhook, with a webhook of the same name: the
     * message lists one --webhook value per webhook, and each, pasted back, reaches its own webhook. (#22 item 6)
     */
    @Test
    void twoConfigurationsOfTheSameNameArePickedByKind() throws Exception {
        String hook = """
                apiVersion: admissionregistration.k8s.io/v1
                kind: %s
                metadata: {name: cert-manager-webhook}
                webhooks:
                  - name: webhook.cert-manager.io
                    rules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]
                    clientConfig: {url: "%s/allow", caBundle: %s}
                    sideEffects: None
                    admissionReviewVersions: [v1]
                """;
        Path file = config("cert-manager.yaml", hook.formatted("MutatingWebhookConfiguration", https.base(), caBundle(local.pem()))
                + "---\n" + hook.formatted("ValidatingWebhookConfiguration", https.base(), caBundle(local.pem())));
        List<String> suggested = new ArrayList<>();
        for (String selector : List.of("webhook.cert-manager.io", "cert-manager-webhook/webhook.cert-manager.io")) {
            RenderCommandTest.Run ambiguous = review("--config", file.toString(), "--webhook", selector, "--operation",
                    "CREATE", deployment.toString());
            assertEquals(ExitCodes.USAGE_OR_INPUT, ambiguous.exit(), ambiguous.out() + ambiguous.err());
            String err = ambiguous.err().strip();
            String marker = "say which with --webhook: ";
            assertTrue(err.contains("webhook name " + selector + " is used 2 times; " + marker), err);
            suggested = List.of(err.substring(err.indexOf(marker) + marker.length()).split(", "));
        }
        assertEquals(List.of("MutatingWebhookConfiguration/cert-manager-webhook/webhook.cert-manager.io",
                "ValidatingWebhookConfiguration/cert-manager-webhook/webhook.cert-manager.io"), suggested);
        for (String selector : suggested) {
            String kind = selector.substring(0, selector.indexOf('/'));
            RenderCommandTest.Run picked = review("--config", file.toString(), "--webhook", selector, "--operation",
                    "CREATE", deployment.toString());
            assertEquals(ExitCodes.OK, picked.exit(), selector + ": " + picked.out() + picked.err());
            assertTrue(picked.out().contains("Webhook: webhook.cert-manager.io (" + kind + "/cert-manager-webhook,"), picked.out());
        }
        // The Kind/name that messages print names a configuration; with one webhook, that is enough.
        RenderCommandTest.Run byConfiguration = review("--config", file.toString(), "--webhook",
                "validatingwebhookconfiguration/cert-manager-webhook", "--operation", "CREATE", deployment.toString());
        assertEquals(ExitCodes.OK, byConfiguration.exit(), byConfiguration.out() + byConfiguration.err());
        assertTrue(byConfiguration.out().contains("(ValidatingWebhookConfiguration/cert-manager-webhook,"), byConfiguration.out());
        RenderCommandTest.Run badKind = review("--config", file.toString(), "--webhook",
                "Webhook/cert-manager-webhook/webhook.cert-manager.io", "--operation", "CREATE", deployment.toString());
        assertEquals(ExitCodes.USAGE_OR_INPUT, badKind.exit());
        assertTrue(badKind.err().contains("Webhook is not MutatingWebhookConfiguration or ValidatingWebhookConfiguration"),
                badKind.err());
    }

    static int occurrences(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + part.length())) {
            n++;
        }
        return n;
    }
}

package dev.policyset.aps.cli;

import dev.policyset.aps.core.cel.KubernetesCelChecker;
import dev.policyset.aps.core.model.ClusterView;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.plan.Planner;
import dev.policyset.aps.core.plan.SetAdmission;
import dev.policyset.aps.operator.webhook.AdmissionReviewHandler;
import dev.policyset.aps.operator.webhook.ReviewObserver;
import dev.policyset.aps.operator.webhook.ServingCertificate;
import dev.policyset.aps.operator.webhook.TestCertificates;
import dev.policyset.aps.operator.webhook.WebhookServer;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code aps review} against the operator's own validating webhook: the real {@link AdmissionReviewHandler} behind the
 * real {@link WebhookServer} over HTTPS (no Quarkus), configured by the shipped
 * {@code config/webhook/validating_webhook.yaml} with {@code --url} in place of the service, as a
 * port-forward is used. The certificate names the service (as cert-manager's does) and localhost (for the warm-up), and
 * the runs connect to 127.0.0.1, so the name checked is the one the API server verifies, not the address connected to. What the runs print is kept in {@code target/review-own-webhook/}:
 * docs/review.md and docs/install.md show it.
 */
class ReviewOwnWebhookTest {
    static final String CONFIG = "config/webhook/validating_webhook.yaml";
    static final String HOOK = "validate.admissionpolicysets.admission.policyset.dev";
    static final String SERVICE_NAME = "admission-policy-operator-webhook.system.svc";
    static final Path CAPTURED = Path.of("target/review-own-webhook");

    @TempDir
    static Path dir;
    static Vertx vertx;
    static WebhookServer server;
    static Path ca;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        TestCertificates.Pair pair = TestCertificates.generate(dir.resolve("keys"), "admission-policy-operator-webhook",
                "EC", "dns:" + SERVICE_NAME + ",dns:localhost");
        Path certs = dir.resolve("certs");
        pair.writeTo(certs, false);
        ca = certs.resolve("tls.crt");
        AdmissionReviewHandler handler = new AdmissionReviewHandler(new SetAdmission(new Planner(new KubernetesCelChecker())),
                () -> ClusterView.of(KubeVersion.NEWEST, Optional.of("v1beta1"), List.of()));
        server = WebhookServer.start(vertx, "127.0.0.1", 0,
                        ServingCertificate.read(certs.resolve("tls.crt"), certs.resolve("tls.key"), vertx),
                        Duration.ofSeconds(10), handler, ReviewObserver.NONE)
                .toCompletionStage().toCompletableFuture().join();
        Files.createDirectories(CAPTURED);
        // One review before the runs, with a long timeout: the first judging loads the CEL environments (seconds on a
        // busy machine), which the configuration's 5 s timeout is not meant to measure.
        RenderCommandTest.Run warm = RenderCommandTest.run("review", "--url", "https://localhost:" + server.port()
                + WebhookServer.PATH, "--ca", ca.toString(), "--timeout", "30", "--operation", "CREATE",
                "config/samples/baseline-security.yaml");
        assertEquals(ExitCodes.OK, warm.exit(), warm.out() + warm.err());
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    private static RenderCommandTest.Run review(String name, String set, String... more) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("review", "--config", CONFIG, "--webhook", HOOK,
                "--url", "https://127.0.0.1:" + server.port(), "--ca", ca.toString(), "--operation", "CREATE"));
        args.addAll(List.of(more));
        args.add(set);
        RenderCommandTest.Run r = RenderCommandTest.run(args.toArray(String[]::new));
        Files.writeString(CAPTURED.resolve(name + ".txt"), "exit " + r.exit() + "\n" + r.out() + r.err());
        return r;
    }

    @Test
    void aGoodSetIsAllowedAndTheWireContractHolds() throws Exception {
        RenderCommandTest.Run r = review("baseline-security", "config/samples/baseline-security.yaml");
        assertEquals(ExitCodes.OK, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("Sent: POST https://127.0.0.1:" + server.port() + WebhookServer.PATH + "?timeout=5s"),
                "the path comes from the configuration's service: " + r.out());
        assertTrue(r.out().contains("ok       response present, uid echoed"), r.out());
        assertTrue(r.out().contains("Decision: allowed"), r.out());
        assertTrue(r.out().contains("Result: allowed (0 errors, 0 warnings)"), "no contract finding: " + r.out());
        assertTrue(r.err().isEmpty(), r.err());
    }

    @Test
    void anUnsafeSetIsDeniedWithItsFindingsListed() throws Exception {
        RenderCommandTest.Run r = review("unsafe-fail-closed-webhook", "config/samples/unsafe-fail-closed-webhook.yaml");
        assertEquals(ExitCodes.FINDINGS, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("ok       response present, uid echoed"), r.out());
        assertTrue(r.out().contains("Decision: denied, HTTP 403 Forbidden: AdmissionPolicySet \"unsafe-catch-all\" has "), r.out());
        assertTrue(r.out().contains("the client sees: admissionpolicysets.admission.policyset.dev \"unsafe-catch-all\" is "
                + "forbidden: admission webhook \"" + HOOK + "\" denied the request: "), r.out());
        assertTrue(r.out().contains("has 3 error findings (the operator would not apply it):\n- APS201 "), r.out());
        assertTrue(r.out().contains("\n- APS202 ") && r.out().contains("\n- APS205 "), "the findings are listed: " + r.out());
        assertTrue(r.out().contains("Result: denied (0 errors, 0 warnings)"), "no contract finding: " + r.out());
    }

    @Test
    void aCelExpressionThatDoesNotCompileIsDeniedWithTheCompilerMessage() throws Exception {
        Path set = dir.resolve("broken-cel.yaml");
        Files.writeString(set, """
                apiVersion: admission.policyset.dev/v1alpha1
                kind: AdmissionPolicySet
                metadata:
                  name: broken-cel
                spec:
                  validatingPolicies:
                    - name: replicas-limit
                      policy:
                        matchConstraints:
                          resourceRules:
                            - apiGroups: [apps]
                              apiVersions: [v1]
                              operations: [CREATE, UPDATE]
                              resources: [deployments]
                        validations:
                          - expression: "object.spec.replicas <= 5 &&"
                """);
        RenderCommandTest.Run r = review("broken-cel", set.toString());
        assertEquals(ExitCodes.FINDINGS, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("Decision: denied, HTTP 403 Forbidden: AdmissionPolicySet \"broken-cel\" has "), r.out());
        assertTrue(r.out().contains("compilation failed: ERROR: <input>:1:29: mismatched input '<EOF>'"), r.out());
        assertTrue(r.out().contains("Result: denied (0 errors, 0 warnings)"), "no contract finding: " + r.out());
    }
}

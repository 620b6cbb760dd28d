package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.evaluate.suite.ServerReplay;
import dev.policyset.aps.core.yaml.Yaml;
import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.RealApiServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code aps test --server} against a real kube-apiserver (issue #19 item 6): the cases of a test file sent as dry
 * runs by impersonation, the server's verdicts compared with the expectations and with the offline ones, and
 * nothing left behind. The fixture reads the user, namespace labels, a param, an old object and warnings; one case
 * differs by design (offline the request is no dry run, on the server it always is).
 */
@RealApiServer
class ServerTestRealServerTest {
    private static final String FIXTURE = "src/test/resources/aps-test-server/";

    /** kubernetes.* system properties an earlier @QuarkusTest in this JVM left (the operator's service account). */
    private final Map<String, String> hidden = new TreeMap<>();

    @AfterEach
    void forgetKubeconfig() {
        System.clearProperty("kubeconfig");
        hidden.forEach(System::setProperty);
        hidden.clear();
    }

    @Test
    void theServerAgreesWithEveryOfflineVerdictButTheDryRunOneAndNothingIsLeft(KubeControlPlane plane) throws Exception {
        useAdminKubeconfig(plane);
        long start = System.nanoTime();
        RenderCommandTest.Run run = RenderCommandTest.run("test", "--server", "-o", "json", FIXTURE);
        long ms = (System.nanoTime() - start) / 1_000_000;
        JsonNode report = Yaml.mapper().readTree(run.out());
        JsonNode cases = report.path("files").path(0).path("cases");

        Map<String, Boolean> serverPassed = new TreeMap<>();
        Map<String, Boolean> agrees = new TreeMap<>();
        for (JsonNode c : cases) {
            serverPassed.put(c.path("name").asText(), c.path("passed").asBoolean());
            agrees.put(c.path("name").asText(), c.path("offline").path("agrees").asBoolean());
            assertTrue(c.path("offline").path("passed").asBoolean(), "every case passes offline: " + c);
        }
        System.out.printf("aps test --server: %d cases in %d ms; server passed %s%n", cases.size(), ms, serverPassed);
        assertEquals(7, cases.size(), run.out() + run.err());
        String dryRunCase = "a secret is admitted offline, where the request is no dry run";
        for (String name : serverPassed.keySet()) {
            boolean expected = !name.equals(dryRunCase);
            assertEquals(expected, serverPassed.get(name), name + " on the server: " + run.out());
            assertEquals(expected, agrees.get(name), name + " offline vs server: " + run.out());
        }
        JsonNode divergent = find(cases, dryRunCase);
        assertTrue(divergent.path("differences").toString().contains("dry runs of secrets are refused"), divergent.toString());
        assertTrue(notes(divergent).stream().anyMatch(n -> n.startsWith("offline: PASS; the server answered otherwise")
                && n.contains("warnings")), divergent.toString());
        assertEquals(ExitCodes.FINDINGS, run.exit(), "a case failed on the server: exit 1");

        // names restored: the exact message the case expects names the test's policy and binding, not the run's
        assertTrue(find(cases, "the param's limit is read from the param object").path("passed").asBoolean());

        for (String resource : List.of("validatingadmissionpolicies", "validatingadmissionpolicybindings")) {
            List<String> left = plane.admin().genericKubernetesResources("admissionregistration.k8s.io/v1",
                            resource.equals("validatingadmissionpolicies") ? "ValidatingAdmissionPolicy" : "ValidatingAdmissionPolicyBinding")
                    .withLabel(ServerReplay.RUN_LABEL).list().getItems().stream().map(o -> o.getMetadata().getName()).toList();
            assertEquals(List.of(), left, "the run removes its " + resource);
        }
        assertTrue(plane.admin().configMaps().inNamespace("aps-server-test").withName("grows").get() == null,
                "the update's old object is removed");
        for (String ns : List.of("aps-server-test", "aps-server-off")) {
            io.fabric8.kubernetes.api.model.Namespace left = plane.admin().namespaces().withName(ns).get();
            assertTrue(left == null || left.getMetadata().getDeletionTimestamp() != null, "the run's namespace " + ns + " is deleted");
        }
    }

    /**
     * The shipped samples' tests on the server (validating and mutating policies): each runs (its setup is
     * accepted, every case gets the server's answer) and the server answers every case as the offline run does.
     */
    @Test
    void theSamplesTestsRunOnTheServer(KubeControlPlane plane) throws Exception {
        useAdminKubeconfig(plane);
        RenderCommandTest.Run run = RenderCommandTest.run("test", "--server", "-o", "json", "config/samples/tests/");
        JsonNode report = Yaml.mapper().readTree(run.out());
        int cases = 0;
        int agree = 0;
        for (JsonNode f : report.path("files")) {
            for (JsonNode c : f.path("cases")) {
                cases++;
                assertFalse(c.path("differences").toString().contains("setup on the server"), c.toString());
                assertTrue(c.has("outcome"), "the server answered: " + c);
                if (c.path("offline").path("agrees").asBoolean()) {
                    agree++;
                } else {
                    System.out.println("aps test --server samples: differs: " + c.path("name").asText() + ": " + notes(c));
                }
            }
        }
        System.out.printf("aps test --server samples: %d cases, %d answered as offline%n", cases, agree);
        assertTrue(cases >= 11, run.out());
        // the samples' objects are complete (a Deployment with selector and template): the server validates them too
        assertEquals(cases, agree, "every sample case answered by the server as offline");
        assertEquals(ExitCodes.OK, run.exit(), run.out());
    }

    /**
     * The advice printed when the server never evaluates the run's policies, pasted into a shell with the built
     * kubectl: a mutating webhook that fails closed (only for the probe's user) answers the probe before any policy,
     * and the advised command runs and names it.
     */
    @Test
    void theLoadTimeoutAdviceRunsWhenPastedAndShowsWhatAnsweredFirst(KubeControlPlane plane) throws Exception {
        String blocker = "aps-test-blocks-the-probe";
        var webhook = new io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfigurationBuilder()
                .withNewMetadata().withName(blocker).endMetadata()
                .addNewWebhook().withName("blocks.aps.example.com").withAdmissionReviewVersions("v1").withSideEffects("None")
                .withFailurePolicy("Fail").withTimeoutSeconds(2)
                .withNewClientConfig().withUrl("https://127.0.0.1:" + KubeControlPlane.freePort() + "/mutate").endClientConfig()
                .addNewRule().withApiGroups("").withApiVersions("v1").withOperations("CREATE").withResources("configmaps").endRule()
                .addNewMatchCondition().withName("probe-only")
                .withExpression("request.userInfo.username == '" + ServerReplay.PROBE_USER + "'").endMatchCondition()
                .endWebhook().build();
        plane.admin().admissionRegistration().v1().mutatingWebhookConfigurations().resource(webhook).create();
        try (ServerTestRun run = ServerTestRun.connect(plane.configFor("aps-test-runner", List.of("system:masters")), false)
                .withLoadTimeout(java.time.Duration.ofSeconds(8))) {
            TestRun.Result offline = TestRun.run(List.of(Path.of(FIXTURE)), java.io.InputStream.nullInputStream(),
                    dev.policyset.aps.core.model.KubeVersion.parse(plane.version()));
            TestRun.Result judged = TestRun.onServer(offline, run::run);
            String problem = judged.files().get(0).cases().get(0).differences().get(0);
            assertTrue(problem.contains("did not start evaluating") && problem.contains("failed calling webhook"), problem);
            String advice = problem.substring(problem.indexOf("kubectl get"));

            ProcessBuilder pb = new ProcessBuilder("sh", "-c", advice).redirectErrorStream(true);
            Path kubectlDir = dev.policyset.aps.testing.kube.KubeBinaries.dir(plane.version());
            pb.environment().put("PATH", kubectlDir + java.io.File.pathSeparator + System.getenv("PATH"));
            pb.environment().put("KUBECONFIG", plane.kubeconfigFor("aps-test-reader", List.of("system:masters")).toString());
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "kubectl finished");
            assertEquals(0, p.exitValue(), advice + "\n" + out);
            assertTrue(out.contains("mutatingwebhookconfiguration.admissionregistration.k8s.io/" + blocker), advice + "\n" + out);
        } finally {
            plane.admin().admissionRegistration().v1().mutatingWebhookConfigurations().withName(blocker).delete();
        }
    }

    /**
     * The ClusterRole docs/testing.md prints is all a runner needs: bound to a user of no group, the fixture runs as
     * with system:masters (6 of 7 cases pass on the server). The run also leaves nothing behind, its param-informer
     * anchor included, and warns exactly when its bindings were the last of the ConfigMap paramKind on the server.
     */
    @Test
    void theDocumentedRbacIsEnoughAndTheParamInformerWarningIsTrue(KubeControlPlane plane) throws Exception {
        String doc = java.nio.file.Files.readString(Path.of("docs/testing.md"));
        int from = doc.indexOf("```yaml", doc.indexOf("RBAC for the user of the context"));
        String yaml = doc.substring(doc.indexOf('\n', from) + 1, doc.indexOf("```", from + 7));
        var role = Yaml.mapper().treeToValue(Yaml.parse("docs/testing.md", yaml).get(0).content(),
                io.fabric8.kubernetes.api.model.rbac.ClusterRole.class);
        // the doc's "and the kinds of your params and old objects": the fixture's are ConfigMaps and Namespaces
        role.getMetadata().setName("aps-test-server-documented");
        plane.admin().rbac().clusterRoles().resource(role).create();
        String user = "aps-rbac-runner";
        plane.admin().rbac().clusterRoleBindings().resource(new io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder()
                .withNewMetadata().withName("aps-test-server-documented").endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "aps-test-server-documented")
                .addNewSubject().withApiGroup("rbac.authorization.k8s.io").withKind("User").withName(user).endSubject()
                .build()).create();
        try {
            for (String key : List.copyOf(System.getProperties().stringPropertyNames())) {
                if (key.startsWith("kubernetes.")) {
                    hidden.put(key, System.getProperty(key));
                    System.clearProperty(key);
                }
            }
            System.setProperty("kubeconfig", plane.kubeconfigFor(user, List.of()).toString());
            RenderCommandTest.Run run = RenderCommandTest.run("test", "--server", "-o", "json", FIXTURE);
            JsonNode cases = Yaml.mapper().readTree(run.out()).path("files").path(0).path("cases");
            long passed = 0;
            for (JsonNode c : cases) {
                assertFalse(c.path("differences").toString().contains("setup on the server"), c.toString());
                passed += c.path("passed").asBoolean() ? 1 : 0;
            }
            assertEquals(7, cases.size(), run.out() + run.err());
            assertEquals(6, passed, "as with system:masters: " + run.out() + run.err());

            assertEquals(List.of(), plane.admin().genericKubernetesResources("admissionregistration.k8s.io/v1",
                            "ValidatingAdmissionPolicy").withLabel(ServerReplay.RUN_LABEL).list().getItems().stream()
                    .map(o -> o.getMetadata().getName()).toList(), "the run removes its policies, the anchor too");
            boolean othersKeepIt = otherConfigMapParamBindings(plane);
            String warning = "the run's bindings were the last on this cluster to use paramKind v1/ConfigMap";
            assertEquals(!othersKeepIt, run.err().contains(warning), "other bindings keep the informer: " + othersKeepIt
                    + "; stderr: " + run.err());
        } finally {
            plane.admin().rbac().clusterRoleBindings().withName("aps-test-server-documented").delete();
            plane.admin().rbac().clusterRoles().withName("aps-test-server-documented").delete();
        }
    }

    /** Whether a binding not of an aps test run binds a policy whose paramKind is v1/ConfigMap. */
    private static boolean otherConfigMapParamBindings(KubeControlPlane plane) {
        var policies = plane.admin().admissionRegistration().v1().validatingAdmissionPolicies().list().getItems();
        return plane.admin().admissionRegistration().v1().validatingAdmissionPolicyBindings().list().getItems().stream()
                .filter(b -> b.getMetadata().getLabels() == null || !b.getMetadata().getLabels().containsKey(ServerReplay.RUN_LABEL))
                .anyMatch(b -> policies.stream().anyMatch(p -> p.getMetadata().getName().equals(b.getSpec().getPolicyName())
                        && p.getSpec().getParamKind() != null && "v1".equals(p.getSpec().getParamKind().getApiVersion())
                        && "ConfigMap".equals(p.getSpec().getParamKind().getKind())));
    }

    @Test
    void aContextThatDoesNotLookThrowawayIsRefusedUnlessAllowed() {
        assertTrue(ServerTestRun.looksDisposable("aps-test", "https://127.0.0.1:6443"));
        assertTrue(ServerTestRun.looksDisposable("kind-dev", "https://10.0.0.5:6443"));
        assertFalse(ServerTestRun.looksDisposable("prod-eu", "https://api.prod.example.com:6443"));
    }

    @Test
    void aMissingContextIsAUsageErrorThatNamesTheContexts(KubeControlPlane plane) {
        useAdminKubeconfig(plane);
        RenderCommandTest.Run run = RenderCommandTest.run("test", "--context", "nope", FIXTURE);
        assertEquals(ExitCodes.USAGE_OR_INPUT, run.exit(), run.err());
        assertTrue(run.err().contains("'nope'") && run.err().contains("kubectl config get-contexts"), run.err());
    }

    private void useAdminKubeconfig(KubeControlPlane plane) {
        // fabric8 lets kubernetes.* system properties override the kubeconfig: the CLI on a user's machine has none
        for (String key : List.copyOf(System.getProperties().stringPropertyNames())) {
            if (key.startsWith("kubernetes.")) {
                hidden.put(key, System.getProperty(key));
                System.clearProperty(key);
            }
        }
        Path kubeconfig = plane.kubeconfigFor("aps-test-runner", List.of("system:masters"));
        System.setProperty("kubeconfig", kubeconfig.toString());
    }

    private static JsonNode find(JsonNode cases, String name) {
        for (JsonNode c : cases) {
            if (c.path("name").asText().equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no case " + name + " in " + cases);
    }

    private static List<String> notes(JsonNode c) {
        List<String> out = new ArrayList<>();
        c.path("notes").forEach(n -> out.add(n.asText()));
        return out;
    }
}

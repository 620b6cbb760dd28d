package dev.policyset.aps.install;

import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.RealApiServer;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code helm install} of the chart with {@code webhook.mode=off} on a real kube-apiserver of its own (the chart's
 * cluster-scoped objects have config/default's names, which other tests install on the shared server and Helm would
 * not adopt), then the {@code helm upgrade} line its notes print, pasted as printed from the repository's root: the
 * webhook with self-managed certificates must then be installed (the empty Secret, the webhook configuration, the
 * operator no longer told to keep the webhook off). No kubelet runs the pod; this is about what Helm sends.
 */
@RealApiServer
class HelmInstallRealServerTest {
    private static final String NAMESPACE = "admission-policy-operator";

    private static KubeControlPlane plane;
    private static String helm;
    private static Path root;

    @BeforeAll
    static void start() {
        root = ProjectFiles.root();
        Optional<Path> found = HelmChartTest.helmBinary(root);
        if (found.isEmpty() && Boolean.getBoolean("aps.helm.required")) {
            throw new IllegalStateException("helm is missing and aps.helm.required is set (CI): run test/helm/build.sh");
        }
        assumeTrue(found.isPresent(), "helm is not built: run test/helm/build.sh; the helm install check is skipped");
        helm = found.get().toString();
        plane = KubeControlPlane.start(KubeControlPlane.Options.defaults());
    }

    @AfterAll
    static void stop() {
        if (plane != null) {
            plane.close();
            plane = null;
        }
    }

    @Test
    void theUpgradeLineOfTheNotesTurnsTheWebhookOn() {
        String notes = helm("install", "aps", "charts/admission-policy-operator", "-n", NAMESPACE, "--create-namespace",
                "--set", "webhook.mode=off");
        KubernetesClient admin = plane.admin();
        assertEquals(List.of("APS_WEBHOOK_ENABLED=false"), webhookEnv(admin));
        assertNull(admin.secrets().inNamespace(NAMESPACE).withName("admission-policy-operator-webhook-tls").get());

        String upgrade = notes.lines().map(String::strip).filter(l -> l.startsWith("helm upgrade ")).findFirst()
                .orElseThrow(() -> new AssertionError("the notes of webhook.mode=off print no helm upgrade line:\n" + notes));
        List<String> args = new ArrayList<>(Arrays.asList(upgrade.split(" +")));
        args.remove(0); // "helm": ours, from the cache
        helm(args.toArray(String[]::new));

        assertEquals(List.of(), webhookEnv(admin), "self-managed is the operator's default: no APS_WEBHOOK_* variable");
        assertNotNull(admin.secrets().inNamespace(NAMESPACE).withName("admission-policy-operator-webhook-tls").get());
        assertNotNull(admin.admissionRegistration().v1().validatingWebhookConfigurations()
                .withName("admission-policy-operator").get());
        assertNotNull(admin.rbac().clusterRoles().withName("admission-policy-operator-webhook-ca").get());
        assertTrue(notes.contains("webhook is off"), notes);
    }

    private static List<String> webhookEnv(KubernetesClient admin) {
        Deployment d = admin.apps().deployments().inNamespace(NAMESPACE).withName("admission-policy-operator").get();
        assertNotNull(d, "helm installed no Deployment");
        return d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                .filter(e -> e.getName().startsWith("APS_WEBHOOK_")).map(e -> e.getName() + "=" + e.getValue()).toList();
    }

    /** helm in the repository's root, against this test's server, with its own config and cache directories. */
    private static String helm(String... args) {
        List<String> command = new ArrayList<>(List.of(helm));
        command.addAll(List.of(args));
        command.addAll(List.of("--kubeconfig", plane.kubeconfigFor("aps-test-admin", List.of("system:masters")).toString()));
        ProcessBuilder builder = new ProcessBuilder(command).directory(root.toFile());
        Path home = plane.directory().resolve("helm-home");
        Map<String, String> env = builder.environment();
        env.put("HELM_CONFIG_HOME", home.resolve("config").toString());
        env.put("HELM_CACHE_HOME", home.resolve("cache").toString());
        env.put("HELM_DATA_HOME", home.resolve("data").toString());
        return HelmChartTest.run(builder);
    }
}

package dev.policyset.aps.install;

import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.RealApiServer;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What {@code helm install} of charts/admission-policy-operator would send, judged by a real kube-apiserver: every
 * object {@code helm template --include-crds} renders (default values: the webhook with self-managed certificates;
 * and {@code webhook.mode=off}) is created with a server-side dry run, into a namespace of its own. A cluster-scoped
 * object another test already installed (config/default's CRD, ClusterRoles, webhook configuration, same names) is
 * sent as a dry-run server-side apply instead, which the server validates the same way. A Deployment with a memory
 * limit the server cannot parse is refused, so the check is live. helm as in {@link HelmChartTest}.
 */
@RealApiServer
class HelmChartRealServerTest {
    private static final String NAMESPACE = "aps-helm-chart";

    private static String helm;
    private static Path chart;

    @BeforeAll
    static void helm() {
        Path root = ProjectFiles.root();
        chart = root.resolve("charts/admission-policy-operator");
        Optional<Path> found = HelmChartTest.helmBinary(root);
        if (found.isEmpty() && Boolean.getBoolean("aps.helm.required")) {
            throw new IllegalStateException("helm is missing and aps.helm.required is set (CI): run test/helm/build.sh");
        }
        assumeTrue(found.isPresent(), "helm is not built: run test/helm/build.sh; the chart's real-server check is skipped");
        helm = found.get().toString();
    }

    @Test
    void defaultValuesAreAcceptedByTheServer(KubeControlPlane plane) {
        List<String> kinds = dryRunAll(plane, objects(plane));
        for (String kind : List.of("CustomResourceDefinition", "Deployment", "Secret", "Service",
                "ValidatingWebhookConfiguration", "Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding")) {
            assertTrue(kinds.contains(kind), "default values render no " + kind + ": " + kinds);
        }
    }

    @Test
    void webhookOffIsAcceptedByTheServer(KubeControlPlane plane) {
        List<String> kinds = dryRunAll(plane, objects(plane, "webhook.mode=off"));
        assertTrue(kinds.contains("Deployment") && !kinds.contains("ValidatingWebhookConfiguration")
                && !kinds.contains("Secret"), kinds.toString());
    }

    @Test
    void aDeploymentTheServerCannotParseIsRefused(KubeControlPlane plane) {
        HasMetadata deployment = objects(plane, "resources.limits.memory=lots").stream()
                .filter(o -> o.getKind().equals("Deployment")).findFirst().orElseThrow();
        KubernetesClientException refused = assertThrows(KubernetesClientException.class,
                () -> plane.admin().resource(deployment).dryRun().create());
        assertTrue(refused.getCode() == 400 || refused.getCode() == 422, refused.getMessage());
        assertTrue(refused.getMessage().contains("quantities must match"), refused.getMessage());
    }

    /** Dry-run creates (or, when the name is taken, dry-run applies) each object; the kinds sent, in order. */
    private static List<String> dryRunAll(KubeControlPlane plane, List<HasMetadata> objects) {
        KubernetesClient admin = plane.admin();
        List<String> kinds = new ArrayList<>();
        for (HasMetadata o : objects) {
            String what = o.getKind() + " " + o.getMetadata().getName();
            try {
                if (admin.resource(o).get() == null) {
                    admin.resource(o).dryRun().create();
                } else {
                    admin.resource(o).dryRun().fieldManager("aps-helm-check").forceConflicts().serverSideApply();
                }
            } catch (KubernetesClientException e) {
                throw new AssertionError("the server refuses the chart's " + what + ": " + e.getMessage(), e);
            }
            kinds.add(o.getKind());
        }
        assertEquals(objects.size(), kinds.size());
        return kinds;
    }

    /** The chart rendered into {@link #NAMESPACE}, which is created (for real) so that namespaced objects fit. */
    private static List<HasMetadata> objects(KubeControlPlane plane, String... sets) {
        plane.admin().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
                .fieldManager("aps-helm-check").serverSideApply();
        List<String> command = new ArrayList<>(List.of(helm, "template", "aps", chart.toString(), "--namespace", NAMESPACE,
                "--include-crds"));
        for (String s : sets) {
            command.add("--set");
            command.add(s);
        }
        String yaml = HelmChartTest.run(command);
        return plane.admin().load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items();
    }
}

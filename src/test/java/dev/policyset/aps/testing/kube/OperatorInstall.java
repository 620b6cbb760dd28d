package dev.policyset.aps.testing.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What {@code kubectl apply -k config/default} installs, minus the Deployment (no kubelet runs it here) and the
 * webhook's Service and ValidatingWebhookConfiguration (no pod would answer: the API server would wait for each call
 * to a set up to its timeout; a test that wants the webhook registers it pointing at its own process, see
 * {@link #webhookConfiguration}): the namespace, the CRD, the ServiceAccount, the least-privilege RBAC and the empty
 * Secret of the self-managed webhook certificates. The operator under test then connects as
 * that ServiceAccount (a client certificate with its user name and groups), so the real RBAC authorizer judges
 * every request it makes.
 */
public final class OperatorInstall {
    public static final String NAMESPACE = "admission-policy-operator";
    public static final String USER = "system:serviceaccount:" + NAMESPACE + ":admission-policy-operator";
    public static final List<String> GROUPS = List.of("system:serviceaccounts", "system:serviceaccounts:" + NAMESPACE);

    private static final java.util.Set<String> INSTALLED = new java.util.HashSet<>();

    private OperatorInstall() {}

    /** Installs once per control plane; waits until the CRD is established. */
    public static synchronized void ensure(KubeControlPlane plane) {
        if (!INSTALLED.add(plane.url())) {
            return;
        }
        KubernetesClient admin = plane.admin();
        for (HasMetadata o : objects(plane)) {
            if (java.util.Set.of("Deployment", "ValidatingWebhookConfiguration").contains(o.getKind())
                    || (o.getKind().equals("Service") && o.getMetadata().getName().equals(WEBHOOK_SERVICE))) {
                continue;
            }
            admin.resource(o).fieldManager("aps-test-install").forceConflicts().serverSideApply();
        }
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        while (Instant.now().isBefore(deadline)) {
            CustomResourceDefinition crd = admin.apiextensions().v1().customResourceDefinitions()
                    .withName("admissionpolicysets.admission.policyset.dev").get();
            if (crd != null && crd.getStatus() != null && crd.getStatus().getConditions().stream()
                    .anyMatch(c -> c.getType().equals("Established") && c.getStatus().equals("True"))) {
                return;
            }
            sleep(200);
        }
        throw new IllegalStateException("the AdmissionPolicySet CRD was not established within 60 s");
    }

    public static final String WEBHOOK_SERVICE = "admission-policy-operator-webhook";

    /** config/default's objects as kubectl renders them. */
    public static List<HasMetadata> objects(KubeControlPlane plane) {
        String yaml = kustomize(plane, Path.of("config/default"));
        return plane.admin().load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items();
    }

    /** config/default's ValidatingWebhookConfiguration, as rendered (not installed by {@link #ensure}). */
    public static HasMetadata webhookConfiguration(KubeControlPlane plane) {
        return objects(plane).stream().filter(o -> o.getKind().equals("ValidatingWebhookConfiguration")).findFirst()
                .orElseThrow(() -> new IllegalStateException("config/default renders no ValidatingWebhookConfiguration"));
    }

    /** {@code kubectl kustomize DIR} with the kubectl built beside the server. */
    public static String kustomize(KubeControlPlane plane, Path dir) {
        try {
            Process p = new ProcessBuilder(KubeBinaries.dir(plane.version()).resolve("kubectl").toString(), "kustomize", dir.toString())
                    .redirectErrorStream(false).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("kubectl kustomize " + dir + " failed: " + err);
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("kubectl kustomize " + dir + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

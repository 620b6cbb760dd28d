package dev.policyset.aps.testing.kube;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Upstream CRDs that test/crds/fetch.sh fetched (pinned versions, not committed), installed on a real control plane
 * so its structural schemas judge the objects the project writes of those APIs. Skips with the reason when they are
 * not fetched; fails under {@code -Daps.kube.required=true} (CI fetches them).
 */
public final class PublishedCrds {
    private PublishedCrds() {}

    /** Installs the files of {@code name}/{@code version} and waits until each CRD is established. */
    public static void install(KubeControlPlane plane, String name, String version, String... files) {
        Path dir = Path.of(System.getenv().getOrDefault("APS_CRDS_DIR",
                System.getProperty("user.home") + "/.cache/aps/crds"), name, version);
        boolean present = java.util.Arrays.stream(files).allMatch(f -> Files.isRegularFile(dir.resolve(f)));
        if (!present && Boolean.getBoolean("aps.kube.required")) {
            throw new IllegalStateException("the " + name + " CRDs are missing in " + dir + ": run test/crds/fetch.sh " + name);
        }
        assumeTrue(present, "the " + name + " CRDs are not fetched: run test/crds/fetch.sh " + name + " (into " + dir + ")");
        KubernetesClient admin = plane.admin();
        for (String file : files) {
            try (InputStream in = Files.newInputStream(dir.resolve(file))) {
                CustomResourceDefinition crd = Serialization.unmarshal(in, CustomResourceDefinition.class);
                admin.resource(crd).fieldManager("aps-test").forceConflicts().serverSideApply();
                Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
                while (!established(admin, crd.getMetadata().getName())) {
                    if (Instant.now().isAfter(deadline)) {
                        throw new IllegalStateException(crd.getMetadata().getName() + " not established within 60 s");
                    }
                    Thread.sleep(200);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static boolean established(KubernetesClient admin, String name) {
        CustomResourceDefinition crd = admin.apiextensions().v1().customResourceDefinitions().withName(name).get();
        // Right after the apply the status may not hold conditions yet (null, not empty).
        return crd != null && crd.getStatus() != null && crd.getStatus().getConditions() != null
                && crd.getStatus().getConditions().stream()
                .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
    }
}

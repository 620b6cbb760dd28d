package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.yaml.Yaml;
import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.RealApiServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kyverno MutatingPolicies imported with their kyverno-test.yaml ({@code src/test/resources/import/kyverno-mutating},
 * without autogen so every policy converts), then {@code aps test --server}: the real kube-apiserver stores the
 * objects the converted cases expect (the patchedResources of Kyverno's test, and the skipped objects unchanged), so
 * the import's MutatingAdmissionPolicies mutate on the server as Kyverno's engine does, JSONPatch and
 * ApplyConfiguration alike.
 */
@RealApiServer
class ImportMutatingRealServerTest {
    private final Map<String, String> hidden = new TreeMap<>();

    @AfterEach
    void forgetKubeconfig() {
        System.clearProperty("kubeconfig");
        hidden.forEach(System::setProperty);
        hidden.clear();
    }

    @Test
    void theServerStoresWhatKyvernosPatchedResourcesSay(KubeControlPlane plane, @TempDir Path dir) throws Exception {
        RenderCommandTest.Run imported = RenderCommandTest.run("import", "kyverno", "--autogen", "false", "--partial", "-o",
                dir.toString(), ImportCommandTest.MUTATING);
        assertEquals(ExitCodes.OK, imported.exit(), imported.out() + imported.err());
        useAdminKubeconfig(plane);
        RenderCommandTest.Run run = RenderCommandTest.run("test", "--server", "-o", "json",
                dir.resolve(".kyverno-test/kyverno-test.aps-test.yaml").toString());
        JsonNode cases = Yaml.mapper().readTree(run.out()).path("files").path(0).path("cases");
        assertEquals(5, cases.size(), run.out() + run.err());
        for (JsonNode c : cases) {
            assertTrue(c.path("passed").asBoolean(), "the server's object is the expected one: " + c);
            assertTrue(c.path("offline").path("agrees").asBoolean(), "offline and server agree: " + c);
        }
        assertEquals(ExitCodes.OK, run.exit(), run.out() + run.err());
    }

    private void useAdminKubeconfig(KubeControlPlane plane) {
        // fabric8 lets kubernetes.* system properties override the kubeconfig: the CLI on a user's machine has none
        for (String key : List.copyOf(System.getProperties().stringPropertyNames())) {
            if (key.startsWith("kubernetes.")) {
                hidden.put(key, System.getProperty(key));
                System.clearProperty(key);
            }
        }
        System.setProperty("kubeconfig", plane.kubeconfigFor("aps-test-runner", List.of("system:masters")).toString());
    }
}

package dev.policyset.aps.install;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The image (which cannot be built here) agrees with the Deployment that runs it. */
class DockerfileTest {
    @Test
    void userPortAndEntrypointMatchTheDeployment() throws Exception {
        var root = ProjectFiles.root();
        List<String> lines = Files.readAllLines(root.resolve("src/main/docker/Dockerfile.jvm"));
        String user = null;
        List<String> exposed = new ArrayList<>();
        String entrypoint = null;
        for (String line : lines) {
            String l = line.trim();
            if (l.startsWith("USER ")) {
                user = l.substring(5).trim();
            } else if (l.startsWith("EXPOSE ")) {
                exposed.add(l.substring(7).trim());
            } else if (l.startsWith("ENTRYPOINT ")) {
                entrypoint = l.substring(11).trim();
            }
        }
        JsonNode pod = ProjectFiles.find(root.resolve("config/manager"), "Deployment").path("spec").path("template").path("spec");
        JsonNode container = pod.path("containers").get(0);
        // The Deployment fixes no runAsUser (OpenShift assigns one); elsewhere the image's USER applies, and it must
        // be numeric and non-zero so the kubelet can verify runAsNonRoot.
        assertTrue(!pod.path("securityContext").has("runAsUser"), "the Deployment leaves the user to the image or the platform");
        assertTrue(pod.path("securityContext").path("runAsNonRoot").asBoolean(), "runAsNonRoot");
        assertTrue(user.matches("[1-9][0-9]*"), "numeric non-root USER");
        List<String> ports = new ArrayList<>();
        container.path("ports").forEach(p -> ports.add(p.path("containerPort").asText()));
        assertEquals(ports, exposed, "EXPOSE matches the container ports");
        assertTrue(entrypoint != null && entrypoint.contains("\"-jar\", \"/deployments/quarkus-run.jar\""),
                "entrypoint runs the Quarkus fast-jar: " + entrypoint);
        for (String part : List.of("lib/ /deployments/lib/", "*.jar /deployments/", "app/ /deployments/app/",
                "quarkus/ /deployments/quarkus/")) {
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("COPY") && l.contains("target/quarkus-app/" + part)),
                    "copies the fast-jar layout to /deployments: " + part);
        }
        assertTrue(!container.has("command") && !container.has("args"), "the Deployment uses the image's entrypoint");
    }
}

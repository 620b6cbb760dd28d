package dev.policyset.aps.install;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code kubectl apply -k config/samples} must not be able to break a cluster: what it installs (rendered by kubectl,
 * as the user's apply would) passes {@code aps validate} without an error finding, and none of the webhooks the sets
 * render fails closed, since the samples install no backend for them (a fail-closed webhook that nothing serves
 * refuses every request it matches).
 */
class SamplesAreSafeTest {
    @Test
    void whatConfigSamplesInstallsHasNoErrorFindingAndNoFailClosedWebhook(@TempDir Path dir) throws Exception {
        List<JsonNode> samples = WebhookConfigurationTest.render("config/samples");
        assertTrue(samples.size() >= 2, "the samples render: " + samples.size());
        StringBuilder all = new StringBuilder();
        for (JsonNode o : samples) {
            all.append("---\n").append(ProjectFiles.writeYaml(o));
        }
        Path file = dir.resolve("samples.yaml");
        Files.writeString(file, all.toString());

        JsonNode report = WebhookConfigurationTest.validate(file);
        assertEquals(0, report.path("summary").path("errors").asInt(), report.toPrettyString());

        WebhookConfigurationTest.Aps render = WebhookConfigurationTest.aps("render", file.toString());
        assertEquals(0, render.exit(), render.out());
        List<String> failClosed = new ArrayList<>();
        for (JsonNode o : ProjectFiles.readAllYaml(render.out())) {
            if (o.path("kind").asText().endsWith("WebhookConfiguration")) {
                for (JsonNode w : o.path("webhooks")) {
                    // admissionregistration.k8s.io/v1 defaults failurePolicy to Fail.
                    if (w.path("failurePolicy").asText("Fail").equals("Fail")) {
                        failClosed.add(o.path("kind").asText() + "/" + o.path("metadata").path("name").asText() + " "
                                + w.path("name").asText());
                    }
                }
            }
        }
        assertEquals(List.of(), failClosed, "fail-closed webhooks without a backend in config/samples");
    }

    /** The check above can fail: the image-checker example, which moved out of config/samples for this, does. */
    @Test
    void theImageCheckerExampleWouldFailIt() throws Exception {
        WebhookConfigurationTest.Aps render = WebhookConfigurationTest.aps("render", "examples/image-checker/image-checker-webhook.yaml");
        assertEquals(0, render.exit(), render.out());
        JsonNode webhook = ProjectFiles.readAllYaml(render.out()).stream()
                .filter(o -> o.path("kind").asText().equals("ValidatingWebhookConfiguration")).findFirst().orElseThrow();
        assertEquals("Fail", webhook.path("webhooks").get(0).path("failurePolicy").asText("Fail"));
    }
}

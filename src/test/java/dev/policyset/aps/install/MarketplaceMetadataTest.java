package dev.policyset.aps.install;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What an operator marketplace (OperatorHub, OpenShift's console) reads beyond the bundle format: the
 * infrastructure-features annotations, a pod that lets OpenShift assign the user, and a capability level that
 * docs/install.md justifies.
 */
class MarketplaceMetadataTest {
    /** Every infrastructure feature OpenShift's console filters on; each must be declared, true or false. */
    static final List<String> FEATURES = List.of("disconnected", "fips-compliant", "proxy-aware", "tls-profiles",
            "token-auth-aws", "token-auth-azure", "token-auth-gcp", "cnf", "cni", "csi");

    static JsonNode csv() {
        return ProjectFiles.readYaml(ProjectFiles.root().resolve("bundle/" + BundleGenerator.CSV_FILE));
    }

    @Test
    void everyInfrastructureFeatureIsDeclared() {
        JsonNode annotations = csv().at("/metadata/annotations");
        for (String feature : FEATURES) {
            String value = annotations.path("features.operators.openshift.io/" + feature).asText("");
            assertTrue(value.equals("true") || value.equals("false"), feature + " is declared true or false: " + value);
        }
        assertEquals("true", annotations.path("features.operators.openshift.io/disconnected").asText(),
                "one image, in relatedImages; no download at run time");
        assertFalse(csv().at("/spec/relatedImages").isEmpty(), "disconnected installs mirror relatedImages");
    }

    @Test
    void podLeavesTheUserToThePlatformButStaysNonRoot() {
        JsonNode fromConfig = ProjectFiles.find(ProjectFiles.root().resolve("config/manager"), "Deployment");
        JsonNode fromCsv = csv().at("/spec/install/spec/deployments/0/spec");
        for (JsonNode pod : List.of(fromConfig.at("/spec/template/spec"), fromCsv.at("/template/spec"))) {
            JsonNode podSc = pod.path("securityContext");
            assertFalse(podSc.has("runAsUser"), "no fixed runAsUser: OpenShift's restricted SCC assigns one from the namespace range");
            assertFalse(podSc.has("runAsGroup"), "nor a fixed group");
            assertTrue(podSc.path("runAsNonRoot").asBoolean(), "runAsNonRoot: the image's numeric USER satisfies it elsewhere");
            for (JsonNode c : pod.path("containers")) {
                assertFalse(c.path("securityContext").has("runAsUser"), c.path("name").asText());
            }
        }
    }

    @Test
    void capabilityLevelIsJustifiedInTheInstallGuide() throws Exception {
        String level = csv().at("/metadata/annotations/capabilities").asText();
        String install = Files.readString(ProjectFiles.root().resolve("docs/install.md"));
        assertTrue(install.contains("capability level **" + level + "**"), "docs/install.md names the level " + level);
        assertTrue(install.contains("### Capability level"), "and has a section that justifies it");
    }
}

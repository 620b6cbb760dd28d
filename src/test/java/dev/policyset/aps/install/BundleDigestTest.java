package dev.policyset.aps.install;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code BundleGenerator --digest}: a release that knows its image's digest pins every image reference of the CSV to
 * it (the Deployment, {@code containerImage}, {@code relatedImages}), the tag dropped; a malformed digest is refused
 * with what to run instead. The generator's input is the checked-in bundle (QOSDK's layout), as in BundleUpgradeTest.
 */
class BundleDigestTest {
    static final String DIGEST = "sha256:" + "0123456789abcdef".repeat(4);

    @Test
    void aDigestReplacesTheTagKeepingRegistryPortAndPath() {
        assertEquals("ghcr.io/policyset/admission-policy-operator@" + DIGEST,
                BundleGenerator.byDigest("ghcr.io/policyset/admission-policy-operator:0.1.0", DIGEST));
        assertEquals("registry.example.com:5000/aps/operator@" + DIGEST,
                BundleGenerator.byDigest("registry.example.com:5000/aps/operator:1.2.3", DIGEST));
        assertEquals("registry.example.com:5000/aps/operator@" + DIGEST,
                BundleGenerator.byDigest("registry.example.com:5000/aps/operator", DIGEST));
        assertEquals("quay.io/x/y@" + DIGEST, BundleGenerator.byDigest("quay.io/x/y@sha256:" + "f".repeat(64), DIGEST));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BundleGenerator.byDigest("quay.io/x/y:1", "sha256:ABC"));
        assertTrue(e.getMessage().contains("docker buildx imagetools inspect quay.io/x/y:1"), e.getMessage());
    }

    @Test
    void everyImageReferenceOfTheCsvIsPinned(@TempDir Path dir) throws Exception {
        Path root = ProjectFiles.root();
        String pinned = BundleGenerator.byDigest(ProjectFiles.defaultImage(root), DIGEST);
        Map<String, String> files = BundleGenerator.generate(root, root.resolve("bundle"), pinned,
                new BundleGenerator.Upgrade("0.1.0", ""));
        BundleGenerator.write(files, dir);
        JsonNode csv = ProjectFiles.readYaml(dir.resolve(BundleGenerator.CSV_FILE));
        assertEquals(pinned, csv.at("/metadata/annotations/containerImage").asText());
        assertEquals(pinned, csv.at("/spec/relatedImages/0/image").asText());
        assertEquals(pinned, csv.at("/spec/install/spec/deployments/0/spec/template/spec/containers/0/image").asText());
        String text = String.join("\n", files.values());
        assertTrue(!text.contains(ProjectFiles.defaultImage(root)), "no tagged reference is left in the bundle");
    }
}

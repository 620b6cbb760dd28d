package dev.policyset.aps.install;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two bundle versions from the generator form a valid OLM upgrade: the newer CSV replaces the older by name, its
 * skipRange covers the older version and not itself, both are in the same package and channels, and the CRD
 * still serves every version the older bundle served. The generator's input is the checked-in bundle, which has
 * QOSDK's layout, so this runs without a packaged build.
 */
class BundleUpgradeTest {
    static final String IMAGE = "ghcr.io/policyset/admission-policy-operator";

    @Test
    void newerBundleReplacesTheOlderAndSkipsTheRangeBetween(@TempDir Path dir) throws Exception {
        Path root = ProjectFiles.root();
        Path input = root.resolve("bundle");
        Map<String, String> first = BundleGenerator.generate(root, input, IMAGE + ":0.1.0",
                new BundleGenerator.Upgrade("0.1.0", ""));
        Map<String, String> second = BundleGenerator.generate(root, input, IMAGE + ":0.2.0",
                new BundleGenerator.Upgrade("0.2.0", "0.1.0"));
        BundleGenerator.write(first, dir.resolve("v0.1.0"));
        BundleGenerator.write(second, dir.resolve("v0.2.0"));

        JsonNode older = ProjectFiles.readYaml(dir.resolve("v0.1.0/" + BundleGenerator.CSV_FILE));
        JsonNode newer = ProjectFiles.readYaml(dir.resolve("v0.2.0/" + BundleGenerator.CSV_FILE));
        assertEquals("admission-policy-operator.v0.1.0", older.at("/metadata/name").asText());
        assertEquals("0.1.0", older.at("/spec/version").asText());
        assertFalse(older.path("spec").has("replaces"), "the first release replaces nothing");
        assertFalse(older.at("/metadata/annotations").has("olm.skipRange"));

        assertEquals("admission-policy-operator.v0.2.0", newer.at("/metadata/name").asText());
        assertEquals("0.2.0", newer.at("/spec/version").asText());
        assertEquals(older.at("/metadata/name").asText(), newer.at("/spec/replaces").asText(), "the upgrade edge");
        String range = newer.at("/metadata/annotations/olm.skipRange").asText();
        assertEquals(">=0.1.0 <0.2.0", range);
        assertTrue(inRange("0.1.0", range) && inRange("0.1.7", range) && !inRange("0.2.0", range) && !inRange("0.0.9", range));
        assertEquals(IMAGE + ":0.2.0", newer.at("/metadata/annotations/containerImage").asText());
        assertEquals(IMAGE + ":0.2.0", newer.at("/spec/relatedImages/0/image").asText());

        JsonNode olderAnnotations = ProjectFiles.readYaml(dir.resolve("v0.1.0/" + BundleGenerator.ANNOTATIONS_FILE));
        JsonNode newerAnnotations = ProjectFiles.readYaml(dir.resolve("v0.2.0/" + BundleGenerator.ANNOTATIONS_FILE));
        for (String key : List.of("operators.operatorframework.io.bundle.package.v1",
                "operators.operatorframework.io.bundle.channels.v1", "operators.operatorframework.io.bundle.channel.default.v1")) {
            assertEquals(olderAnnotations.at("/annotations/" + key.replace("/", "~1")),
                    newerAnnotations.at("/annotations/" + key.replace("/", "~1")), key + " is the same in both");
        }
        String defaultChannel = newerAnnotations.path("annotations").path("operators.operatorframework.io.bundle.channel.default.v1").asText();
        assertTrue(List.of(newerAnnotations.path("annotations").path("operators.operatorframework.io.bundle.channels.v1")
                .asText().split(",")).contains(defaultChannel), "the default channel is one of the channels");

        JsonNode olderCrd = ProjectFiles.readYaml(dir.resolve("v0.1.0/" + BundleGenerator.BUNDLE_CRD_FILE));
        JsonNode newerCrd = ProjectFiles.readYaml(dir.resolve("v0.2.0/" + BundleGenerator.BUNDLE_CRD_FILE));
        assertEquals(olderCrd.at("/metadata/name"), newerCrd.at("/metadata/name"));
        for (String served : servedVersions(olderCrd)) {
            assertTrue(servedVersions(newerCrd).contains(served), "OLM refuses an upgrade that stops serving " + served);
        }
    }

    @Test
    void checkedInBundleFollowsConfigOlmUpgrade() throws Exception {
        Path root = ProjectFiles.root();
        JsonNode csv = ProjectFiles.readYaml(root.resolve("bundle/" + BundleGenerator.CSV_FILE));
        String replaces = ProjectFiles.readYaml(root.resolve("config/olm/upgrade.yaml")).path("replaces").asText("");
        if (replaces.isEmpty()) {
            assertFalse(csv.path("spec").has("replaces"));
        } else {
            assertEquals("admission-policy-operator.v" + replaces, csv.at("/spec/replaces").asText());
            assertEquals(">=" + replaces + " <" + csv.at("/spec/version").asText(),
                    csv.at("/metadata/annotations/olm.skipRange").asText());
        }
    }

    private static List<String> servedVersions(JsonNode crd) {
        List<String> out = new ArrayList<>();
        crd.at("/spec/versions").forEach(v -> {
            if (v.path("served").asBoolean(true)) {
                out.add(v.path("name").asText());
            }
        });
        return out;
    }

    /** A semver range of two bounds, {@code >=A <B}, as OLM's skipRange uses (blang/semver). */
    private static boolean inRange(String version, String range) {
        String[] parts = range.split(" ");
        return compare(version, parts[0].substring(2)) >= 0 && compare(version, parts[1].substring(1)) < 0;
    }

    private static int compare(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < 3; i++) {
            int c = Integer.compare(Integer.parseInt(x[i]), Integer.parseInt(y[i]));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}

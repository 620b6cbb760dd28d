package dev.policyset.aps.install;

import dev.policyset.aps.core.model.KubeVersion;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Defaults the docs state, against the code that has them (docs/testing.md once named 1.36 after 1.37 was the default). */
class DocumentedDefaultsTest {
    @Test
    void testingMdNamesTheDefaultKubernetesVersion() throws Exception {
        String testing = Files.readString(ProjectFiles.root().resolve("docs/testing.md"));
        Matcher m = Pattern.compile("default: --kube-version \\((\\d+\\.\\d+)").matcher(testing);
        assertTrue(m.find(), "docs/testing.md states the default");
        assertEquals(KubeVersion.NEWEST.toString(), m.group(1));
        String option = Files.readString(ProjectFiles.root().resolve("src/main/java/dev/policyset/aps/cli/KubeVersionOption.java"));
        assertTrue(option.contains("defaultValue = \"" + KubeVersion.NEWEST + "\""), "--kube-version defaults to the newest");
    }
}

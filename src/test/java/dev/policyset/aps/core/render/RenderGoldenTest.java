package dev.policyset.aps.core.render;

import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.model.PolicySetReader;
import dev.policyset.aps.core.yaml.Document;
import dev.policyset.aps.core.yaml.Yaml;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Golden files for rendering: one directory per case under {@code src/test/resources/golden/render/}, with
 * {@code input.yaml} (sets), {@code expected.yaml} (the rendered objects, compared as YAML text) and an
 * optional {@code kube-version} (default: the newest). Any other file in a case fails the test, so a
 * misspelt fixture cannot silently be ignored. Regenerate with {@code -Daps.golden.update=true} and
 * review the diff.
 */
class RenderGoldenTest {
    static final Path CASES = Path.of("src/test/resources/golden/render");
    private static final Set<String> KNOWN_FILES = Set.of("input.yaml", "expected.yaml", "kube-version");

    @TestFactory
    Stream<DynamicTest> goldenCases() throws IOException {
        List<Path> dirs;
        try (Stream<Path> list = Files.list(CASES)) {
            dirs = list.filter(Files::isDirectory).sorted().toList();
        }
        assertFalse(dirs.isEmpty(), "no golden cases under " + CASES);
        return dirs.stream().map(dir -> DynamicTest.dynamicTest(dir.getFileName().toString(), () -> check(dir)));
    }

    private static void check(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            List<String> unknown = files.map(f -> f.getFileName().toString()).filter(f -> !KNOWN_FILES.contains(f)).toList();
            assertTrue(unknown.isEmpty(), dir + " has files the test does not use: " + unknown);
        }
        KubeVersion version = Files.exists(dir.resolve("kube-version"))
                ? KubeVersion.parse(Files.readString(dir.resolve("kube-version")).trim())
                : KubeVersion.NEWEST;
        String actual = render(Files.readString(dir.resolve("input.yaml")), RenderOptions.forKubeVersion(version));
        Path expectedFile = dir.resolve("expected.yaml");
        if (Boolean.getBoolean("aps.golden.update")) {
            Files.writeString(expectedFile, actual, StandardCharsets.UTF_8);
        }
        assertTrue(Files.exists(expectedFile), expectedFile + " is missing; run with -Daps.golden.update=true");
        assertEquals(Files.readString(expectedFile), actual, "rendered output differs from " + expectedFile);
    }

    static String render(String input, RenderOptions options) throws Exception {
        List<com.fasterxml.jackson.databind.JsonNode> out = new ArrayList<>();
        for (Document document : Yaml.parse("input.yaml", input)) {
            PolicySetReader.Result result = PolicySetReader.read(document.content());
            assertTrue(result.findings().isEmpty(), "input set has findings: " + result.findings());
            Renderer.render(result.set().orElseThrow(), options).forEach(o -> out.add(o.manifest()));
        }
        return Yaml.write(out);
    }
}

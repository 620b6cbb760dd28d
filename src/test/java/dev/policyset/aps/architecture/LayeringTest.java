package dev.policyset.aps.architecture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Keeps the layers honest (STYLE.md): {@code core} is pure, {@code cli} does not need Quarkus or the
 * operator. It reads the compiled classes' constant pools, which name every class and method they use.
 */
class LayeringTest {
    private static final Path CLASSES = Path.of("target/classes/dev/policyset/aps");

    @Test
    void coreUsesNoClusterNoQuarkusNoClockNoEnvironment() throws IOException {
        assertNoReferences("core", List.of("io/quarkus/", "io/javaoperatorsdk/", "io/fabric8/kubernetes/client/KubernetesClient",
                "io/fabric8/kubernetes/client/dsl/", "dev/policyset/aps/operator/", "dev/policyset/aps/cli/",
                "java/time/Clock", "getenv", "currentTimeMillis"));
    }

    @Test
    void cliUsesNoQuarkusAndNoOperator() throws IOException {
        assertNoReferences("cli", List.of("io/quarkus/", "io/javaoperatorsdk/", "dev/policyset/aps/operator/"));
    }

    private static void assertNoReferences(String layer, List<String> forbidden) throws IOException {
        Path root = CLASSES.resolve(layer);
        assertTrue(Files.isDirectory(root), root + " is not compiled");
        List<String> violations = new ArrayList<>();
        List<Path> classes;
        try (Stream<Path> walk = Files.walk(root)) {
            classes = walk.filter(p -> p.toString().endsWith(".class")).toList();
        }
        assertFalse(classes.isEmpty(), "no classes under " + root);
        for (Path c : classes) {
            String pool = new String(Files.readAllBytes(c), StandardCharsets.ISO_8859_1);
            for (String f : forbidden) {
                if (pool.contains(f)) {
                    violations.add(root.relativize(c) + " uses " + f);
                }
            }
        }
        assertTrue(violations.isEmpty(), layer + " must stay free of these: " + violations);
    }
}

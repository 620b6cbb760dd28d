package dev.policyset.aps.install;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the plain {@code java -jar target/aps.jar validate} loads (docs/benchmark.md, CLI start-up): type checking the
 * samples against the built-in kinds reads the build's schema resource, so no fabric8 model class is loaded; checking
 * alone builds no cel-java runtime, and text output no Jackson object mapper. Class counts are not asserted (they move
 * with every dependency); what must never come back is.
 */
class CliClassLoadingJarIT {
    @Test
    void validatingTheSamplesLoadsNoModelClassNoCelRuntimeAndNoObjectMapper() throws Exception {
        Path root = ProjectFiles.root();
        Path jar = root.resolve("target/aps.jar");
        assertTrue(Files.isRegularFile(jar), jar + " is missing: run `mvn package`");
        List<String> command = new java.util.ArrayList<>(List.of("java", "-Xlog:class+load=info:stdout", "-jar",
                jar.toString(), "validate"));
        try (var samples = Files.list(root.resolve("config/samples"))) {
            samples.filter(p -> p.toString().endsWith(".yaml") && !p.getFileName().toString().equals("kustomization.yaml"))
                    .sorted().forEach(p -> command.add(p.toString()));
        }
        CliLauncherJarIT.Result run = CliLauncherJarIT.run(root, command, "");
        assertEquals(1, run.exit(), "the unsafe sample has error findings: " + run.err());
        String loaded = run.out();
        // the log sees the project's classes, so an absence below means something
        assertTrue(loaded.contains(" dev.policyset.aps.core.schema.BuiltinSchemas "), "schemas were used");
        assertTrue(loaded.contains(" dev.policyset.aps.core.validate.typecheck.PolicyTypeCheck "), "policies were type-checked");
        assertFalse(loaded.contains(" io.fabric8."), "a fabric8 model class was loaded");
        assertFalse(loaded.contains(" dev.cel.runtime.standard."), "cel-java's standard runtime functions were loaded");
        assertFalse(loaded.contains(" com.fasterxml.jackson.databind.ObjectMapper "), "an object mapper was made");
    }
}

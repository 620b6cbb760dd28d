package dev.policyset.aps.testing;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The data-driven suites (conformance, cel-eval, corpus) read {@code ../shared/}, which lives beside the
 * project and is not part of it. In a user's clone without it they skip, saying why; under {@code .ci/run}
 * ({@code -Daps.shared.required=true}) a missing or empty folder fails the build instead of passing empty.
 */
public final class SharedData {
    private SharedData() {}

    /** The folder {@code ../shared/<name>}, or a skip/failure explaining why it is not there. */
    public static Path require(String name) {
        Path dir = root().resolve(name);
        boolean present = present(dir);
        String reason = "shared data folder " + dir.toAbsolutePath().normalize() + " is missing or empty";
        if (Boolean.getBoolean("aps.shared.required")) {
            Assertions.assertTrue(present, reason + " (required under .ci/run: -Daps.shared.required=true)");
        } else {
            if (!present) {
                System.err.println("SKIPPED: " + reason + "; set -Daps.shared.dir to run this suite");
            }
            Assumptions.assumeTrue(present, reason + "; set -Daps.shared.dir to run this suite");
        }
        return dir;
    }

    /**
     * The folder if it is there (under .ci/run it must be). For a {@code @BeforeAll} or a test factory: a skip
     * there aborts the class or the factory, which surefire counts as "Tests run: 0", so a reader of the console
     * cannot tell a skipped suite from an empty one. Pair it with {@link #require} in each test, or return
     * {@link #skippedSuite} from the factory, so each skip is counted and says why.
     */
    public static java.util.Optional<Path> find(String name) {
        Path dir = root().resolve(name);
        boolean present = present(dir);
        if (!present && Boolean.getBoolean("aps.shared.required")) {
            require(name); // fails with the reason
        }
        return present ? java.util.Optional.of(dir) : java.util.Optional.empty();
    }

    /** One dynamic test that is skipped with the reason, for a factory whose folder is missing. */
    public static org.junit.jupiter.api.DynamicTest skippedSuite(String name) {
        return org.junit.jupiter.api.DynamicTest.dynamicTest("../shared/" + name + " is needed", () -> require(name));
    }

    public static Path root() {
        return Path.of(System.getProperty("aps.shared.dir", "../shared"));
    }

    private static boolean present(Path dir) {
        return Files.isDirectory(dir) && hasFiles(dir);
    }

    private static boolean hasFiles(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.anyMatch(Files::isRegularFile);
        } catch (IOException e) {
            return false;
        }
    }
}

package dev.policyset.aps.install;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launcher and archive that `mvn package` itself leaves in target/ (not a copy laid out by the test, as
 * {@link CliLauncherJarIT} does): a user aliases target/aps and runs it from their own repository, so it must use
 * its archive from any working directory and through a symlink, print nothing of the JVM's, and the archive must
 * not be older than the jar a later `mvn package` (or `make test`) wrote. Failsafe, after package.
 */
class BuiltLauncherJarIT {

    @Test
    void theBuiltLauncherUsesItsArchiveSilentlyFromAnyDirectory(@TempDir Path elsewhere) throws Exception {
        Path target = ProjectFiles.root().resolve("target");
        Path jar = target.resolve("aps.jar");
        Path archive = target.resolve("aps.jsa");
        Path launcher = target.resolve("aps");
        assertTrue(Files.isExecutable(launcher), launcher + " is missing: mvn package writes it");
        assertTrue(Files.isRegularFile(archive), archive + " is missing: mvn package writes it");
        assertFalse(Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(jar)) < 0,
                "the archive is older than the jar: the launcher would not use it");

        Path link = elsewhere.resolve("aps");
        Files.createSymbolicLink(link, launcher);
        String samples = ProjectFiles.root().resolve("config/samples").toString();
        for (String command : List.of(launcher.toString(), link.toString(), "./aps")) {
            CliLauncherJarIT.Result quiet = CliLauncherJarIT.run(elsewhere, List.of(command, "validate", "-o", "json", samples));
            assertEquals(1, quiet.exit(), command + ": the unsafe sample has error findings; stderr: " + quiet.err());
            assertEquals("", quiet.err(), command + " from " + elsewhere + ": nothing on stderr");

            CliLauncherJarIT.Result traced = CliLauncherJarIT.run(elsewhere, List.of(command, "validate", samples),
                    "-Xlog:class+load=info:stderr");
            assertTrue(traced.err().contains("source: shared objects file (top)"),
                    command + " from " + elsewhere + ": classes load from target/aps.jsa");
        }
        Files.delete(link); // JUnit would warn that it leaves the link's target alone
    }

    /** `make demo` after a package: nothing is newer than the jar, so it runs the demo without a minute of Maven. */
    @Test
    void makeDemoDoesNotRebuildAnUpToDateJar() throws Exception {
        CliLauncherJarIT.Result plan = CliLauncherJarIT.run(ProjectFiles.root(), List.of("make", "-n", "demo"));
        assertEquals(0, plan.exit(), plan.err());
        assertTrue(plan.out().contains("render config/samples/baseline-security.yaml"), plan.out());
        assertFalse(plan.out().contains("mvn") || plan.out().contains("$(MVN)"), "no build planned:\n" + plan.out());
    }
}

package dev.policyset.aps.install;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launcher (src/main/sh/aps, installed as target/aps and as the CLI image's entrypoint) over the packaged jar,
 * in the image's layout: it runs aps, uses the class-data sharing archive beside it, ignores a stale one, and
 * keeps JVM messages off stdout so JSON stays parseable. Needs the packaged jar: failsafe, after package.
 */
class CliLauncherJarIT {
    record Result(int exit, String out, String err) {}

    static Result run(Path dir, List<String> command) throws IOException, InterruptedException {
        return run(dir, command, "");
    }

    @Test
    void launcherRunsTheJarWithTheArchiveAndStdoutStaysClean(@TempDir Path opt) throws Exception {
        Path root = ProjectFiles.root();
        Path jar = root.resolve("target/aps.jar");
        assertTrue(Files.isRegularFile(jar), jar + " is missing: run `mvn package`");
        Files.copy(jar, opt.resolve("aps.jar"));
        Files.copy(root.resolve("src/main/sh/aps"), opt.resolve("aps"));
        opt.resolve("aps").toFile().setExecutable(true);
        String samples = root.resolve("config/samples").toString();

        // The training run, as Dockerfile.cli and `make build` do it.
        Result training = run(opt, List.of("java", "-XX:ArchiveClassesAtExit=" + opt.resolve("aps.jsa"),
                "-Xlog:disable", "-Xlog:all=error:stderr", "-jar", opt.resolve("aps.jar").toString(), "validate", samples));
        assertEquals(1, training.exit(), "the unsafe sample has error findings: " + training.err());
        assertTrue(Files.size(opt.resolve("aps.jsa")) > 1_000_000, "an archive of the validation's classes");

        String launcher = opt.resolve("aps").toString();
        Result version = run(opt, List.of(launcher, "--version"));
        assertEquals(0, version.exit(), version.err());
        assertTrue(version.out().startsWith("aps "), version.out());

        Result json = run(opt, List.of(launcher, "validate", "-o", "json", samples));
        assertEquals(1, json.exit(), json.err());
        JsonNode report = ProjectFiles.JSON.readTree(json.out());
        assertTrue(report.path("summary").path("errors").asInt() > 0);

        // The archive is in use: classes come from the "shared objects file (top)", i.e. the dynamic archive.
        Result traced = run(opt, List.of(launcher, "--version"), "-Xlog:class+load=info:stderr");
        assertTrue(traced.err().contains("source: shared objects file (top)"), "classes load from aps.jsa");

        // A jar newer than its archive (a rebuild without a new training run): the launcher leaves the archive out.
        Files.setLastModifiedTime(opt.resolve("aps.jar"), FileTime.fromMillis(System.currentTimeMillis() + 60_000));
        Result stale = run(opt, List.of(launcher, "validate", "-o", "json", samples), "-Xlog:class+load=info:stderr");
        assertEquals(1, stale.exit());
        assertTrue(!stale.err().contains("shared objects file (top)"), "a stale archive is not used");
        ProjectFiles.JSON.readTree(stale.out());
    }

    /** Runs with APS_JAVA_OPTS; stdout and stderr go to files, so a chatty stderr cannot fill a pipe and stall. */
    static Result run(Path dir, List<String> command, String javaOpts) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command)).directory(dir.toFile());
        pb.environment().put("APS_JAVA_OPTS", javaOpts);
        Path out = Files.createTempFile("aps-out", ".txt");
        Path err = Files.createTempFile("aps-err", ".txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(command + " did not finish in 300 s");
        }
        try {
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}

package dev.policyset.aps.install;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CLI image (which cannot be built here) runs the launcher over the jar the build makes, as a numeric
 * non-root user, with the class-data sharing archive where the launcher looks for it. CliLauncherJarIT runs the
 * same layout against the real jar.
 */
class DockerfileCliTest {
    static final String FILE = "src/main/docker/Dockerfile.cli";

    record Image(Map<String, String> copies, List<String> users, String workdir, List<String> entrypoint, String run) {}

    static Image parse() throws Exception {
        List<String> lines = Files.readAllLines(ProjectFiles.root().resolve(FILE));
        Map<String, String> copies = new TreeMap<>();
        List<String> users = new ArrayList<>();
        String workdir = null;
        List<String> entrypoint = null;
        StringBuilder run = new StringBuilder();
        boolean inRun = false;
        for (String line : lines) {
            String l = line.trim();
            if (inRun || l.startsWith("RUN ")) {
                run.append(l.startsWith("RUN ") ? l.substring(4) : l).append(' ');
                inRun = l.endsWith("\\");
            } else if (l.startsWith("COPY ")) {
                String[] parts = l.substring(5).trim().split("\\s+");
                copies.put(parts[0], parts[1]);
            } else if (l.startsWith("USER ")) {
                users.add(l.substring(5).trim());
            } else if (l.startsWith("WORKDIR ")) {
                workdir = l.substring(8).trim();
            } else if (l.startsWith("ENTRYPOINT ")) {
                JsonNode array = ProjectFiles.JSON.readTree(l.substring(11).trim());
                entrypoint = new ArrayList<>();
                for (JsonNode part : array) {
                    entrypoint.add(part.asText());
                }
            }
        }
        return new Image(copies, users, workdir, entrypoint, run.toString());
    }

    @Test
    void entrypointIsTheLauncherOverTheBuildsJarAsANonRootUser() throws Exception {
        Image image = parse();
        assertEquals("/opt/aps/aps.jar", image.copies().get("target/aps.jar"), "the shaded CLI jar");
        assertEquals("/opt/aps/aps", image.copies().get("src/main/sh/aps"), "the launcher target/aps is made from");
        assertEquals(List.of("/opt/aps/aps"), image.entrypoint(), "exec form, so arguments and signals reach aps");
        String user = image.users().get(image.users().size() - 1);
        assertTrue(user.matches("[1-9][0-9]*"), "the last USER is numeric and not root: " + user);
        assertEquals("/work", image.workdir(), "users mount their repository at /work");
        assertTrue(Files.isExecutable(ProjectFiles.root().resolve("src/main/sh/aps")), "the launcher is executable");
    }

    @Test
    void archiveIsWrittenWhereTheLauncherLooksAfterTheJarIsCopied() throws Exception {
        Image image = parse();
        String launcher = Files.readString(ProjectFiles.root().resolve("src/main/sh/aps"));
        assertTrue(launcher.contains("jar=\"$dir/aps.jar\"") && launcher.contains("\"$dir/aps.jsa\""),
                "the launcher reads aps.jar and aps.jsa beside itself");
        assertTrue(image.run().contains("-XX:ArchiveClassesAtExit=/opt/aps/aps.jsa"), image.run());
        assertTrue(image.run().contains("-jar /opt/aps/aps.jar validate"), "a validation is the training run");
        // mvn package (make build, make test) trains the same way, by the jar's absolute path (pom.xml, cli-archive)
        String pom = Files.readString(ProjectFiles.root().resolve("pom.xml"));
        assertTrue(pom.contains("<argument>-XX:ArchiveClassesAtExit=${project.build.directory}/aps.jsa</argument>"), "mvn package trains");
        assertTrue(pom.contains("<argument>${project.build.directory}/aps.jar</argument>\n                <argument>validate</argument>"),
                "a validation is the training run of mvn package too");
        assertTrue(pom.contains("<argument>${project.basedir}/src/main/sh/aps</argument>\n                <argument>${project.build.directory}/aps</argument>"),
                "mvn package installs the launcher beside the jar");
    }

    /** The CI examples and the pre-commit hooks run this version's CLI image through its entrypoint path. */
    @Test
    void ciExamplesAndPreCommitHooksUseThisVersionsImage() throws Exception {
        Path root = ProjectFiles.root();
        String version = new String(Files.readAllBytes(root.resolve("pom.xml")))
                .replaceFirst("(?s).*?<artifactId>admission-policy-operator</artifactId>\\s*<version>([^<]+)</version>.*", "$1");
        String image = "ghcr.io/policyset/aps:" + version;
        for (String file : List.of("examples/ci/github-actions.yaml", "examples/ci/gitlab-ci.yml")) {
            String text = Files.readString(root.resolve(file));
            assertTrue(text.contains(image), file + " uses " + image);
            assertTrue(text.contains("/opt/aps/aps validate"), file + " calls the image's launcher");
            ProjectFiles.readAll(root.resolve(file));
        }
        assertTrue(Files.readString(root.resolve("examples/ci/github-actions.yaml")).contains("--output sarif"));
        assertTrue(Files.readString(root.resolve("examples/ci/gitlab-ci.yml")).contains("codequality: gl-code-quality-report.json"));
        JsonNode hooks = ProjectFiles.readAll(root.resolve(".pre-commit-hooks.yaml")).get(0);
        assertTrue(hooks.isArray() && hooks.size() >= 1);
        for (JsonNode hook : hooks) {
            for (String field : List.of("id", "name", "entry", "language")) {
                assertTrue(hook.hasNonNull(field), hook.path("id").asText() + " has " + field);
            }
            assertTrue(!hook.path("pass_filenames").asBoolean(true), "one run over the folders, not per file");
        }
        assertEquals(image + " validate", hooks.get(0).path("entry").asText());
    }
}

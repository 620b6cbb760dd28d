package dev.policyset.aps.install;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Reading the install sources (config/, crds/, bundle/) and rendering kustomize, for the generator and the tests. */
final class ProjectFiles {
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    static final ObjectMapper YAML_READER = new ObjectMapper(new YAMLFactory());
    /** Deterministic YAML: tree order, minimal quotes, multi-line strings as literal blocks. */
    static final ObjectMapper YAML_WRITER = new ObjectMapper(YAMLFactory.builder()
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .disable(YAMLGenerator.Feature.SPLIT_LINES)
            .build());

    private ProjectFiles() {}

    /** The project directory: Maven runs tests there; `make bundle` runs the generator there. */
    static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        if (!Files.exists(dir.resolve("pom.xml")) || !Files.isDirectory(dir.resolve("config"))) {
            throw new IllegalStateException("run from the project directory (with pom.xml and config/): " + dir);
        }
        return dir;
    }

    static JsonNode readYaml(Path file) {
        List<JsonNode> docs = readAll(file);
        if (docs.size() != 1) {
            throw new IllegalStateException(file + ": expected one YAML document, found " + docs.size());
        }
        return docs.get(0);
    }

    static List<JsonNode> readAll(Path file) {
        try {
            return readAllYaml(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": " + e.getMessage(), e);
        }
    }

    static List<JsonNode> readAllYaml(String text) {
        try (YAMLParser parser = ((YAMLFactory) YAML_READER.getFactory()).createParser(text)) {
            List<JsonNode> docs = new ArrayList<>();
            for (var it = YAML_READER.readValues(parser, JsonNode.class); it.hasNext(); ) {
                JsonNode doc = it.next();
                if (doc != null && !doc.isNull() && !doc.isMissingNode()) {
                    docs.add(doc);
                }
            }
            return docs;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String writeYaml(JsonNode node) {
        try {
            return YAML_WRITER.writeValueAsString(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The resources a kustomization.yaml lists, as files. */
    static List<Path> kustomizationResources(Path dir) {
        List<Path> files = new ArrayList<>();
        readYaml(dir.resolve("kustomization.yaml")).path("resources")
                .forEach(r -> files.add(dir.resolve(r.asText()).normalize()));
        return files;
    }

    /** The first object of a kind among a kustomization's resources. */
    static ObjectNode find(Path kustomizationDir, String kind) {
        for (Path file : kustomizationResources(kustomizationDir)) {
            for (JsonNode doc : readAll(file)) {
                if (kind.equals(doc.path("kind").asText())) {
                    return (ObjectNode) doc;
                }
            }
        }
        throw new IllegalStateException(kustomizationDir + ": no " + kind + " among its resources");
    }

    /** The object of a kind and name among a kustomization's resources. */
    static ObjectNode find(Path kustomizationDir, String kind, String name) {
        for (Path file : kustomizationResources(kustomizationDir)) {
            for (JsonNode doc : readAll(file)) {
                if (kind.equals(doc.path("kind").asText()) && name.equals(doc.path("metadata").path("name").asText())) {
                    return (ObjectNode) doc;
                }
            }
        }
        throw new IllegalStateException(kustomizationDir + ": no " + kind + "/" + name + " among its resources");
    }

    /** The operator's own ClusterRole in config/rbac (the others there are aggregated roles for people). */
    static ObjectNode operatorClusterRole(Path root) {
        return find(root.resolve("config/rbac"), "ClusterRole", "admission-policy-operator");
    }

    /** The operator image config/manager sets for the Deployment's placeholder image {@code controller}. */
    static String defaultImage(Path root) {
        for (JsonNode image : readYaml(root.resolve("config/manager/kustomization.yaml")).path("images")) {
            if ("controller".equals(image.path("name").asText())) {
                return image.path("newName").asText() + ":" + image.path("newTag").asText();
            }
        }
        throw new IllegalStateException("config/manager/kustomization.yaml: no images entry named controller");
    }

    /** Structural equality that compares numbers by value (YAML tools write 30 and 30.0 alike). */
    static boolean sameValue(JsonNode a, JsonNode b) {
        return a.equals((x, y) -> x.isNumber() && y.isNumber()
                ? Double.compare(x.doubleValue(), y.doubleValue()) : (x.equals(y) ? 0 : 1), b);
    }

    /** kubectl on the PATH, if any: the kustomize tests skip without it. */
    static Optional<String> kubectl() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir, "kubectl");
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate.toString());
            }
        }
        return Optional.empty();
    }

    /** {@code kubectl kustomize DIR}, parsed. */
    static List<JsonNode> kustomize(String kubectl, Path dir) {
        try {
            Process p = new ProcessBuilder(kubectl, "kustomize", dir.toString()).redirectErrorStream(false).start();
            byte[] out = p.getInputStream().readAllBytes();
            String err = new String(p.getErrorStream().readAllBytes());
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("kubectl kustomize " + dir + " failed: " + err);
            }
            return readAllYaml(new String(out));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

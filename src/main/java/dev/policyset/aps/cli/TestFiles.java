package dev.policyset.aps.cli;

import dev.policyset.aps.core.evaluate.suite.Loader;
import dev.policyset.aps.core.yaml.Document;
import dev.policyset.aps.core.yaml.DocumentParseException;
import dev.policyset.aps.core.yaml.Yaml;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Reads the files a test file names, relative to the test file's directory. */
final class TestFiles implements Loader {
    private final Path base;

    private TestFiles(Path base) {
        this.base = base;
    }

    /** The files of a test file: relative to its directory. */
    static TestFiles beside(Path testFile) {
        Path parent = testFile.toAbsolutePath().getParent();
        return new TestFiles(parent == null ? Path.of("").toAbsolutePath() : parent);
    }

    /** For a test read from standard input: it has no directory, so its paths are the working directory's. */
    static TestFiles relativeToWorkingDirectory() {
        return new TestFiles(Path.of("").toAbsolutePath());
    }

    @Override
    public List<Document> load(String relativePath) throws LoadException {
        Path path = base.resolve(relativePath).normalize();
        if (!Files.exists(path)) {
            throw new LoadException("no such file or directory (" + path + ")");
        }
        List<Path> files;
        if (Files.isDirectory(path)) {
            try (Stream<Path> walk = Files.walk(path)) {
                files = walk.filter(Files::isRegularFile).filter(p -> {
                    String n = p.getFileName().toString();
                    return n.endsWith(".yaml") || n.endsWith(".yml") || n.endsWith(".json");
                }).sorted().toList();
            } catch (IOException e) {
                throw new LoadException("cannot be read: " + e.getMessage());
            }
        } else {
            files = List.of(path);
        }
        List<Document> documents = new ArrayList<>();
        for (Path f : files) {
            try {
                documents.addAll(Yaml.parse(display(f), Files.readString(f, StandardCharsets.UTF_8)));
            } catch (DocumentParseException e) {
                throw new LoadException("not valid YAML: " + e.getMessage());
            } catch (IOException e) {
                throw new LoadException("cannot be read: " + e.getMessage());
            }
        }
        return documents;
    }

    /** A path relative to the working directory when it is below it (shorter messages). */
    private static String display(Path f) {
        Path cwd = Path.of("").toAbsolutePath();
        Path abs = f.toAbsolutePath().normalize();
        return abs.startsWith(cwd) ? cwd.relativize(abs).toString() : abs.toString();
    }
}

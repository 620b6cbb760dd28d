package dev.policyset.aps.cli;

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

/**
 * Turns the PATH arguments into documents: files as given, directories searched recursively for
 * {@code .yaml}, {@code .yml} and {@code .json} in sorted order (so output does not depend on the file
 * system). A file that cannot be read or parsed is reported and skipped; the others are still read.
 */
final class InputFiles {
    /** What was read, and the problems of the paths that could not be. */
    record Loaded(List<Document> documents, List<Problem> problems, int files) {}

    /** A path that could not be read or parsed: which file, which line (null when none applies), and why. */
    record Problem(String file, Integer line, String message) {
        /** {@code file:line: message}, or {@code file: message} without a line. */
        String describe() {
            return file + (line == null ? "" : ":" + line) + ": " + message;
        }
    }

    private InputFiles() {}

    static Loaded load(List<Path> paths) {
        List<Document> documents = new ArrayList<>();
        List<Problem> problems = new ArrayList<>();
        int files = 0;
        for (Path path : paths) {
            List<Path> found;
            try {
                found = expand(path);
            } catch (IOException e) {
                problems.add(new Problem(path.toString(), null, "cannot be read: " + e.getMessage()));
                continue;
            }
            if (found.isEmpty()) {
                problems.add(new Problem(path.toString(), null, "no .yaml, .yml or .json files found"));
            }
            for (Path file : found) {
                files++;
                try {
                    String text = Files.readString(file, StandardCharsets.UTF_8);
                    documents.addAll(Yaml.parse(file.toString(), text));
                } catch (DocumentParseException e) {
                    String reason = e.getMessage().substring(Math.min(e.getMessage().length(),
                            (e.source() + ":" + e.line() + ": ").length()));
                    problems.add(new Problem(e.source(), e.line(), "not valid YAML: " + reason));
                } catch (IOException e) {
                    problems.add(new Problem(file.toString(), null, "cannot be read: " + e.getMessage()));
                }
            }
        }
        return new Loaded(documents, problems, files);
    }

    private static List<Path> expand(Path path) throws IOException {
        if (!Files.exists(path)) {
            throw new IOException("no such file or directory");
        }
        if (!Files.isDirectory(path)) {
            return List.of(path);
        }
        try (Stream<Path> walk = Files.walk(path)) {
            return walk.filter(Files::isRegularFile)
                    .filter(p -> {
                        String name = p.getFileName().toString();
                        return name.endsWith(".yaml") || name.endsWith(".yml") || name.endsWith(".json");
                    })
                    .sorted()
                    .toList();
        }
    }
}

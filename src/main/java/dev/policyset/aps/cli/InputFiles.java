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
    /** What was read, and the problems of the files that could not be. */
    record Loaded(List<Document> documents, List<String> problems, int files, List<Problem> unreadable) {
        Loaded(List<Document> documents, List<String> problems, int files) {
            this(documents, problems, files, List.of());
        }
    }

    /** A path that could not be read or parsed: which file, which line (1 when unknown), and why. */
    record Problem(String file, int line, String message) {}

    private InputFiles() {}

    static Loaded load(List<Path> paths) {
        List<Document> documents = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        List<Problem> unreadable = new ArrayList<>();
        int files = 0;
        for (Path path : paths) {
            List<Path> found;
            try {
                found = expand(path);
            } catch (IOException e) {
                problems.add(path + ": cannot be read: " + e.getMessage());
                unreadable.add(new Problem(path.toString(), 1, "cannot be read: " + e.getMessage()));
                continue;
            }
            if (found.isEmpty()) {
                problems.add(path + ": no .yaml, .yml or .json files found");
                unreadable.add(new Problem(path.toString(), 1, "no .yaml, .yml or .json files found"));
            }
            for (Path file : found) {
                files++;
                try {
                    String text = Files.readString(file, StandardCharsets.UTF_8);
                    documents.addAll(Yaml.parse(file.toString(), text));
                } catch (DocumentParseException e) {
                    problems.add(e.getMessage());
                    String reason = e.getMessage().substring(Math.min(e.getMessage().length(),
                            (e.source() + ":" + e.line() + ": ").length()));
                    unreadable.add(new Problem(e.source(), e.line(), "not valid YAML: " + reason));
                } catch (IOException e) {
                    problems.add(file + ": cannot be read: " + e.getMessage());
                    unreadable.add(new Problem(file.toString(), 1, "cannot be read: " + e.getMessage()));
                }
            }
        }
        return new Loaded(documents, problems, files, unreadable);
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

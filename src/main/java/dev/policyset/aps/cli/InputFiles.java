package dev.policyset.aps.cli;

import dev.policyset.aps.core.yaml.Document;
import dev.policyset.aps.core.yaml.DocumentParseException;
import dev.policyset.aps.core.yaml.Yaml;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Turns the PATH arguments of every command that reads objects into documents: files as given, directories
 * searched recursively for {@code .yaml}, {@code .yml} and {@code .json} in sorted order (so output does not
 * depend on the file system), and {@code -} for standard input (named {@value #STDIN_NAME} in findings).
 *
 * <p>An input over {@link Yaml#MAX_INPUT_BYTES} is refused before it is parsed: a file by its size, standard
 * input while it is read (reading stops at the limit). A file that cannot be read or parsed is reported and
 * skipped; the others are still read.
 */
public final class InputFiles {
    /** The PATH that means standard input ({@code ./-} names a file called {@code -}). */
    public static final String STDIN = "-";
    /** How standard input is named in findings and messages. */
    static final String STDIN_NAME = "<stdin>";

    static final String UNREADABLE = "input/Unreadable";
    static final String TOO_LARGE = "input/TooLarge";

    /** What was read, and the problems of the paths that could not be. */
    public record Loaded(List<Document> documents, List<Problem> problems, int files) {}

    /**
     * A path that could not be read or parsed: the rule ({@link #UNREADABLE} or {@link #TOO_LARGE}), which file,
     * which line (null when none applies), and why.
     */
    public record Problem(String rule, String file, Integer line, String message) {
        /** {@code file:line: message}, or {@code file: message} without a line. */
        public String describe() {
            return file + (line == null ? "" : ":" + line) + ": " + message;
        }
    }

    private InputFiles() {}

    /**
     * Standard input can be read once: {@code -} given twice is a usage error rather than a second, silently
     * empty read.
     */
    static void requireStdinAtMostOnce(List<Path> paths, CommandLine commandLine) {
        long count = paths.stream().filter(InputFiles::isStdin).count();
        if (count > 1) {
            throw new CommandLine.ParameterException(commandLine, "'-' (standard input) is given " + count
                    + " times; standard input can be read only once, so give '-' once (use ./- for a file named -)");
        }
    }

    static boolean isStdin(Path path) {
        return path.toString().equals(STDIN);
    }

    public static Loaded load(List<Path> paths) {
        return load(paths, System.in);
    }

    public static Loaded load(List<Path> paths, InputStream stdin) {
        List<Document> documents = new ArrayList<>();
        List<Problem> problems = new ArrayList<>();
        int files = 0;
        for (Path path : paths) {
            if (isStdin(path)) {
                files++;
                int before = documents.size();
                int problemsBefore = problems.size();
                read(STDIN_NAME, () -> readAtMost(stdin, Yaml.MAX_INPUT_BYTES), documents, problems);
                // Yaml.parse already skips empty documents (blank, comments only, a bare ---)
                if (documents.size() == before && problems.size() == problemsBefore) {
                    // As an empty directory is: `kubectl kustomize ... | aps validate -` must not pass when the
                    // command before the pipe printed nothing.
                    problems.add(new Problem(UNREADABLE, STDIN_NAME, null, "standard input has no YAML or JSON "
                            + "documents; if it comes from a pipe, check that the command before it printed something"));
                }
                continue;
            }
            List<Path> found;
            try {
                found = expand(path);
            } catch (IOException e) {
                problems.add(new Problem(UNREADABLE, path.toString(), null, "cannot be read: " + e.getMessage()));
                continue;
            }
            if (found.isEmpty()) {
                problems.add(new Problem(UNREADABLE, path.toString(), null, "no .yaml, .yml or .json files found"));
            }
            for (Path file : found) {
                files++;
                read(file.toString(), () -> {
                    long size = Files.size(file);
                    if (size > Yaml.MAX_INPUT_BYTES) {
                        throw new TooLarge(size, true);
                    }
                    return Files.readAllBytes(file);
                }, documents, problems);
            }
        }
        return new Loaded(documents, problems, files);
    }

    private interface Bytes {
        byte[] read() throws IOException;
    }

    /** The size check failed: nothing was parsed. */
    private static final class TooLarge extends IOException {
        final long size;
        final boolean complete;

        TooLarge(long size, boolean complete) {
            super("too large");
            this.size = size;
            this.complete = complete;
        }
    }

    private static void read(String name, Bytes bytes, List<Document> documents, List<Problem> problems) {
        try {
            documents.addAll(Yaml.parse(name, utf8(bytes.read())));
        } catch (TooLarge e) {
            problems.add(new Problem(TOO_LARGE, name, null, Yaml.tooLarge(e.size, e.complete)));
        } catch (CharacterCodingException e) {
            problems.add(new Problem(UNREADABLE, name, null,
                    "is not UTF-8 text (" + e.getMessage() + "); save it as UTF-8, as kubectl expects"));
        } catch (DocumentParseException e) {
            String reason = e.getMessage().substring(Math.min(e.getMessage().length(),
                    (e.source() + ":" + e.line() + ": ").length()));
            problems.add(new Problem(UNREADABLE, e.source(), e.line(), "not valid YAML: " + reason));
        } catch (IOException e) {
            problems.add(new Problem(UNREADABLE, name, null, "cannot be read: " + e.getMessage()));
        }
    }

    /** All of a stream, or {@link TooLarge} as soon as it passes {@code limit} bytes (the rest is never read). */
    static byte[] readAtMost(InputStream in, long limit) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[64 * 1024];
        long total = 0;
        while (total <= limit) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, limit + 1 - total));
            if (n < 0) {
                return out.toByteArray();
            }
            out.write(buffer, 0, n);
            total += n;
        }
        throw new TooLarge(total, false);
    }

    private static String utf8(byte[] bytes) throws CharacterCodingException {
        return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString();
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

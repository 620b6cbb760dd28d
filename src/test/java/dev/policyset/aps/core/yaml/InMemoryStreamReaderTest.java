package dev.policyset.aps.core.yaml;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.scanner.ScannerImpl;
import org.yaml.snakeyaml.tokens.Token;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The in-memory reader must be invisible to the scanner: for every input, snakeyaml's scanner produces the same
 * tokens at the same marks (index, line, column) over it as over snakeyaml's own StreamReader.
 */
class InMemoryStreamReaderTest {
    private static final List<String> TRICKY = List.of(
            "a: 1\nb: [x, y]\nc: {d: e}\n",
            "a: 1\r\nb: 2\r\n",                      // CRLF is one line break
            "a: 1\rb: 2\r",                          // lone CR, also at the very end
            "\uFEFFa: 1\n",                           // BOM takes no column
            "k: \"\uD83D\uDE00 two chars, one code point\"\nn: x\n",
            "k: |\n  line one\n  line two\n\nother: >-\n  folded\n  text\n",
            "# comment\n---\na: &x [1, 2]\nb: *x\n---\n...\n---\nc: 'it''s'\n",
            "k: \"esc \\u00e9 \\x41 \\n\"\nl: plain value with: colon\n",
            "a:\n- b\n-   - c\n    - d\n- {e: [f, {g: h}]}\n",
            "k: \u2028after a unicode line separator\n",
            "unclosed: [1, 2\n",                      // an error must be reported at the same mark
            "a: b: c\n",
            "");

    @Test
    void scannerSeesTheSameTokensAsOverSnakeyamlsOwnReader() throws IOException {
        List<String> inputs = new ArrayList<>(TRICKY);
        try (Stream<Path> files = Stream.concat(Files.walk(Path.of("config/samples")), Files.walk(Path.of("src/test/resources")))) {
            for (Path file : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                inputs.add(Files.readString(file, StandardCharsets.UTF_8));
            }
        }
        assertTrue(inputs.size() > 20, "samples and test resources found: " + inputs.size());
        for (String input : inputs) {
            assertEquals(tokens(new StreamReader(new StringReader(input))),
                    tokens(new InMemoryStreamReader("'reader'", input.codePoints().toArray())), input);
        }
    }

    @Test
    void peekAndPrefixPastTheEndAnswerAsUpstream() {
        InMemoryStreamReader reader = new InMemoryStreamReader("x", "ab".codePoints().toArray());
        StreamReader upstream = new StreamReader(new StringReader("ab"));
        assertEquals(upstream.peek(5), reader.peek(5));
        assertEquals(upstream.prefix(5), reader.prefix(5));
        reader.forward(5);
        upstream.forward(5);
        assertEquals(upstream.getIndex(), reader.getIndex());
        assertEquals(upstream.peek(), reader.peek());
        assertEquals(upstream.prefix(3), reader.prefix(3));
        assertEquals('\0', reader.peek());
    }

    /** Each token's type and start/end marks, or the error and its mark where scanning stops. */
    private static List<String> tokens(StreamReader reader) {
        ScannerImpl scanner = new ScannerImpl(reader, new LoaderOptions());
        List<String> out = new ArrayList<>();
        try {
            while (scanner.checkToken()) {
                Token token = scanner.getToken();
                out.add(token.getTokenId() + " " + mark(token.getStartMark()) + "-" + mark(token.getEndMark()));
            }
        } catch (YAMLException e) {
            out.add("error: " + e.getMessage());
        }
        assertFalse(out.isEmpty());
        return out;
    }

    private static String mark(Mark m) {
        return m.getIndex() + "@" + m.getLine() + ":" + m.getColumn();
    }
}

package dev.policyset.aps.core.yaml;

import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.scanner.Constant;

import java.io.StringReader;

/**
 * snakeyaml's reader over text that is already in memory: the whole input as one array of code points.
 *
 * <p>Why not snakeyaml's own: its {@code StreamReader.update()} (2.5, unchanged in 2.6) reads 1,024 chars at a
 * time and copies its whole window, from the start of the token being scanned, on every read. Inside one long
 * token the window only grows, so a token of n chars costs about n²/1024 copied code points: a 20 MB single
 * scalar took minutes before the scanner even reached the code-point limit. The scanner only ever moves
 * forward, so one array and a pointer serve it in linear time.
 *
 * <p>Every method keeps upstream's semantics (org.yaml.snakeyaml.reader.StreamReader): {@code '\0'} past the
 * end, line and column counting ({@code \r\n} is one break, a BOM takes no column), and the per-document index
 * the scanner compares with {@code LoaderOptions.codePointLimit}. Non-printable characters, which upstream
 * refuses while reading, are refused by {@link YamlTrees} before parsing, with their line.
 */
final class InMemoryStreamReader extends StreamReader {
    private final String name;
    private final int[] data;
    private int pointer;
    private int index;
    private int documentIndex;
    private int line;
    private int column;

    InMemoryStreamReader(String name, int[] codePoints) {
        super(new StringReader(""));
        this.name = name;
        this.data = codePoints;
    }

    @Override
    public Mark getMark() {
        // Mark keeps a reference, not a copy; it only reads around the pointer for error snippets.
        return new Mark(name, index, line, column, data, pointer);
    }

    @Override
    public void forward() {
        forward(1);
    }

    @Override
    public void forward(int length) {
        for (int i = 0; i < length && pointer < data.length; i++) {
            int c = data[pointer++];
            index++;
            documentIndex++;
            if (Constant.LINEBR.has(c) || (c == '\r' && pointer < data.length && data[pointer] != '\n')) {
                line++;
                column = 0;
            } else if (c != 0xFEFF) {
                column++;
            }
        }
    }

    @Override
    public int peek() {
        return pointer < data.length ? data[pointer] : '\0';
    }

    @Override
    public int peek(int offset) {
        return pointer + offset < data.length ? data[pointer + offset] : '\0';
    }

    @Override
    public String prefix(int length) {
        int available = Math.max(0, Math.min(length, data.length - pointer));
        return available == 0 ? "" : new String(data, pointer, available);
    }

    @Override
    public String prefixForward(int length) {
        String prefix = prefix(length);
        pointer += length;
        index += length;
        documentIndex += length;
        column += length; // as upstream: the scanner never passes a line break here
        return prefix;
    }

    @Override
    public int getColumn() {
        return column;
    }

    @Override
    public int getDocumentIndex() {
        return documentIndex;
    }

    @Override
    public void resetDocumentIndex() {
        documentIndex = 0;
    }

    @Override
    public int getIndex() {
        return index;
    }

    @Override
    public int getLine() {
        return line;
    }
}

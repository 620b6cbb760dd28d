package dev.policyset.aps.core.yaml;

/** A file that is not valid YAML/JSON: says which file, which line, and what the parser saw. */
public final class DocumentParseException extends Exception {
    private final String source;
    private final int line;

    public DocumentParseException(String source, int line, String problem, Throwable cause) {
        super(source + ":" + line + ": " + problem, cause);
        this.source = source;
        this.line = line;
    }

    public String source() {
        return source;
    }

    public int line() {
        return line;
    }
}

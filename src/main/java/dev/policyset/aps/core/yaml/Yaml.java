package dev.policyset.aps.core.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Reading and writing the YAML the tools exchange. Output is deterministic: keys in tree order, block
 * style, multi-line strings (CEL) as literal blocks, one {@code ---} before each document.
 */
public final class Yaml {
    /**
     * The largest input (a file, or standard input) that is parsed: 16 MiB. Admission objects are kilobytes and
     * even a large rendered repository is a few megabytes; above this, the input is refused before parsing.
     */
    public static final long MAX_INPUT_BYTES = 16L * 1024 * 1024;

    /**
     * Made when first used (holder classes): an object mapper loads some 500 Jackson classes, and reading and
     * validating need neither (documents are parsed by snakeyaml into trees; findings are printed without one).
     */
    private static final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper();
    }

    private static final class YamlWriter {
        static final ObjectMapper MAPPER = new ObjectMapper(YAMLFactory.builder()
                .stringQuotingChecker(new QuoteAmbiguousScalars())
                .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
                // without it a string "1" would be written as the number 1 and read back as one
                .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
                .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
                .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
                .disable(YAMLGenerator.Feature.SPLIT_LINES)
                .build())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    }

    private Yaml() {}

    /**
     * All documents of a multi-document YAML (or JSON) text; empty documents are skipped. Parsed with
     * snakeyaml's composer (YAML 1.1 scalars and anchors/aliases, as the Kubernetes tools read them), so
     * every value keeps the line it came from.
     *
     * @throws DocumentParseException naming the source and line of the first syntax error
     */
    public static List<Document> parse(String source, String text) throws DocumentParseException {
        return YamlTrees.parse(source, text);
    }

    /**
     * Why an input over {@link #MAX_INPUT_BYTES} is refused, and what to do.
     *
     * @param size     its size in bytes (chars for text already in memory), or the bytes read before stopping
     * @param complete false when reading stopped at the limit, so the real size is unknown
     */
    public static String tooLarge(long size, boolean complete) {
        String what = complete
                ? String.format(java.util.Locale.ROOT, "is %.1f MiB, over the %d MiB limit for one input", size / 1048576.0,
                        MAX_INPUT_BYTES / 1048576)
                : "is larger than the " + MAX_INPUT_BYTES / 1048576 + " MiB limit for one input (reading stopped there)";
        return what + "; it was refused without being parsed. Admission objects are a few kilobytes: check that this "
                + "is the input you meant, and validate a large rendered stream as the files it was built from, or in parts";
    }

    /** The objects as a multi-document YAML stream. */
    public static String write(List<? extends JsonNode> documents) {
        StringWriter out = new StringWriter();
        try {
            for (JsonNode document : documents) {
                out.write(YamlWriter.MAPPER.writeValueAsString(document));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** A plain JSON mapper for trees (no YAML features). */
    public static ObjectMapper mapper() {
        return Json.MAPPER;
    }
}

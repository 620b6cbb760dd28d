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
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper WRITER = new ObjectMapper(YAMLFactory.builder()
            .stringQuotingChecker(new QuoteAmbiguousScalars())
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            // without it a string "1" would be written as the number 1 and read back as one
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
            .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
            .disable(YAMLGenerator.Feature.SPLIT_LINES)
            .build())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

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

    /** The objects as a multi-document YAML stream. */
    public static String write(List<? extends JsonNode> documents) {
        StringWriter out = new StringWriter();
        try {
            for (JsonNode document : documents) {
                out.write(WRITER.writeValueAsString(document));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** A plain JSON mapper for trees (no YAML features). */
    public static ObjectMapper mapper() {
        return JSON;
    }
}

package dev.policyset.aps.core.yaml;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import org.yaml.snakeyaml.LoaderOptions;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reading and writing the YAML the tools exchange. Output is deterministic: keys in tree order, block
 * style, multi-line strings (CEL) as literal blocks, one {@code ---} before each document.
 */
public final class Yaml {
    /** Deeper nesting than any admission object needs; bounds the parser's recursion on hostile input. */
    public static final int MAX_NESTING = 200;
    /** Bounds alias expansion ("billion laughs"). */
    private static final int MAX_ALIASES = 100;
    private static final int MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;

    private static final ObjectMapper READER = new ObjectMapper(readFactory())
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);
    private static final ObjectMapper WRITER = new ObjectMapper(YAMLFactory.builder()
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
            .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
            .disable(YAMLGenerator.Feature.SPLIT_LINES)
            .build())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    private Yaml() {}

    private static YAMLFactory readFactory() {
        LoaderOptions loader = new LoaderOptions();
        loader.setMaxAliasesForCollections(MAX_ALIASES);
        loader.setNestingDepthLimit(MAX_NESTING);
        loader.setCodePointLimit(MAX_DOCUMENT_BYTES);
        YAMLFactory factory = YAMLFactory.builder().loaderOptions(loader).build();
        factory.setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING).build());
        return factory;
    }

    /**
     * All documents of a multi-document YAML (or JSON) text; empty documents are skipped.
     *
     * @throws DocumentParseException naming the source and line of the first syntax error
     */
    public static List<Document> parse(String source, String text) throws DocumentParseException {
        List<Document> documents = new ArrayList<>();
        try (JsonParser parser = READER.getFactory().createParser(text)) {
            int index = 0;
            while (true) {
                JsonToken token = parser.nextToken();
                if (token == null) {
                    break;
                }
                JsonLocation start = parser.currentTokenLocation();
                JsonNode node = READER.readTree(parser);
                if (node != null && !node.isNull() && !node.isMissingNode()) {
                    documents.add(new Document(source, Math.max(1, start.getLineNr()), index, node));
                }
                index++;
            }
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new DocumentParseException(source, at == null ? 1 : Math.max(1, at.getLineNr()),
                    firstLine(e.getOriginalMessage()), e);
        } catch (IOException e) {
            throw new DocumentParseException(source, 1, e.getMessage(), e);
        } catch (RuntimeException e) {
            // snakeyaml reports limits (nesting, aliases, size) as unchecked exceptions.
            throw new DocumentParseException(source, 1, firstLine(String.valueOf(e.getMessage())), e);
        }
        return documents;
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

    public static ObjectMapper mapper() {
        return READER;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "not valid YAML";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}

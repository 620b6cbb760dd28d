package dev.policyset.aps.core.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.resolver.Resolver;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * YAML text → JSON trees with the line of every value. Limits keep hostile input from exhausting the
 * process: input size (checked before parsing), nesting depth, alias count, document size, the number of
 * values after alias expansion, and duplicate keys. Time grows linearly with the input
 * ({@link InMemoryStreamReader} says why snakeyaml's own reader does not).
 */
final class YamlTrees {
    /** Deeper nesting than any admission object needs; bounds recursion on hostile input. */
    static final int MAX_NESTING = 200;
    /** Bounds alias use ("billion laughs"). */
    static final int MAX_ALIASES = 100;
    /** Per document, as snakeyaml counts; never reached by an input within {@link Yaml#MAX_INPUT_BYTES}. */
    static final int MAX_CODE_POINTS = (int) Yaml.MAX_INPUT_BYTES;
    /** Values a document may expand to; far above any real policy set. */
    static final int MAX_VALUES = 1_000_000;

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final String source;
    private final Map<String, Integer> lines = new HashMap<>();
    private int values;

    private YamlTrees(String source) {
        this.source = source;
    }

    static List<Document> parse(String source, String text) throws DocumentParseException {
        if (text.length() > Yaml.MAX_INPUT_BYTES) {
            // Chars, not bytes, for text already in memory; a file or stream is refused by its bytes before reading.
            throw new DocumentParseException(source, 1, Yaml.tooLarge(text.length(), true), null);
        }
        int[] codePoints = text.codePoints().toArray();
        refuseNonPrintable(source, codePoints);
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(MAX_ALIASES);
        options.setNestingDepthLimit(MAX_NESTING);
        options.setCodePointLimit(MAX_CODE_POINTS);
        options.setAllowDuplicateKeys(false);
        // What org.yaml.snakeyaml.Yaml.composeAll builds, over the in-memory reader.
        Composer composer = new Composer(new ParserImpl(new InMemoryStreamReader(source, codePoints), options),
                new Resolver(), options);
        List<Document> documents = new ArrayList<>();
        int index = 0;
        try {
            while (composer.checkNode()) {
                Node node = composer.getNode();
                YamlTrees converter = new YamlTrees(source);
                JsonNode content = converter.convert(node, "", 0);
                if (!isEmpty(content)) {
                    documents.add(new Document(source, line(node.getStartMark()), index, content, converter.lines));
                }
                index++;
            }
        } catch (MarkedYAMLException e) {
            Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            throw new DocumentParseException(source, line(mark), describe(e), e);
        } catch (DocumentParseException e) {
            throw e;
        } catch (YAMLException | IllegalStateException | StackOverflowError e) {
            throw new DocumentParseException(source, 1, firstLine(e.getMessage()), e);
        }
        // composeAll is lazy; a document after the last one returned may still be empty.
        return documents;
    }

    /**
     * YAML allows only printable characters in its text (YAML 1.1, 5.1; snakeyaml's StreamReader.isPrintable):
     * refuse the first other one with its line, as upstream's reader would while reading.
     */
    private static void refuseNonPrintable(String source, int[] codePoints) throws DocumentParseException {
        int line = 1;
        for (int i = 0; i < codePoints.length; i++) {
            int c = codePoints[i];
            if (!StreamReader.isPrintable(c)) {
                throw new DocumentParseException(source, line, String.format("special character U+%04X is not allowed in "
                        + "YAML text; remove it, or write it as an escape (\"\\u%04X\") inside a double-quoted string",
                        c, c), null);
            }
            if (c == '\n' || c == 0x85 || c == 0x2028 || c == 0x2029
                    || (c == '\r' && (i + 1 == codePoints.length || codePoints[i + 1] != '\n'))) {
                line++;
            }
        }
    }

    private JsonNode convert(Node node, String path, int depth) throws DocumentParseException {
        if (++values > MAX_VALUES || depth > MAX_NESTING) {
            throw new DocumentParseException(source, line(node.getStartMark()),
                    "document expands to more than " + MAX_VALUES + " values or " + MAX_NESTING
                            + " levels (aliases?); split it or remove the aliases", null);
        }
        lines.putIfAbsent(path, line(node.getStartMark()));
        if (node instanceof MappingNode mapping) {
            ObjectNode object = JSON.objectNode();
            for (NodeTuple tuple : mapping.getValue()) {
                if (!(tuple.getKeyNode() instanceof ScalarNode key)) {
                    throw new DocumentParseException(source, line(tuple.getKeyNode().getStartMark()),
                            "mapping keys must be plain strings", null);
                }
                String name = key.getValue();
                if (object.has(name)) {
                    throw new DocumentParseException(source, line(key.getStartMark()),
                            "duplicate key \"" + name + "\"", null);
                }
                String child = path.isEmpty() ? name : path + "." + name;
                lines.put(child, line(key.getStartMark())); // a field's line is its key's, not its value's
                object.set(name, convert(tuple.getValueNode(), child, depth + 1));
            }
            return object;
        }
        if (node instanceof SequenceNode sequence) {
            ArrayNode array = JSON.arrayNode();
            List<Node> items = sequence.getValue();
            for (int i = 0; i < items.size(); i++) {
                array.add(convert(items.get(i), path + "[" + i + "]", depth + 1));
            }
            return array;
        }
        return scalar((ScalarNode) node);
    }

    private static JsonNode scalar(ScalarNode node) {
        String value = node.getValue();
        Tag tag = node.getTag();
        if (Tag.NULL.equals(tag)) {
            return JSON.nullNode();
        }
        if (Tag.BOOL.equals(tag)) {
            return JSON.booleanNode(isTrue(value));
        }
        if (Tag.INT.equals(tag)) {
            try {
                BigInteger n = parseInt(value.replace("_", ""));
                return n.bitLength() < 64 ? JSON.numberNode(n.longValue()) : JSON.numberNode(n);
            } catch (NumberFormatException e) {
                return JSON.textNode(value);
            }
        }
        if (Tag.FLOAT.equals(tag)) {
            try {
                return JSON.numberNode(parseFloat(value.replace("_", "")));
            } catch (NumberFormatException e) {
                return JSON.textNode(value);
            }
        }
        return JSON.textNode(value);
    }

    private static boolean isTrue(String v) {
        return switch (v.toLowerCase(java.util.Locale.ROOT)) {
            case "true", "yes", "on", "y" -> true;
            default -> false;
        };
    }

    private static BigInteger parseInt(String v) {
        String s = v;
        int sign = 1;
        if (s.startsWith("-") || s.startsWith("+")) {
            sign = s.startsWith("-") ? -1 : 1;
            s = s.substring(1);
        }
        BigInteger n;
        if (s.startsWith("0x")) {
            n = new BigInteger(s.substring(2), 16);
        } else if (s.startsWith("0b")) {
            n = new BigInteger(s.substring(2), 2);
        } else if (s.startsWith("0o")) {
            n = new BigInteger(s.substring(2), 8);
        } else if (s.length() > 1 && s.startsWith("0") && s.chars().allMatch(Character::isDigit)) {
            n = new BigInteger(s.substring(1), 8);
        } else {
            n = new BigInteger(s);
        }
        return sign < 0 ? n.negate() : n;
    }

    private static double parseFloat(String v) {
        String lower = v.toLowerCase(java.util.Locale.ROOT);
        if (lower.endsWith(".inf")) {
            return lower.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        if (lower.equals(".nan")) {
            return Double.NaN;
        }
        return Double.parseDouble(v);
    }

    private static boolean isEmpty(JsonNode content) {
        return content == null || content.isNull() || (content.isTextual() && content.asText().isEmpty());
    }

    private static int line(Mark mark) {
        return mark == null ? 1 : mark.getLine() + 1;
    }

    private static String describe(MarkedYAMLException e) {
        String problem = e.getProblem() != null ? e.getProblem() : firstLine(e.getMessage());
        return e.getContext() != null ? e.getContext() + ": " + problem : problem;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "not valid YAML";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}

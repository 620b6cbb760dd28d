package dev.policyset.aps.core.schema;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The model definitions as JSON, the form the build writes into {@value BuiltinSchemas#SCHEMAS_RESOURCE}: one
 * definition per line, keyed by class name relative to {@value ModelDefinition#MODEL_PACKAGE}:
 * <pre>
 * {"definitions":{
 * "Pod":{"properties":{"apiVersion":"string",...,"spec":"#PodSpec"},"required":["apiVersion","kind",...]},
 * ...}}
 * </pre>
 * Written with Jackson's generator at build time; read line by line, lazily ({@link #read}).
 */
public final class ModelDefinitionsJson {
    /** Only the build writes; reading makes no factory. */
    private static final class Writer {
        static final JsonFactory JSON = new JsonFactory();
    }

    private ModelDefinitionsJson() {
    }

    /** The document for these definitions (full class names as keys). */
    public static String write(Map<String, ModelDefinition> definitions) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = Writer.JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeFieldName("definitions");
            g.writeStartObject();
            for (Map.Entry<String, ModelDefinition> e : definitions.entrySet()) {
                g.writeRaw('\n');
                g.writeFieldName(e.getKey().substring(ModelDefinition.MODEL_PACKAGE.length()));
                g.writeStartObject();
                g.writeFieldName("properties");
                g.writeStartObject();
                for (Map.Entry<String, String> p : e.getValue().properties().entrySet()) {
                    g.writeStringField(p.getKey(), p.getValue());
                }
                g.writeEndObject();
                g.writeFieldName("required");
                g.writeStartArray();
                for (String r : e.getValue().required()) {
                    g.writeString(r);
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeRaw('\n');
            g.writeEndObject();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out + "\n";
    }

    /**
     * The definitions a document holds, by full class name, each parsed when first asked for: a kind needs about a
     * hundred of the 866 classes, and parsing all of them, or even making Jackson's parser, was most of the
     * resource's cost in a cold CLI run (60 to 130 ms). Relies on the layout {@link #write} gives, one definition per
     * line, and on its JSON: objects, arrays and strings.
     */
    public static ModelDefinitions read(InputStream in) throws IOException {
        String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        Map<String, String> lines = new HashMap<>();
        int start = text.indexOf('\n') + 1;
        while (start > 0 && start < text.length()) {
            int end = text.indexOf('\n', start);
            String line = text.substring(start, end < 0 ? text.length() : end);
            int open = line.indexOf('"');
            int close = open < 0 ? -1 : line.indexOf('"', open + 1);
            if (close > 0) {
                lines.put(ModelDefinition.MODEL_PACKAGE + line.substring(open + 1, close), line.substring(open));
            }
            start = end < 0 ? -1 : end + 1;
        }
        Map<String, Optional<ModelDefinition>> parsed = new ConcurrentHashMap<>();
        return className -> parsed.computeIfAbsent(className, name -> {
            String line = lines.get(name);
            return line == null ? Optional.empty() : Optional.of(new Line(line).definition());
        });
    }

    /** One line, {@code "Name":{"properties":{...},"required":[...]}}, read by hand (no parser to make). */
    private static final class Line {
        private final String s;
        private int i;

        Line(String s) {
            this.s = s;
        }

        ModelDefinition definition() {
            string();
            expect(':');
            expect('{');
            Map<String, String> properties = new LinkedHashMap<>();
            List<String> required = new ArrayList<>();
            while (peek() != '}') {
                String field = string();
                expect(':');
                if (field.equals("properties")) {
                    expect('{');
                    while (peek() != '}') {
                        String name = string();
                        expect(':');
                        properties.put(name, string());
                        comma('}');
                    }
                    expect('}');
                } else if (field.equals("required")) {
                    expect('[');
                    while (peek() != ']') {
                        required.add(string());
                        comma(']');
                    }
                    expect(']');
                } else {
                    throw error("unknown field " + field);
                }
                comma('}');
            }
            expect('}');
            return new ModelDefinition(properties, required);
        }

        private String string() {
            expect('"');
            StringBuilder out = new StringBuilder();
            while (true) {
                char c = next();
                if (c == '"') {
                    return out.toString();
                }
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                char e = next();
                switch (e) {
                    case 'u' -> {
                        out.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                    }
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'r' -> out.append('\r');
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    default -> out.append(e); // \" \\ \/
                }
            }
        }

        private void comma(char end) {
            if (peek() == ',') {
                i++;
            } else if (peek() != end) {
                throw error("expected , or " + end);
            }
        }

        private void expect(char c) {
            if (next() != c) {
                throw error("expected " + c);
            }
        }

        private char peek() {
            if (i >= s.length()) {
                throw error("unexpected end");
            }
            return s.charAt(i);
        }

        private char next() {
            char c = peek();
            i++;
            return c;
        }

        private IllegalStateException error(String what) {
            return new IllegalStateException(BuiltinSchemas.SCHEMAS_RESOURCE + ": " + what + " at " + i + " of " + s
                    + "; the build writes this file (GenerateBuiltinSchemas): rebuild");
        }
    }
}

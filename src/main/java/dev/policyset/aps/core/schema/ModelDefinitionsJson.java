package dev.policyset.aps.core.schema;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The model definitions as JSON, the form the build writes into {@value BuiltinSchemas#SCHEMAS_RESOURCE}: one
 * definition per line, keyed by class name relative to {@value ModelDefinition#MODEL_PACKAGE}:
 * <pre>
 * {"definitions":{
 * "Pod":{"properties":{"apiVersion":"string",...,"spec":"#PodSpec"},"required":["apiVersion","kind",...]},
 * ...}}
 * </pre>
 * Read with Jackson's streaming parser: no object mapper, no tree, one pass.
 */
public final class ModelDefinitionsJson {
    private static final JsonFactory JSON = new JsonFactory();

    private ModelDefinitionsJson() {
    }

    /** The document for these definitions (full class names as keys). */
    public static String write(Map<String, ModelDefinition> definitions) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(out)) {
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
            g.writeEndObject();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out + "\n";
    }

    /** The definitions a document holds, by full class name. */
    public static ModelDefinitions read(InputStream in) throws IOException {
        Map<String, ModelDefinition> definitions = new HashMap<>();
        try (JsonParser p = JSON.createParser(in)) {
            expect(p.nextToken(), JsonToken.START_OBJECT);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                if (!p.currentName().equals("definitions")) {
                    p.nextToken();
                    p.skipChildren();
                    continue;
                }
                expect(p.nextToken(), JsonToken.START_OBJECT);
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = ModelDefinition.MODEL_PACKAGE + p.currentName();
                    definitions.put(name, definition(p));
                }
            }
        }
        return className -> java.util.Optional.ofNullable(definitions.get(className));
    }

    private static ModelDefinition definition(JsonParser p) throws IOException {
        expect(p.nextToken(), JsonToken.START_OBJECT);
        Map<String, String> properties = new LinkedHashMap<>();
        List<String> required = new ArrayList<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            if (field.equals("properties")) {
                expect(t, JsonToken.START_OBJECT);
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    properties.put(name, p.nextTextValue());
                }
            } else if (field.equals("required")) {
                expect(t, JsonToken.START_ARRAY);
                while (p.nextToken() == JsonToken.VALUE_STRING) {
                    required.add(p.getText());
                }
            } else {
                p.skipChildren();
            }
        }
        return new ModelDefinition(properties, required);
    }

    private static void expect(JsonToken actual, JsonToken expected) throws IOException {
        if (actual != expected) {
            throw new IOException("built-in schema definitions: expected " + expected + ", found " + actual);
        }
    }
}

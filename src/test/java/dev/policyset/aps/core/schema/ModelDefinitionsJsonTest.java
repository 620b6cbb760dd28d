package dev.policyset.aps.core.schema;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the build writes reads back the same, names that need escaping included; a damaged line says so. */
class ModelDefinitionsJsonTest {
    private static final String P = ModelDefinition.MODEL_PACKAGE;

    @Test
    void definitionsReadBackAsWritten() throws IOException {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("$ref", ModelDefinition.STRING);
        properties.put("x-kubernetes-list-type", ModelDefinition.STRING);
        properties.put("quote\"back\\slash\ttab\u00e9", "[]map[string]#apiextensions.v1.JSONSchemaProps");
        properties.put("empty", ModelDefinition.ANY);
        Map<String, ModelDefinition> written = new LinkedHashMap<>();
        written.put(P + "apiextensions.v1.JSONSchemaProps", new ModelDefinition(properties, List.of("$ref", "empty")));
        written.put(P + "Empty", new ModelDefinition(Map.of(), List.of()));
        written.put(P + "Pod", new ModelDefinition(Map.of("spec", "#PodSpec"), List.of("spec")));

        ModelDefinitions read = read(ModelDefinitionsJson.write(written));

        written.forEach((name, definition) -> assertEquals(Optional.of(definition), read.definition(name), name));
        assertEquals(List.copyOf(properties.keySet()),
                List.copyOf(read.definition(P + "apiextensions.v1.JSONSchemaProps").orElseThrow().properties().keySet()),
                "declaration order");
        assertEquals(Optional.empty(), read.definition(P + "PodSpec"));
    }

    @Test
    void aDamagedLineNamesTheFileAndWhatToDo() throws IOException {
        ModelDefinitions read = read("{\"definitions\":{\n\"Pod\":{\"properties\":{\"spec\":\"#PodSpec\"\n}}\n");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> read.definition(P + "Pod"));
        assertTrue(e.getMessage().contains(BuiltinSchemas.SCHEMAS_RESOURCE) && e.getMessage().contains("rebuild"),
                e.getMessage());
    }

    private static ModelDefinitions read(String text) throws IOException {
        return ModelDefinitionsJson.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }
}

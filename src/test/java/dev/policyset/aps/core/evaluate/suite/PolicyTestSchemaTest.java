package dev.policyset.aps.core.evaluate.suite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** docs/policytest.schema.json names exactly the fields the reader accepts (no drift either way). */
class PolicyTestSchemaTest {
    @Test
    void schemaAndReaderAgreeOnFields() throws IOException {
        JsonNode schema = new ObjectMapper().readTree(Path.of("docs/policytest.schema.json").toFile());
        assertEquals(new TreeSet<>(PolicyTestReader.TOP), names(schema.path("properties")));
        JsonNode item = schema.path("properties").path("cases").path("items");
        assertEquals(new TreeSet<>(PolicyTestReader.CASE), names(item.path("properties")));
        assertEquals(new TreeSet<>(PolicyTestReader.EXPECT), names(item.path("properties").path("expect").path("properties")));
        assertEquals(PolicyTestReader.API_VERSION, schema.path("properties").path("apiVersion").path("const").asText());
    }

    private static Set<String> names(JsonNode properties) {
        Set<String> out = new TreeSet<>();
        properties.fieldNames().forEachRemaining(out::add);
        return out;
    }
}

package dev.policyset.aps.core.yaml;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One YAML or JSON document of an input file.
 *
 * @param source the file it came from, as the user named it
 * @param line   1-based line where the document starts
 * @param index  0-based position of the document in its file
 */
public record Document(String source, int line, int index, JsonNode content) {
    public String kind() {
        return content.path("kind").asText("");
    }

    public String apiVersion() {
        return content.path("apiVersion").asText("");
    }

    public String name() {
        return content.path("metadata").path("name").asText("");
    }
}

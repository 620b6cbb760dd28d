package dev.policyset.aps.core.yaml;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;

/**
 * One YAML or JSON document of an input file.
 *
 * @param source the file it came from, as the user named it
 * @param line   1-based line where the document starts
 * @param index  0-based position of the document in its file
 * @param lines  the line of every value, by Kubernetes-style path ({@code spec.validations[0].expression})
 */
public record Document(String source, int line, int index, JsonNode content, Map<String, Integer> lines) {
    public Document {
        lines = Map.copyOf(lines);
    }

    public String kind() {
        return content.path("kind").asText("");
    }

    public String apiVersion() {
        return content.path("apiVersion").asText("");
    }

    public String name() {
        return content.path("metadata").path("name").asText("");
    }

    /**
     * The line of a field, or of its nearest ancestor that is in the document (a finding about a missing
     * field points at its parent), or the document's first line.
     */
    public int lineOf(String fieldPath) {
        String path = fieldPath;
        while (!path.isEmpty()) {
            Integer found = lines.get(path);
            if (found != null) {
                return found;
            }
            int cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
            path = cut < 0 ? "" : path.substring(0, cut);
        }
        return line;
    }
}

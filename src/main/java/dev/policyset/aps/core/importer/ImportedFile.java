package dev.policyset.aps.core.importer;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/**
 * One file the import writes: its path relative to the output directory and its documents (sets, or a PolicyTest).
 *
 * @param test true for a converted test file (run by {@code aps test} after the import)
 */
public record ImportedFile(String path, List<JsonNode> documents, boolean test) {
    public ImportedFile {
        documents = List.copyOf(documents);
    }
}

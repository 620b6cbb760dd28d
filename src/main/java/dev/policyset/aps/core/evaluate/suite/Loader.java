package dev.policyset.aps.core.evaluate.suite;

import dev.policyset.aps.core.yaml.Document;

import java.util.List;

/** Reads what a test file names (paths relative to the test file): a file, or a directory searched for YAML. */
@FunctionalInterface
public interface Loader {
    /** @throws LoadException saying why (not found, not YAML with its line, ...) */
    List<Document> load(String relativePath) throws LoadException;

    final class LoadException extends Exception {
        public LoadException(String message) {
            super(message);
        }
    }
}

package dev.policyset.aps.core.evaluate.suite;

/** Why a test file cannot be run: its file, the line, and what to fix. */
public record Problem(String file, int line, String message) {
    public String describe() {
        return file + ":" + line + ": " + message;
    }
}

package dev.policyset.aps.cli;

import dev.policyset.aps.core.validate.Finding;

/**
 * A finding with the input location the CLI knows for its object: the file, and the line where the object's
 * document (or its set's) starts. {@code file} and {@code line} are null when unknown.
 */
record LocatedFinding(Finding finding, String file, Integer line) {}

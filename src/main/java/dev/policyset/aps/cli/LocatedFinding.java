package dev.policyset.aps.cli;

import dev.policyset.aps.core.finding.Finding;

/**
 * A finding with its input location: the file, and the line of the field to fix (in a set, the member's field
 * the generated object's field came from; for a missing field, its parent). {@code file} and {@code line} are
 * null when unknown.
 */
record LocatedFinding(Finding finding, String file, Integer line) {}

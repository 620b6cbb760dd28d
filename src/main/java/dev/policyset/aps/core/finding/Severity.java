package dev.policyset.aps.core.finding;

import java.util.Locale;

/** Finding severities, most severe first (the declaration order is the sort order). */
public enum Severity {
    ERROR, WARNING, INFO;

    /** The contract's spelling: {@code error}, {@code warning}, {@code info}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}

package dev.policyset.aps.core.intercept;

/** Three-valued logic for symbolic matching: a part of the request that is not known can leave a test undecided. */
enum Tri {
    YES, NO, UNKNOWN;

    static Tri of(boolean b) {
        return b ? YES : NO;
    }

    Tri and(Tri other) {
        if (this == NO || other == NO) {
            return NO;
        }
        return this == UNKNOWN || other == UNKNOWN ? UNKNOWN : YES;
    }

    Tri or(Tri other) {
        if (this == YES || other == YES) {
            return YES;
        }
        return this == UNKNOWN || other == UNKNOWN ? UNKNOWN : NO;
    }

    Tri not() {
        return this == YES ? NO : this == NO ? YES : UNKNOWN;
    }
}

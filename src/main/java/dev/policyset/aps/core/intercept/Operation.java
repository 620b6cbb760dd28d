package dev.policyset.aps.core.intercept;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/** An admission operation ({@code admissionregistration/v1 OperationType} without the {@code *} wildcard). */
public enum Operation {
    CREATE, UPDATE, DELETE, CONNECT;

    /** CREATE and UPDATE: the writes that make or change an object (what recovery and heartbeats need). */
    public static final Set<Operation> WRITES = Set.copyOf(EnumSet.of(CREATE, UPDATE));

    public static Optional<Operation> parse(String text) {
        for (Operation o : values()) {
            if (o.name().equals(text)) {
                return Optional.of(o);
            }
        }
        return Optional.empty();
    }
}

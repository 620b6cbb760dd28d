package dev.policyset.aps.core.model;

import java.util.List;

/** {@code spec.safety}: whether safety errors block (the default) and which are waived. */
public record SafetySettings(Enforcement enforcement, List<Exemption> exemptions) {
    public enum Enforcement { BLOCK, WARN }

    public static final SafetySettings DEFAULT = new SafetySettings(Enforcement.BLOCK, List.of());

    public SafetySettings {
        exemptions = List.copyOf(exemptions);
    }
}

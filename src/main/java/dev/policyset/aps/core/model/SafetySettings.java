package dev.policyset.aps.core.model;

import java.util.List;

/**
 * {@code spec.safety}: whether safety errors block (the default) and which are waived, and how sure a type-checking
 * finding (APS602) is: a warning by default, an error when the set asks for it.
 */
public record SafetySettings(Enforcement enforcement, List<Exemption> exemptions, TypeChecking typeChecking) {
    public enum Enforcement { BLOCK, WARN }

    /** {@code spec.safety.typeChecking}: the severity of APS602 findings. */
    public enum TypeChecking { WARN, ERROR }

    public static final SafetySettings DEFAULT = new SafetySettings(Enforcement.BLOCK, List.of());

    public SafetySettings {
        exemptions = List.copyOf(exemptions);
        typeChecking = typeChecking == null ? TypeChecking.WARN : typeChecking;
    }

    public SafetySettings(Enforcement enforcement, List<Exemption> exemptions) {
        this(enforcement, exemptions, TypeChecking.WARN);
    }
}

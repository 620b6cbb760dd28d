package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.finding.Finding;

import java.util.List;

/**
 * One safety rule with a stable ID (DESIGN §4; IDs are never renumbered). A rule sees the whole input at
 * once and reports every occurrence, not the first.
 */
public interface SafetyRule {
    String id();

    List<Finding> check(SafetyContext context);

    /**
     * Whether a set's exemptions and {@code enforcement: Warn} may soften this rule's findings. False for rules
     * that guard the cluster's other owners (APS403: softening it would mean taking an object over).
     */
    default boolean waivable() {
        return true;
    }
}

package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.validate.Finding;

import java.util.List;

/**
 * One safety rule with a stable ID (DESIGN §4; IDs are never renumbered). A rule sees the whole input at
 * once and reports every occurrence, not the first.
 */
public interface SafetyRule {
    String id();

    List<Finding> check(SafetyContext context);
}

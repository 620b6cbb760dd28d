package dev.policyset.aps.core.plan;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySetStatus;
import dev.policyset.aps.core.status.StatusCalculator;
import io.fabric8.kubernetes.api.model.Condition;

import java.time.Instant;
import java.util.List;

/**
 * The {@code EnforcementHeld} condition of a set that asks for {@code spec.safety.requireNoViolationsBeforeDeny}:
 * True (reason {@code ViolationsFound}) while a binding that asks for Deny is applied with its previous actions,
 * with one sentence per binding saying why; False ({@code AsExpected}) when none is held.
 */
final class EnforcementCondition {
    static final String TYPE = "EnforcementHeld";
    static final String REASON_HELD = "ViolationsFound";
    static final String REASON_NONE = "AsExpected";

    private EnforcementCondition() {}

    static Condition of(List<String> held, AdmissionPolicySetStatus previous, long generation, Instant now) {
        String status = held.isEmpty() ? "False" : "True";
        String since = previous == null || previous.getConditions() == null ? null : previous.getConditions().stream()
                .filter(c -> TYPE.equals(c.getType()) && status.equals(c.getStatus()))
                .map(Condition::getLastTransitionTime).filter(t -> t != null && !t.isEmpty()).findFirst().orElse(null);
        Condition c = new Condition();
        c.setType(TYPE);
        c.setStatus(status);
        c.setReason(held.isEmpty() ? REASON_NONE : REASON_HELD);
        c.setMessage(held.isEmpty() ? "no binding is held back from Deny (spec.safety.requireNoViolationsBeforeDeny)"
                : String.join("; ", held));
        c.setObservedGeneration(generation);
        c.setLastTransitionTime(since != null ? since : StatusCalculator.timestamp(now));
        return c;
    }
}

package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.finding.Finding;

import java.util.List;

/**
 * APS101: a mutating webhook asks to be reinvoked ({@code reinvocationPolicy: IfNeeded}), so the API server may call it
 * a second time for one request, on an object that already carries its own mutation.
 *
 * <p>Risk model: a mutation that is not idempotent is then applied twice (two sidecars, a label appended twice).
 * Unlike a MutatingAdmissionPolicy's (APS102), a webhook's mutation lives in its code and cannot be checked here, so
 * the rule only notes it ({@code info}). An unset {@code reinvocationPolicy} is {@code Never}, the conservative
 * default, and is not reported.
 */
public final class Aps101ImplicitReinvocation implements SafetyRule {
    @Override
    public String id() {
        return "APS101";
    }

    @Override
    public List<Finding> check(SafetyContext context) {
        return WebhookRef.all(context).stream()
                .filter(WebhookRef::mutating)
                .filter(w -> w.reinvocationPolicy().orElse("Never").equals("IfNeeded"))
                .map(w -> Finding.info(id(), w.id(), w.field("reinvocationPolicy"),
                        w.label() + " has reinvocationPolicy IfNeeded: when a later mutation changes the object, the API "
                                + "server calls it again on an object that already carries its own mutation. Its mutation "
                                + "must be idempotent (check for what it adds before adding it); this check cannot see the "
                                + "webhook's code. Use Never if it does not need to see later mutations"))
                .toList();
    }
}

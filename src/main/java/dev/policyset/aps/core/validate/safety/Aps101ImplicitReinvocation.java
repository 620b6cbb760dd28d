package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.validate.Finding;

import java.util.List;

/** APS101: a mutating webhook leaves {@code reinvocationPolicy} implicit (the API server defaults it to Never). */
public final class Aps101ImplicitReinvocation implements SafetyRule {
    @Override
    public String id() {
        return "APS101";
    }

    @Override
    public List<Finding> check(SafetyContext context) {
        return WebhookRef.all(context).stream()
                .filter(WebhookRef::mutating)
                .filter(w -> w.reinvocationPolicy().isEmpty())
                .map(w -> Finding.warning(id(), w.id(), w.field("reinvocationPolicy"),
                        w.label() + " leaves reinvocationPolicy unset, so it defaults to Never: if a later mutating "
                                + "webhook or policy changes the object, this webhook's mutation is not re-checked. "
                                + "Set reinvocationPolicy explicitly: Never, or IfNeeded when the mutation is idempotent"))
                .toList();
    }
}

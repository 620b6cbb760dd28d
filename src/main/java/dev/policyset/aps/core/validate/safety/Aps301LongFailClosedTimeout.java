package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.finding.Finding;

import java.util.List;

/**
 * APS301: a fail-closed webhook waits more than 10 s. Every request it intercepts hangs that long while the
 * backend is unreachable, and clients (kubectl, controllers) time out and retry on top.
 */
public final class Aps301LongFailClosedTimeout implements SafetyRule {
    static final int LIMIT_SECONDS = 10;

    @Override
    public String id() {
        return "APS301";
    }

    @Override
    public List<Finding> check(SafetyContext context) {
        return WebhookRef.all(context).stream()
                .filter(w -> w.failClosed() && w.timeoutSeconds() > LIMIT_SECONDS)
                .map(w -> Finding.warning(id(), w.id(), w.field("timeoutSeconds"),
                        w.label() + " has " + w.failureDescription() + " and timeoutSeconds " + w.timeoutSeconds()
                                + ": while its backend is unreachable every request it intercepts waits "
                                + w.timeoutSeconds() + " s before it is refused. Use at most " + LIMIT_SECONDS
                                + " s (a healthy webhook answers in milliseconds)"))
                .toList();
    }
}

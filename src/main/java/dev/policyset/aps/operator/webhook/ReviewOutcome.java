package dev.policyset.aps.operator.webhook;

import java.util.Locale;

/** What the webhook answered to one request at {@link WebhookServer#PATH}: the {@code outcome} tag of its metrics. */
public enum ReviewOutcome {
    /** Admitted without warnings (also every request that is not a write of a set: none of the webhook's business). */
    ALLOWED,
    /** Refused: the set has error findings. */
    DENIED,
    /** Admitted with warnings (findings below error, ratcheted errors, or a set that could not be judged yet). */
    WARNED,
    /** Not an {@code admission.k8s.io/v1} AdmissionReview, or too large: answered with HTTP 400 or 413. */
    MALFORMED,
    /** The handler failed (a bug): answered with HTTP 500. */
    ERROR;

    /** The tag value: the name in lower case. */
    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}

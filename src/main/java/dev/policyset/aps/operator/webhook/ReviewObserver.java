package dev.policyset.aps.operator.webhook;

import java.time.Duration;

/**
 * Told of every answered review: how it ended and how long it took from the request's arrival to the answer sent
 * (judging included, TLS handshake not). The operator's is {@code OperatorMetrics#webhookReviewed}.
 */
@FunctionalInterface
public interface ReviewObserver {
    ReviewObserver NONE = (outcome, latency) -> { };

    void reviewed(ReviewOutcome outcome, Duration latency);
}

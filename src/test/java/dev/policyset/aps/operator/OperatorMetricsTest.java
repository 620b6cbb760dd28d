package dev.policyset.aps.operator;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.operator.webhook.ReviewOutcome;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OperatorMetricsTest {
    @Test
    void findingsGaugeCountsEverySetWhenReconcilesReportInParallel() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        OperatorMetrics metrics = new OperatorMetrics(registry);
        int sets = 400;
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < sets; i++) {
            String set = "set-" + i;
            done.add(pool.submit(() -> metrics.observe(set, List.of(
                    Finding.info("APS701", "ValidatingAdmissionPolicy/" + set, "spec", "costly"),
                    Finding.warning("APS402", "ValidatingAdmissionPolicy/" + set, "", "no binding")), 6)));
        }
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));

        assertEquals(sets, gauge(registry, "APS701", "info").value());
        assertEquals(sets, gauge(registry, "APS402", "warning").value());
        assertEquals(6.0 * sets, registry.get("aps.owned.objects").gauge().value());

        metrics.forget("set-0");
        assertEquals(sets - 1, gauge(registry, "APS701", "info").value());
        for (int i = 1; i < sets; i++) {
            metrics.observe("set-" + i, List.of(), 6);
        }
        assertNull(registry.find("aps.findings").tags("rule", "APS701").gauge(), "a rule with no findings left has no row");
    }

    @Test
    void webhookReviewsAreCountedByOutcomeAndTimed() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        OperatorMetrics metrics = new OperatorMetrics(registry);
        for (ReviewOutcome outcome : ReviewOutcome.values()) {
            assertEquals(0.0, reviews(registry, outcome.tag()), outcome + " is there before the first review");
        }
        metrics.webhookReviewed(ReviewOutcome.ALLOWED, Duration.ofMillis(3));
        metrics.webhookReviewed(ReviewOutcome.DENIED, Duration.ofMillis(40));
        metrics.webhookReviewed(ReviewOutcome.DENIED, Duration.ofMillis(60));
        metrics.webhookReviewed(ReviewOutcome.WARNED, Duration.ofMillis(5));
        metrics.webhookReviewed(ReviewOutcome.MALFORMED, Duration.ofMillis(1));

        assertEquals(List.of("allowed", "denied", "warned", "malformed", "error"),
                java.util.Arrays.stream(ReviewOutcome.values()).map(ReviewOutcome::tag).toList());
        assertEquals(1.0, reviews(registry, "allowed"));
        assertEquals(2.0, reviews(registry, "denied"));
        assertEquals(1.0, reviews(registry, "warned"));
        assertEquals(1.0, reviews(registry, "malformed"));
        assertEquals(0.0, reviews(registry, "error"));
        Timer latency = registry.get("aps.webhook.latency").timer();
        assertEquals(5, latency.count());
        assertEquals(109.0, latency.totalTime(TimeUnit.MILLISECONDS), 1e-9);
        assertEquals(60.0, latency.max(TimeUnit.MILLISECONDS), 1e-9);
    }

    @Test
    void readyGaugeFollowsEachSetAndLeavesWithIt() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        OperatorMetrics metrics = new OperatorMetrics(registry);
        metrics.ready("a", true);
        metrics.ready("b", false);
        assertEquals(1.0, registry.get("aps.set.ready").tag("set", "a").gauge().value());
        assertEquals(0.0, registry.get("aps.set.ready").tag("set", "b").gauge().value());
        metrics.ready("a", false);
        metrics.ready("b", true);
        assertEquals(0.0, registry.get("aps.set.ready").tag("set", "a").gauge().value());
        assertEquals(1.0, registry.get("aps.set.ready").tag("set", "b").gauge().value());
        metrics.forget("a");
        assertNull(registry.find("aps.set.ready").tag("set", "a").gauge(), "a deleted set leaves no series that alerts");
        assertEquals(1, registry.find("aps.set.ready").gauges().size());
    }

    private static double reviews(SimpleMeterRegistry registry, String outcome) {
        return registry.get("aps.webhook.reviews").tag("outcome", outcome).counter().count();
    }

    private static Gauge gauge(SimpleMeterRegistry registry, String rule, String severity) {
        return registry.get("aps.findings").tags("rule", rule, "severity", severity).gauge();
    }
}

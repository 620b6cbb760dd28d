package dev.policyset.aps.install;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The metric-name extraction MetricNamesTest relies on, on PromQL whose names are known. */
class MonitoringQueriesTest {
    @Test
    void namesAreTheSelectorsNotFunctionsLabelsKeywordsOrDurations() {
        assertEquals(Set.of("aps_webhook_latency_seconds_bucket"), MonitoringQueries.metricNames(
                "histogram_quantile(0.99, sum by (namespace, le) (rate(aps_webhook_latency_seconds_bucket{job=\"x\"}[5m]))) > 2"));
        assertEquals(Set.of("a_total", "b_total"), MonitoringQueries.metricNames(
                "sum without (pod) (rate(a_total{outcome=~\"error|x\"}[5m] offset 1h)) / on(namespace) group_left(team) b_total > bool 1e3"));
        assertEquals(Set.of("up"), MonitoringQueries.metricNames("absent(up{job=\"admission-policy-operator-metrics\"} == 1)"));
        assertEquals(Set.of("aps_set_ready"), MonitoringQueries.metricNames("count(aps_set_ready == 0) or vector(0)"));
        assertEquals(Set.of("x:rate5m"), MonitoringQueries.metricNames("max_over_time(x:rate5m[1h:5m]) unless 0x1f"));
    }

    @Test
    void exposedNamesAreTheSampleNames() {
        String scrape = """
                # HELP aps_set_ready 1 while Ready
                # TYPE aps_set_ready gauge
                aps_set_ready{set="a"} 1.0
                aps_webhook_latency_seconds_bucket{le="0.001"} 0
                process_uptime_seconds 12.5
                """;
        assertEquals(List.of("aps_set_ready", "aps_webhook_latency_seconds_bucket", "process_uptime_seconds"),
                List.copyOf(MonitoringQueries.exposedNames(scrape)));
    }

    @Test
    void everyShippedQueryReadsAMetric() {
        List<MonitoringQueries.Query> queries = MonitoringQueries.shipped(ProjectFiles.root());
        assertTrue(queries.size() >= 10, "alerts and panels: " + queries);
        for (MonitoringQueries.Query q : queries) {
            assertFalse(MonitoringQueries.metricNames(q.expr()).isEmpty(), q.source() + " reads no metric: " + q.expr());
        }
    }
}

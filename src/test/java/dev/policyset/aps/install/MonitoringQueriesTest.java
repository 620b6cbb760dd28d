package dev.policyset.aps.install;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The metric-name extraction ImpactScanReconcilerTest relies on, on PromQL whose names are known; and every shipped
 * expression parsed by Prometheus' own parser (test/promql/build.sh builds it; skipped without it, failed with
 * {@code -Daps.promql.required=true}, as in CI).
 */
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

    @Test
    void everyShippedQueryParsesWithPrometheusOwnParser() throws Exception {
        java.nio.file.Path checker = promqlCheck();
        List<MonitoringQueries.Query> queries = MonitoringQueries.shipped(ProjectFiles.root());
        StringBuilder input = new StringBuilder("\"sum(rate(x[5m])\"\n"); // a known-bad line first: the checker is live
        for (MonitoringQueries.Query q : queries) {
            input.append(ProjectFiles.JSON.writer().without(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(q.expr())).append('\n');
        }
        Process p = new ProcessBuilder(checker.toString()).start();
        p.getOutputStream().write(input.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        p.getOutputStream().close();
        List<String> answers = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                .lines().toList();
        assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS) && p.exitValue() == 0, "promql-check failed");
        assertEquals(queries.size() + 1, answers.size(), answers.toString());
        assertTrue(answers.get(0).startsWith("error: "), "the unclosed parenthesis must be refused: " + answers.get(0));
        List<String> bad = new java.util.ArrayList<>();
        for (int i = 0; i < queries.size(); i++) {
            if (!answers.get(i + 1).equals("ok")) {
                bad.add(queries.get(i).source() + ": " + answers.get(i + 1) + " in " + queries.get(i).expr());
            }
        }
        assertEquals(List.of(), bad);
    }

    /** ~/.cache/aps/promql/&lt;the prometheus version test/promql/module/go.mod pins&gt;/promql-check. */
    private static java.nio.file.Path promqlCheck() throws java.io.IOException {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^require github\\.com/prometheus/prometheus v([0-9.]+)$")
                .matcher(java.nio.file.Files.readString(ProjectFiles.root().resolve("test/promql/module/go.mod")));
        assertTrue(m.find(), "test/promql/module/go.mod pins no prometheus version");
        String dir = System.getenv().getOrDefault("APS_PROMQL_DIR", System.getProperty("user.home") + "/.cache/aps/promql");
        java.nio.file.Path checker = java.nio.file.Path.of(dir, m.group(1), "promql-check");
        boolean built = java.nio.file.Files.isExecutable(checker);
        if (!built && Boolean.getBoolean("aps.promql.required")) {
            throw new IllegalStateException(checker + " is missing and aps.promql.required is set (CI): run test/promql/build.sh");
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(built, "Prometheus' PromQL parser is not built: run test/promql/build.sh "
                + "(into " + checker + "); the shipped expressions are not parsed");
        return checker;
    }
}

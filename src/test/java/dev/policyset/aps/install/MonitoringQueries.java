package dev.policyset.aps.install;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The PromQL the shipped alerts (config/prometheus) and dashboards (config/grafana) run, and the metric names each
 * expression reads. Not a PromQL parser: it removes what cannot be a metric name (string literals, label matchers
 * {@code {...}}, range and subquery selectors {@code [...]}, grouping lists after by/without/on/ignoring/group_left/
 * group_right, numbers and durations), then every identifier left that is not a function call or keyword is a metric.
 */
public final class MonitoringQueries {
    /** Where a query comes from (file and alert or panel) and its expression. */
    public record Query(String source, String expr) {}

    /** Series Prometheus makes itself for each scrape target; no exporter serves them. */
    public static final Set<String> PROMETHEUS_SYNTHETIC = Set.of("up", "scrape_duration_seconds", "scrape_samples_scraped");

    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right",
            "bool", "and", "or", "unless", "offset", "atan2", "inf", "nan");
    private static final Pattern STRINGS = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`");
    private static final Pattern BRACES = Pattern.compile("\\{[^}]*}");
    private static final Pattern BRACKETS = Pattern.compile("\\[[^]]*]");
    private static final Pattern GROUPING = Pattern.compile(
            "\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", Pattern.CASE_INSENSITIVE);
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w.])([a-zA-Z_:][a-zA-Z0-9_:]*)(\\s*\\()?");

    private MonitoringQueries() {}

    /** Every alert and recording rule of config/prometheus and every panel query of config/grafana's dashboards. */
    public static List<Query> shipped(Path root) {
        List<Query> queries = new ArrayList<>();
        Path rules = root.resolve("config/prometheus/prometheus_rule.yaml");
        for (JsonNode group : ProjectFiles.readYaml(rules).path("spec").path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                String name = rule.has("alert") ? rule.path("alert").asText() : rule.path("record").asText();
                queries.add(new Query(root.relativize(rules) + " " + name, rule.path("expr").asText()));
            }
        }
        try (Stream<Path> files = Files.list(root.resolve("config/grafana"))) {
            for (Path dashboard : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                for (JsonNode panel : ProjectFiles.YAML_READER.readTree(dashboard.toFile()).path("panels")) {
                    for (JsonNode target : panel.path("targets")) {
                        queries.add(new Query(root.relativize(dashboard) + " panel '" + panel.path("title").asText()
                                + "' " + target.path("refId").asText(), target.path("expr").asText()));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return queries;
    }

    /** The metric names one PromQL expression reads. */
    public static Set<String> metricNames(String promql) {
        String s = STRINGS.matcher(promql).replaceAll(" ");
        s = BRACES.matcher(s).replaceAll(" ");
        s = BRACKETS.matcher(s).replaceAll(" ");
        s = GROUPING.matcher(s).replaceAll(" ");
        Set<String> names = new LinkedHashSet<>();
        Matcher m = IDENTIFIER.matcher(s);
        while (m.find()) {
            String id = m.group(1);
            boolean call = m.group(2) != null;
            if (!call && !KEYWORDS.contains(id.toLowerCase(java.util.Locale.ROOT)) && !isNumberSuffix(s, m.start())) {
                names.add(id);
            }
        }
        return names;
    }

    /** {@code 1e3}, {@code 0x1f}: an identifier glued to a digit is part of a number. */
    private static boolean isNumberSuffix(String s, int start) {
        return start > 0 && Character.isDigit(s.charAt(start - 1));
    }

    /** The sample names of a Prometheus text exposition (the part of each non-comment line before '{' or ' '). */
    public static Set<String> exposedNames(String exposition) {
        Set<String> names = new LinkedHashSet<>();
        for (String line : exposition.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int end = line.length();
            for (char c : new char[] {'{', ' '}) {
                int i = line.indexOf(c);
                if (i >= 0 && i < end) {
                    end = i;
                }
            }
            names.add(line.substring(0, end));
        }
        return names;
    }
}

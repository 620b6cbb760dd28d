package dev.policyset.aps.core.impact;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * An impact scan as OpenReports ({@code openreports.io/v1alpha1}): one {@code Report} per namespace that has a
 * result, and one {@code ClusterReport} for cluster-scoped objects (always, so a clean scan shows as an empty report).
 * Policy Reporter and other report UIs read these (docs/impact.md, "Policy reports", says why this format).
 *
 * <p>A result per (binding, object): {@code policy} the ValidatingAdmissionPolicy, {@code rule} the binding,
 * {@code result} {@code fail} (the binding denies it now: a violation under {@code Deny}, or denied whatever the
 * actions), {@code warn} (a violation the binding only warns about or audits), {@code error} (evaluation failed) or
 * {@code pass}. Only results in the filter are listed; a report lists at most {@code maxResults}, the most severe
 * first (fail, error, warn, pass), and says in an annotation how many it left out and of which kind. The summary
 * counts what the report lists; both limits are also written to the report's {@code configuration.limits}, where
 * the OpenReports API puts them.
 */
public final class OpenReports {
    public static final String API_VERSION = "openreports.io/v1alpha1";
    public static final String SOURCE = "admission-policy-operator";
    /** Annotation: results left out by the size cap, e.g. {@code 12 (fail 10, warn 2)}. */
    public static final String OMITTED_ANNOTATION = "admission.policyset.dev/omitted-results";
    /** The result values of the OpenReports API, most severe first (also the order a capped report keeps). */
    public static final List<String> RESULTS = List.of("fail", "error", "warn", "pass", "skip");
    /** What a report lists unless told otherwise: what needs attention, not the passes (they would fill etcd). */
    public static final Set<String> DEFAULT_FILTER = Set.of("fail", "error", "warn");
    public static final int DEFAULT_MAX_RESULTS = 1000;

    /**
     * @param name       every report's metadata.name (one per namespace, so one name serves all)
     * @param filter     results listed, of {@link #RESULTS}
     * @param maxResults results listed per report at most
     * @param labels     extra metadata.labels (the operator's: which set)
     */
    public record Options(String name, Set<String> filter, int maxResults, Instant now, Map<String, String> labels) {
        public Options {
            filter = Set.copyOf(filter);
            labels = Map.copyOf(labels);
            for (String r : filter) {
                if (!RESULTS.contains(r)) {
                    throw new IllegalArgumentException("result filter '" + r + "': expected some of " + RESULTS);
                }
            }
            if (maxResults < 1) {
                throw new IllegalArgumentException("maxResults " + maxResults + ": expected 1 or more");
            }
        }
    }

    private OpenReports() {}

    /** The reports: the ClusterReport first, then one Report per namespace in name order. */
    public static List<ObjectNode> of(ImpactReport report, Options options) {
        Map<String, List<ObjectNode>> byNamespace = new TreeMap<>();
        byNamespace.put("", new ArrayList<>());
        for (BindingImpact b : report.bindings()) {
            for (ObjectVerdict v : b.verdicts()) {
                ObjectNode result = result(b, v, options.now());
                if (options.filter().contains(result.path("result").asText())) {
                    byNamespace.computeIfAbsent(v.namespace(), n -> new ArrayList<>()).add(result);
                }
            }
        }
        List<ObjectNode> out = new ArrayList<>();
        for (Map.Entry<String, List<ObjectNode>> e : byNamespace.entrySet()) {
            if (!e.getKey().isEmpty() && e.getValue().isEmpty()) {
                continue;
            }
            out.add(report(e.getKey(), e.getValue(), options));
        }
        return out;
    }

    private static ObjectNode report(String namespace, List<ObjectNode> results, Options options) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode r = f.objectNode();
        r.put("apiVersion", API_VERSION).put("kind", namespace.isEmpty() ? "ClusterReport" : "Report");
        ObjectNode meta = r.putObject("metadata");
        meta.put("name", options.name());
        if (!namespace.isEmpty()) {
            meta.put("namespace", namespace);
        }
        ObjectNode labels = meta.putObject("labels");
        labels.put("app.kubernetes.io/managed-by", SOURCE);
        options.labels().forEach(labels::put);
        List<ObjectNode> sorted = new ArrayList<>(results);
        sorted.sort(Comparator.comparingInt(o -> RESULTS.indexOf(o.path("result").asText())));
        List<ObjectNode> kept = sorted.subList(0, Math.min(sorted.size(), options.maxResults()));
        List<ObjectNode> cut = sorted.subList(kept.size(), sorted.size());
        if (!cut.isEmpty()) {
            meta.putObject("annotations").put(OMITTED_ANNOTATION, cut.size() + " (" + counts(cut) + "; at most "
                    + options.maxResults() + " per report)");
        }
        r.put("source", SOURCE);
        ObjectNode limits = r.putObject("configuration").putObject("limits");
        limits.put("maxResults", options.maxResults());
        ArrayNode filter = limits.putArray("statusFilter");
        RESULTS.stream().filter(options.filter()::contains).forEach(filter::add);
        ObjectNode summary = r.putObject("summary");
        for (String name : List.of("pass", "fail", "warn", "error", "skip")) {
            summary.put(name, kept.stream().filter(o -> name.equals(o.path("result").asText())).count());
        }
        ArrayNode list = r.putArray("results");
        kept.forEach(list::add);
        return r;
    }

    private static String counts(List<ObjectNode> results) {
        Map<String, Integer> n = new LinkedHashMap<>();
        RESULTS.forEach(k -> n.put(k, 0));
        results.forEach(o -> n.merge(o.path("result").asText(), 1, Integer::sum));
        List<String> parts = new ArrayList<>();
        n.forEach((k, v) -> {
            if (v > 0) {
                parts.add(k + " " + v);
            }
        });
        return String.join(", ", parts);
    }

    private static ObjectNode result(BindingImpact b, ObjectVerdict v, Instant now) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("source", SOURCE).put("policy", b.policy()).put("rule", b.binding()).put("category", "ValidatingAdmissionPolicy");
        o.put("result", resultOf(b, v));
        o.put("scored", true);
        if (!v.message().isEmpty()) {
            o.put("message", v.message());
        }
        o.putObject("timestamp").put("seconds", now.getEpochSecond()).put("nanos", now.getNano());
        ObjectNode ref = o.putArray("resources").addObject();
        ref.put("apiVersion", v.apiVersion()).put("kind", v.kind()).put("name", v.name());
        if (!v.namespace().isEmpty()) {
            ref.put("namespace", v.namespace());
        }
        if (!v.uid().isEmpty()) {
            ref.put("uid", v.uid());
        }
        ObjectNode props = o.putObject("properties");
        props.put("binding", b.binding()).put("validationActions", String.join(",", b.actions()))
                .put("failurePolicy", b.failClosed() ? "Fail" : "Ignore").put("operation", v.operation());
        return o;
    }

    /** fail: the binding refuses the object's next write as it stands; warn: it only warns or audits. */
    static String resultOf(BindingImpact b, ObjectVerdict v) {
        return switch (v.outcome()) {
            case ObjectVerdict.PASS -> "pass";
            case ObjectVerdict.DENIED -> "fail";
            case ObjectVerdict.ERROR -> "error";
            default -> b.enforces() ? "fail" : "warn";
        };
    }

    /** A comma-separated filter ({@code fail,warn}), checked. */
    public static Set<String> parseFilter(String text) {
        Set<String> out = new LinkedHashSet<>();
        for (String part : text.split(",")) {
            String r = part.trim().toLowerCase(Locale.ROOT);
            if (!r.isEmpty()) {
                out.add(r);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("an empty result filter: expected some of " + RESULTS);
        }
        return out;
    }
}

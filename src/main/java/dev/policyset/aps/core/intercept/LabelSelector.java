package dev.policyset.aps.core.intercept;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@code metav1.LabelSelector} (namespaceSelector, objectSelector) read leniently: entries of the wrong type are
 * skipped (the API-server rules report them). An absent or empty selector matches everything, as
 * {@code labels.Selector.Empty()} does upstream.
 *
 * <p>The only namespace label nobody can change is {@link #NAME_LABEL}, set by the API server to the namespace's
 * name. Requirements on any other label are {@linkplain Requirement#isOptOut() opt-outs} (NotIn, DoesNotExist) or
 * opt-ins (In, Exists, matchLabels); how each is judged against labels known only in part is {@link LabelSet}'s.
 */
public record LabelSelector(Map<String, String> matchLabels, List<Requirement> requirements) {
    public static final String NAME_LABEL = "kubernetes.io/metadata.name";
    public static final LabelSelector EVERYTHING = new LabelSelector(Map.of(), List.of());

    public LabelSelector {
        matchLabels = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(matchLabels));
        requirements = List.copyOf(requirements);
    }

    /** One {@code matchExpressions} entry, with its index in the list. */
    public record Requirement(int index, String key, String operator, List<String> values) {
        public Requirement {
            values = List.copyOf(values);
        }

        /** An opt-out: objects carrying the label (with these values) are left out. */
        public boolean isOptOut() {
            return operator.equals("NotIn") || operator.equals("DoesNotExist");
        }

        boolean satisfiedBy(String value) {
            return switch (operator) {
                case "In" -> value != null && values.contains(value);
                case "NotIn" -> value == null || !values.contains(value);
                case "Exists" -> value != null;
                case "DoesNotExist" -> value == null;
                default -> true; // unknown operator: the API-server rules report it
            };
        }

        String describe() {
            return key + " " + operator + (values.isEmpty() ? "" : " " + values);
        }
    }

    public static LabelSelector read(JsonNode node) {
        if (node == null || !node.isObject()) {
            return EVERYTHING;
        }
        Map<String, String> labels = new LinkedHashMap<>();
        JsonNode ml = node.get("matchLabels");
        if (ml != null && ml.isObject()) {
            ml.fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().isTextual() ? e.getValue().asText() : null));
        }
        List<Requirement> reqs = new ArrayList<>();
        JsonNode list = node.get("matchExpressions");
        if (list != null && list.isArray()) {
            for (int i = 0; i < list.size(); i++) {
                JsonNode e = list.get(i);
                if (e.isObject() && e.path("key").isTextual() && e.path("operator").isTextual()) {
                    reqs.add(new Requirement(i, e.get("key").asText(), e.get("operator").asText(), Rule.strings(e.get("values"))));
                }
            }
        }
        return new LabelSelector(labels, reqs);
    }

    public boolean isEmpty() {
        return matchLabels.isEmpty() && requirements.isEmpty();
    }

    /** Whether a label set known exactly matches. */
    public boolean matches(Map<String, String> labels) {
        return evaluate(LabelSet.exactly(labels)).value() == Tri.YES;
    }

    /** Opt-out requirements on labels other than the namespace name label (those a label writer controls). */
    public List<Requirement> mutableOptOuts() {
        return requirements.stream().filter(Requirement::isOptOut).filter(r -> !r.key().equals(NAME_LABEL)).toList();
    }

    /**
     * Whether one label set can satisfy all of {@code selectors} at once (so the webhooks or policies they belong to
     * can all see the same namespace, or the same object). Label values are free; only contradictions on one key
     * make it impossible: {@code In [a]} with {@code In [b]}, {@code Exists} with {@code DoesNotExist}, a value both
     * required and excluded.
     */
    public static boolean satisfiable(java.util.Collection<LabelSelector> selectors) {
        Map<String, Boolean> exists = new LinkedHashMap<>();
        Map<String, java.util.Set<String>> allowed = new LinkedHashMap<>();
        Map<String, java.util.Set<String>> forbidden = new LinkedHashMap<>();
        for (LabelSelector s : selectors) {
            for (var e : s.matchLabels().entrySet()) {
                if (e.getValue() == null) {
                    return false; // a non-string value matches nothing
                }
                if (!require(exists, allowed, e.getKey(), java.util.Set.of(e.getValue()))) {
                    return false;
                }
            }
            for (Requirement r : s.requirements()) {
                boolean ok = switch (r.operator()) {
                    case "In" -> require(exists, allowed, r.key(), new java.util.HashSet<>(r.values()));
                    case "Exists" -> exists.merge(r.key(), true, (a, b) -> a && b ? true : null) != null;
                    case "DoesNotExist" -> exists.merge(r.key(), false, (a, b) -> !a && !b ? false : null) != null;
                    case "NotIn" -> {
                        forbidden.computeIfAbsent(r.key(), k -> new java.util.HashSet<>()).addAll(r.values());
                        yield true;
                    }
                    default -> true;
                };
                if (!ok) {
                    return false;
                }
            }
        }
        for (var e : allowed.entrySet()) {
            java.util.Set<String> left = new java.util.HashSet<>(e.getValue());
            left.removeAll(forbidden.getOrDefault(e.getKey(), java.util.Set.of()));
            if (left.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** The key must exist with one of {@code values}; false when that contradicts what is already required. */
    private static boolean require(Map<String, Boolean> exists, Map<String, java.util.Set<String>> allowed, String key,
                                   java.util.Set<String> values) {
        if (Boolean.FALSE.equals(exists.get(key))) {
            return false;
        }
        exists.put(key, true);
        allowed.merge(key, new java.util.HashSet<>(values), (a, b) -> {
            a.retainAll(b);
            return a;
        });
        return !allowed.get(key).isEmpty();
    }

    /** The result and, when it is not YES, the requirement that decided it. */
    record Judgement(Tri value, String because) {}

    Judgement evaluate(LabelSet set) {
        Tri result = Tri.YES;
        String because = "";
        for (var e : matchLabels.entrySet()) {
            Tri t = one(set, e.getKey(), v -> v != null && v.equals(e.getValue()), false);
            if (t != Tri.YES && result != Tri.NO) {
                result = result.and(t);
                because = "matchLabels " + e.getKey() + "=" + e.getValue();
            }
        }
        for (Requirement r : requirements) {
            Tri t = one(set, r.key(), r::satisfiedBy, r.isOptOut());
            if (t != Tri.YES && result != Tri.NO) {
                result = result.and(t);
                because = "matchExpressions[" + r.index() + "] " + r.describe();
            }
        }
        return new Judgement(result, because);
    }

    private static Tri one(LabelSet set, String key, java.util.function.Predicate<String> test, boolean optOut) {
        if (set.labels().containsKey(key) || !set.open()) {
            return Tri.of(test.test(set.labels().get(key)));
        }
        // Not known: an opt-in label is assumed absent, an opt-out label may be there (LabelSet).
        return optOut ? Tri.UNKNOWN : Tri.of(test.test(null));
    }
}

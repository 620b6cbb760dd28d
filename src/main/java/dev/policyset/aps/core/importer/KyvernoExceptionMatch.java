package dev.policyset.aps.core.importer;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A Kyverno PolicyException's {@code spec.match} as one CEL expression over {@code request}, the object and
 * {@code namespaceObject}, true when Kyverno's engine would say the exception matches
 * ({@code kyverno/kyverno: pkg/engine/utils/exceptions.go: checkMatchesResources, checkResourceDescription};
 * kinds as {@code pkg/utils/match/kind.go: CheckKind} with {@code pkg/utils/kube/kind.go: ParseKindSelector},
 * namespaces as {@code pkg/utils/match/match.go: CheckNameSpace}).
 */
final class KyvernoExceptionMatch {
    /** What the match has that CEL over the request cannot say; the message says what to do. */
    static final class Unsupported extends Exception {
        Unsupported(String message) {
            super(message);
        }
    }

    private static final Pattern VERSION = Pattern.compile("^(v\\d+((alpha|beta)\\d+)?|\\*)$");

    private KyvernoExceptionMatch() {}

    /** The expression for {@code match}; {@code obj} is the CEL expression of the object the request is about. */
    static String expression(JsonNode match, String obj) throws Unsupported {
        if (match.path("any").size() > 0) {
            return join(filters(match.path("any"), obj), " || ");
        }
        if (match.path("all").size() > 0) {
            return join(filters(match.path("all"), obj), " && ");
        }
        // Kyverno: a match without any/all matches nothing
        return "false";
    }

    private static List<String> filters(JsonNode list, String obj) throws Unsupported {
        List<String> out = new ArrayList<>();
        for (JsonNode f : list) {
            out.add(filter(f, obj));
        }
        return out;
    }

    private static String filter(JsonNode f, String obj) throws Unsupported {
        for (String user : List.of("subjects", "roles", "clusterRoles")) {
            if (f.path(user).size() > 0) {
                throw new Unsupported("the exception matches by " + user + ", which " + (user.equals("subjects")
                        ? "this import does not translate" : "the API server does not pass to a policy") + ": write it as "
                        + "a policies.kyverno.io PolicyException with a matchCondition on request.userInfo, then import");
            }
        }
        JsonNode r = f.path("resources");
        if (r.path("annotations").size() > 0) {
            throw new Unsupported("the exception matches by annotations, which this import does not translate: write it as "
                    + "a policies.kyverno.io PolicyException with a matchCondition on object.metadata.annotations, then import");
        }
        List<String> terms = new ArrayList<>();
        if (r.path("kinds").size() > 0) {
            List<String> kinds = new ArrayList<>();
            r.get("kinds").forEach(k -> kinds.add(kind(k.asText())));
            terms.add(join(kinds, " || "));
        }
        // the name, or generateName when it has none (checkResourceDescription)
        String name = "(" + obj + ".metadata.?name.orValue('') != '' ? " + obj + ".metadata.name : " + obj
                + ".metadata.?generateName.orValue(''))";
        if (!r.path("name").asText("").isEmpty()) {
            terms.add(wildcard(name, r.get("name").asText()));
        }
        if (r.path("names").size() > 0) {
            List<String> names = new ArrayList<>();
            r.get("names").forEach(n -> names.add(wildcard(name, n.asText())));
            terms.add(join(names, " || "));
        }
        if (r.path("namespaces").size() > 0) {
            String namespace = "(request.kind.kind == 'Namespace' ? " + name + " : request.namespace)";
            List<String> namespaces = new ArrayList<>();
            r.get("namespaces").forEach(n -> namespaces.add(wildcard(namespace, n.asText())));
            terms.add(join(namespaces, " || "));
        }
        if (r.hasNonNull("selector")) {
            terms.add(selector(r.get("selector"), "has(" + obj + ".metadata.labels)", obj + ".metadata.labels"));
        }
        if (r.hasNonNull("namespaceSelector")) {
            // Kyverno does not apply it to Namespaces; a cluster-scoped object's namespace labels are empty
            terms.add("(request.kind.kind == 'Namespace' || " + selector(r.get("namespaceSelector"),
                    "namespaceObject != null && has(namespaceObject.metadata.labels)", "namespaceObject.metadata.labels") + ")");
        }
        // Kyverno: a filter with nothing in it matches nothing
        return terms.isEmpty() ? "false" : join(terms, " && ");
    }

    /** A kind selector: Kind, version/Kind, group/version/Kind, with /subresource, wildcards in each part. */
    static String kind(String selector) {
        List<String> parts = new ArrayList<>(Arrays.asList(selector.split("/", -1)));
        String last = parts.remove(parts.size() - 1);
        parts.addAll(Arrays.asList(last.split("\\.", -1)));
        String group = "*";
        String version = "*";
        String kind;
        String sub = "";
        switch (parts.size()) {
            case 1 -> kind = parts.get(0);
            case 2 -> {
                if (parts.get(0).equals("*") && parts.get(1).equals("*")) {
                    return "true";
                } else if (VERSION.matcher(parts.get(0)).matches()) {
                    version = parts.get(0);
                    kind = parts.get(1);
                } else {
                    kind = parts.get(0);
                    sub = parts.get(1);
                }
            }
            case 3 -> {
                if (VERSION.matcher(parts.get(0)).matches()) {
                    version = parts.get(0);
                    kind = parts.get(1);
                    sub = parts.get(2);
                } else {
                    group = parts.get(0);
                    version = parts.get(1);
                    kind = parts.get(2);
                }
            }
            case 4 -> {
                group = parts.get(0);
                version = parts.get(1);
                kind = parts.get(2);
                sub = parts.get(3);
            }
            default -> {
                return "false";
            }
        }
        List<String> terms = new ArrayList<>();
        for (String[] p : List.of(new String[]{"request.kind.group", group}, new String[]{"request.kind.version", version},
                new String[]{"request.kind.kind", kind})) {
            if (!p[1].equals("*")) {
                terms.add(wildcard(p[0], p[1]));
            }
        }
        // the request leaves subResource out when it is empty
        String subResource = "request.?subResource.orValue('')";
        if (kind.equals("Pod") && sub.isEmpty()) {
            // CheckKind lets a Pod selector match the ephemeralcontainers subresource
            terms.add(subResource + " in ['', 'ephemeralcontainers']");
        } else if (!sub.equals("*")) {
            terms.add(wildcard(subResource, sub));
        }
        return terms.isEmpty() ? "true" : join(terms, " && ");
    }

    /** A label selector over {@code labels} (present when {@code present}): matchLabels and matchExpressions. */
    private static String selector(JsonNode selector, String present, String labels) {
        List<String> terms = new ArrayList<>();
        selector.path("matchLabels").fields().forEachRemaining(e -> terms.add("(" + present + " && " + quote(e.getKey())
                + " in " + labels + " && " + labels + "[" + quote(e.getKey()) + "] == " + quote(e.getValue().asText()) + ")"));
        for (JsonNode e : selector.path("matchExpressions")) {
            String key = quote(e.path("key").asText());
            String has = present + " && " + key + " in " + labels;
            List<String> values = new ArrayList<>();
            e.path("values").forEach(v -> values.add(quote(v.asText())));
            String in = "(" + has + " && " + labels + "[" + key + "] in [" + String.join(", ", values) + "])";
            terms.add(switch (e.path("operator").asText()) {
                case "In" -> in;
                case "NotIn" -> "!" + in;
                case "Exists" -> "(" + has + ")";
                case "DoesNotExist" -> "!(" + has + ")";
                // an invalid operator: Kyverno's CheckSelector errs, which is no match
                default -> "false";
            });
        }
        return terms.isEmpty() ? "true" : join(terms, " && ");
    }

    private static String wildcard(String expression, String pattern) {
        return Wildcard.has(pattern) ? expression + ".matches(" + quote(Wildcard.regex(pattern)) + ")"
                : expression + " == " + quote(pattern);
    }

    static String quote(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    private static String join(List<String> terms, String op) {
        return terms.size() == 1 ? terms.get(0) : "(" + String.join(op, terms) + ")";
    }
}

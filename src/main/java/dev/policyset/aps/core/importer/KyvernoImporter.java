package dev.policyset.aps.core.importer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.PodControllers;
import dev.policyset.aps.core.yaml.Document;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static dev.policyset.aps.core.importer.SetDocuments.JSON;

/**
 * Kyverno policies into sets: {@code policies.kyverno.io} ValidatingPolicy (and NamespacedValidatingPolicy) nearly
 * field for field, MutatingPolicy (and NamespacedMutatingPolicy) into MutatingAdmissionPolicies
 * ({@link KyvernoMutatingPolicies}), and {@code kyverno.io/v1} ClusterPolicy/Policy rules written with {@code validate.cel}, one
 * ValidatingAdmissionPolicy per rule, as Kyverno's own generator builds them ({@code kyverno/kyverno:
 * pkg/admissionpolicy/builder.go}: kinds to resource rules, CEL preconditions to matchConditions,
 * {@code validationFailureAction} Enforce → [Deny], Audit → [Audit, Warn]). Pod-controller autogen is on for a
 * policy that matches Pods alone, as Kyverno has it (off with {@code pod-policies.kyverno.io/autogen-controllers:
 * none} or ValidatingPolicy {@code spec.autogen.podControllers.controllers: []}, or for the whole import with
 * {@code --autogen=false}, which measures what an importer without autogen passes). What has no native form is refused
 * per rule (docs/import.md).
 */
public final class KyvernoImporter {
    /**
     * One imported rule, ValidatingPolicy or MutatingPolicy: the Kyverno policy and rule, the policy it became
     * ({@code mutating}: a MutatingAdmissionPolicy), its autogen.
     */
    public record Converted(String policy, String rule, String vapName, List<String> podControllers, boolean mutating) {}

    private static final List<String> OPERATIONS = List.of("CREATE", "UPDATE");

    private KyvernoImporter() {}

    public static boolean isClusterPolicy(Document d) {
        return (d.kind().equals("ClusterPolicy") || d.kind().equals("Policy")) && d.apiVersion().startsWith("kyverno.io/");
    }

    public static boolean isValidatingPolicy(Document d) {
        return (d.kind().equals("ValidatingPolicy") || d.kind().equals("NamespacedValidatingPolicy"))
                && d.apiVersion().startsWith("policies.kyverno.io/");
    }

    public static boolean isMutatingPolicy(Document d) {
        return KyvernoMutatingPolicies.isMutatingPolicy(d);
    }

    /** Imports every Kyverno policy of {@code documents}: one set per source file. */
    public static ImportResult importAll(List<Document> documents, boolean autogen) {
        ImportResult result = new ImportResult();
        Map<String, ObjectNode> setsByFile = new LinkedHashMap<>();
        List<KyvernoExceptions.Target> targets = new ArrayList<>();
        for (Document d : documents) {
            List<ObjectNode> members = new ArrayList<>();
            List<Converted> converted = convert(d, result, members, autogen);
            // convert adds a member and what it became together, so the two lists line up
            for (int i = 0; i < converted.size(); i++) {
                String namespace = d.content().path("metadata").path("namespace").asText("");
                boolean namespaced = d.kind().equals("Policy") || d.kind().startsWith("Namespaced");
                targets.add(new KyvernoExceptions.Target((namespaced && !namespace.isEmpty() ? namespace + "/" : "")
                        + d.name(), converted.get(i).rule(), isClusterPolicy(d) ? "" : d.kind(), members.get(i), d.source()));
            }
            if (!members.isEmpty()) {
                ObjectNode set = setsByFile.computeIfAbsent(d.source(), f -> SetDocuments.set(
                        "kyverno-" + f.replaceAll("\\.(ya?ml|json)$", ""), "kyverno:" + f));
                members.forEach((isMutatingPolicy(d) ? SetDocuments.mutatingPolicies(set) : SetDocuments.validatingPolicies(set))::add);
            }
        }
        KyvernoExceptions.apply(documents, targets, result);
        setsByFile.forEach((file, set) -> result.add(new ImportedFile(file, List.of(set), false)));
        return result;
    }

    /** Converts one document into set members; returns what each imported rule became. */
    public static List<Converted> convert(Document d, ImportResult result, List<ObjectNode> members, boolean autogen) {
        List<Converted> converted = new ArrayList<>();
        if (!d.content().path("spec").isObject()) {
            // no spec: not a policy but an assertion on one (the suites' chainsaw policy-ready.yaml checks its status),
            // skipped as a ClusterPolicy without rules is
            return converted;
        }
        if (isValidatingPolicy(d)) {
            validatingPolicy(d, result, autogen).ifPresent(m -> {
                members.add(m);
                converted.add(new Converted(d.name(), "", m.path("name").asText(), controllers(m), false));
                result.countPolicy();
            });
        } else if (isMutatingPolicy(d)) {
            KyvernoMutatingPolicies.convert(d, result, autogen).ifPresent(m -> {
                members.add(m);
                converted.add(new Converted(d.name(), "", m.path("name").asText(), List.of(), true));
                result.countMutatingPolicy();
            });
        } else if (isClusterPolicy(d)) {
            JsonNode rules = d.content().path("spec").path("rules");
            for (int i = 0; i < rules.size(); i++) {
                String vapName = SetDocuments.dnsName(rules.size() == 1 ? d.name() : d.name() + "-" + rules.get(i).path("name").asText("rule-" + i));
                Optional<ObjectNode> m = rule(d, rules.get(i), "spec.rules[" + i + "]", vapName, result, autogen);
                if (m.isPresent()) {
                    members.add(m.get());
                    converted.add(new Converted(d.name(), rules.get(i).path("name").asText(""), vapName, controllers(m.get()), false));
                    result.countPolicy();
                }
            }
        }
        return converted;
    }

    private static List<String> controllers(ObjectNode member) {
        List<String> c = new ArrayList<>();
        member.path("autogen").path("podControllers").forEach(x -> c.add(x.asText()));
        return c;
    }

    // ---- ValidatingPolicy -------------------------------------------------------------------------------------

    static Optional<ObjectNode> validatingPolicy(Document d, ImportResult result, boolean autogen) {
        JsonNode spec = d.content().path("spec");
        String object = d.kind() + "/" + d.name();
        if (!spec.path("evaluation").path("admission").path("enabled").asBoolean(true)) {
            return refuse(result, d, ImportRules.BACKGROUND_ONLY, object, "spec.evaluation.admission.enabled",
                    "the policy runs only in background scans (admission disabled): a native policy runs only at admission; "
                    + "keep it in Kyverno");
        }
        if ("JSON".equalsIgnoreCase(spec.path("evaluation").path("mode").asText("Kubernetes"))) {
            return refuse(result, d, ImportRules.UNSUPPORTED_RULE, object, "spec.evaluation.mode",
                    "evaluation mode JSON validates JSON payloads outside admission: it has no native form; keep it in Kyverno");
        }
        Optional<String> library = libraries(spec);
        if (library.isPresent()) {
            return refuse(result, d, ImportRules.UNSUPPORTED_LIBRARY, object, "spec",
                    "an expression calls Kyverno's " + library.get() + " library, which the API server does not have: "
                    + "rewrite it without it (e.g. a param object instead of a lookup), or keep the policy in Kyverno");
        }
        ObjectNode policy = JSON.objectNode();
        for (String f : List.of("paramKind", "matchConstraints", "matchConditions", "variables", "validations",
                "auditAnnotations", "failurePolicy")) {
            if (spec.has(f) && !spec.get(f).isNull()) {
                policy.set(f, spec.get(f).deepCopy());
            }
        }
        if (d.kind().equals("NamespacedValidatingPolicy") && !d.content().path("metadata").path("namespace").asText("").isEmpty()) {
            // namespaced: only requests in its own namespace (a native policy is cluster-scoped)
            ObjectNode c = (ObjectNode) policy.withArray("matchConditions").insertObject(0);
            c.put("name", "kyverno-namespace");
            c.put("expression", "request.namespace == '" + d.content().path("metadata").path("namespace").asText() + "'");
        }
        ObjectNode member = JSON.objectNode();
        member.put("name", SetDocuments.dnsName(d.name()));
        List<String> controllers = new ArrayList<>();
        JsonNode configured = spec.path("autogen").path("podControllers").path("controllers");
        if (configured.isArray()) {
            configured.forEach(c -> controllers.add(c.asText().toLowerCase(Locale.ROOT)));
        } else {
            PodControllers.CONTROLLERS.forEach(c -> controllers.add(c.resource()));
        }
        putAutogen(member, policy, autogen ? controllers : List.of());
        member.set("policy", policy);
        ObjectNode binding = member.putArray("bindings").addObject();
        binding.put("name", SetDocuments.dnsName(d.name()) + "-binding");
        ObjectNode bspec = binding.putObject("spec");
        ArrayNode actions = bspec.putArray("validationActions");
        JsonNode given = spec.path("validationActions");
        if (given.isArray() && !given.isEmpty()) {
            given.forEach(a -> actions.add(a.asText()));
        } else {
            actions.add("Deny");
        }
        return Optional.of(member);
    }

    // ---- ClusterPolicy / Policy -------------------------------------------------------------------------------

    static Optional<ObjectNode> rule(Document d, JsonNode rule, String at, String vapName, ImportResult result,
                                     boolean autogen) {
        JsonNode spec = d.content().path("spec");
        String object = d.kind() + "/" + d.name() + " rule " + rule.path("name").asText("");
        for (String kind : List.of("generate", "mutate", "verifyImages")) {
            if (rule.has(kind)) {
                return refuse(result, d, ImportRules.UNSUPPORTED_RULE, object, at + "." + kind, "a " + kind
                        + " rule has no ValidatingAdmissionPolicy form: keep it in Kyverno (a mutate rule may be rewritten "
                        + "as a MutatingPolicy)");
            }
        }
        JsonNode validate = rule.path("validate");
        if (validate.has("foreach")) {
            return refuse(result, d, ImportRules.FOREACH, object, at + ".validate.foreach", "foreach iterates with "
                    + "JMESPath: rewrite the rule as validate.cel with .all()/.exists() over the list, then import it");
        }
        if (!validate.has("cel")) {
            String what = validate.has("pattern") ? "pattern" : validate.has("anyPattern") ? "anyPattern"
                    : validate.has("deny") ? "deny" : validate.has("podSecurity") ? "podSecurity" : validate.has("manifests")
                    ? "manifests" : "no validate";
            return refuse(result, d, ImportRules.NOT_CEL, object, at + ".validate", "the rule is written with " + what
                    + " (JMESPath/patterns), which only Kyverno evaluates: rewrite it as validate.cel (Kyverno's -cel "
                    + "policies show how), then import it");
        }
        if (rule.has("context")) {
            return refuse(result, d, ImportRules.UNSUPPORTED_RULE, object, at + ".context", "context entries (apiCall, "
                    + "configMap, globalReference, imageRegistry) load data at admission, which a native policy cannot: use a "
                    + "param (paramKind/paramRef) or keep the rule in Kyverno");
        }
        if (rule.has("preconditions")) {
            return refuse(result, d, ImportRules.NOT_CEL, object, at + ".preconditions", "JMESPath preconditions have no "
                    + "native form: write them as celPreconditions, then import");
        }
        if (!spec.path("admission").asBoolean(true)) {
            return refuse(result, d, ImportRules.BACKGROUND_ONLY, object, "spec.admission", "the policy runs only in "
                    + "background scans (admission: false): a native policy runs only at admission; keep it in Kyverno");
        }
        JsonNode cel = validate.path("cel");
        Optional<String> library = libraries(cel);
        if (library.isPresent()) {
            return refuse(result, d, ImportRules.UNSUPPORTED_LIBRARY, object, at + ".validate.cel", "an expression calls "
                    + library.get() + ", which the API server does not have: rewrite it, or keep the rule in Kyverno");
        }
        ObjectNode policy = JSON.objectNode();
        if (cel.has("paramKind")) {
            policy.set("paramKind", cel.get("paramKind").deepCopy());
        }
        Optional<String> matchProblem = match(rule, policy);
        if (matchProblem.isPresent()) {
            return refuse(result, d, ImportRules.MATCH, object, at + ".match", matchProblem.get());
        }
        if (d.kind().equals("Policy") && !d.content().path("metadata").path("namespace").asText("").isEmpty()) {
            ObjectNode c = policy.withArray("matchConditions").addObject();
            c.put("name", "kyverno-policy-namespace");
            c.put("expression", "request.namespace == '" + d.content().path("metadata").path("namespace").asText() + "'");
        }
        rule.path("celPreconditions").forEach(c -> policy.withArray("matchConditions").add(c.deepCopy()));
        if (cel.has("variables")) {
            policy.set("variables", cel.get("variables").deepCopy());
        }
        policy.set("validations", cel.path("expressions").deepCopy());
        if (cel.has("auditAnnotations")) {
            policy.set("auditAnnotations", cel.get("auditAnnotations").deepCopy());
        }
        policy.put("failurePolicy", spec.path("failurePolicy").asText("Fail"));
        ObjectNode member = JSON.objectNode();
        member.put("name", vapName);
        String annotation = d.content().path("metadata").path("annotations").path("pod-policies.kyverno.io/autogen-controllers").asText(null);
        List<String> controllers = new ArrayList<>();
        if (annotation == null) {
            PodControllers.CONTROLLERS.forEach(c -> controllers.add(c.resource()));
        } else if (!annotation.equalsIgnoreCase("none")) {
            for (String kind : annotation.split(",")) {
                PodControllers.CONTROLLERS.stream().filter(c -> c.kind().equalsIgnoreCase(kind.trim())).forEach(c -> controllers.add(c.resource()));
            }
        }
        putAutogen(member, policy, autogen ? controllers : List.of());
        member.set("policy", policy);
        ObjectNode binding = member.putArray("bindings").addObject();
        binding.put("name", vapName + "-binding");
        ObjectNode bspec = binding.putObject("spec");
        if (cel.has("paramRef")) {
            bspec.set("paramRef", cel.get("paramRef").deepCopy());
        }
        String action = validate.path("failureAction").asText(validate.path("validationFailureAction")
                .asText(spec.path("validationFailureAction").asText("Audit")));
        ArrayNode actions = bspec.putArray("validationActions");
        if (action.equalsIgnoreCase("Enforce")) {
            actions.add("Deny");
        } else {
            actions.add("Audit").add("Warn");
        }
        return Optional.of(member);
    }

    /** Kyverno autogen, rendered by the set: on when the policy matches Pods alone and controllers are left. */
    private static void putAutogen(ObjectNode member, ObjectNode policy, List<String> controllers) {
        if (!controllers.isEmpty() && PodControllers.ineligibility(policy).isEmpty()) {
            ArrayNode list = member.putObject("autogen").putArray("podControllers");
            PodControllers.CONTROLLERS.stream().filter(c -> controllers.contains(c.resource())).forEach(c -> list.add(c.resource()));
        }
    }

    /** match/exclude into matchConstraints; the reason when it cannot be written so. */
    static Optional<String> match(JsonNode rule, ObjectNode policy) {
        JsonNode match = rule.path("match");
        List<JsonNode> filters = new ArrayList<>();
        match.path("any").forEach(filters::add);
        if (match.path("all").size() > 1) {
            return Optional.of("match.all with several filters (an intersection) has no matchConstraints form; use match.any "
                    + "or one filter and celPreconditions");
        }
        match.path("all").forEach(filters::add);
        if (match.has("resources")) {
            filters.add(match);
        }
        if (filters.isEmpty()) {
            return Optional.of("the rule has no match.any, match.all or match.resources");
        }
        ObjectNode constraints = policy.putObject("matchConstraints");
        ArrayNode rules = constraints.putArray("resourceRules");
        JsonNode selector = null;
        JsonNode namespaceSelector = null;
        List<String> namespaces = null;
        for (JsonNode f : filters) {
            for (String unsupported : List.of("subjects", "roles", "clusterRoles")) {
                if (f.has(unsupported)) {
                    return Optional.of("match by " + unsupported + " (the requesting user) has no matchConstraints form: "
                            + "write it as a celPrecondition on request.userInfo, then import");
                }
            }
            JsonNode r = f.path("resources");
            if (r.has("annotations")) {
                return Optional.of("match by annotations has no matchConstraints form: write it as a celPrecondition");
            }
            if (r.has("selector") && selector != null && !selector.equals(r.get("selector"))
                    || r.has("namespaceSelector") && namespaceSelector != null && !namespaceSelector.equals(r.get("namespaceSelector"))) {
                return Optional.of("match filters with different selectors cannot share one matchConstraints");
            }
            selector = r.has("selector") ? r.get("selector") : selector;
            namespaceSelector = r.has("namespaceSelector") ? r.get("namespaceSelector") : namespaceSelector;
            if (r.has("namespaces")) {
                List<String> ns = new ArrayList<>();
                r.get("namespaces").forEach(n -> ns.add(n.asText()));
                if (ns.stream().anyMatch(n -> n.contains("*") || n.contains("?")) || namespaces != null && !namespaces.equals(ns)) {
                    return Optional.of("match.resources.namespaces with wildcards or differing between filters: write it as "
                            + "a celPrecondition on request.namespace");
                }
                namespaces = ns;
            }
            List<String> operations = new ArrayList<>();
            r.path("operations").forEach(o -> operations.add(o.asText()));
            List<String> names = new ArrayList<>();
            r.path("names").forEach(n -> names.add(n.asText()));
            if (r.has("name")) {
                names.add(r.get("name").asText());
            }
            if (names.stream().anyMatch(n -> n.contains("*") || n.contains("?"))) {
                return Optional.of("match by name with wildcards has no matchConstraints form: write it as a celPrecondition");
            }
            if (!r.has("kinds") || r.get("kinds").isEmpty()) {
                return Optional.of("a match filter without kinds");
            }
            for (JsonNode k : r.get("kinds")) {
                Optional<KyvernoKinds.Rule> kind = KyvernoKinds.of(k.asText());
                if (kind.isEmpty()) {
                    return Optional.of("kind '" + k.asText() + "' (a wildcard) has no resource rule form");
                }
                ObjectNode rr = rules.addObject();
                rr.putArray("apiGroups").add(kind.get().group());
                rr.putArray("apiVersions").add(kind.get().version());
                rr.putArray("resources").add(kind.get().resource());
                (operations.isEmpty() ? OPERATIONS : operations).forEach(rr.withArray("operations")::add);
                if (!names.isEmpty()) {
                    names.forEach(rr.withArray("resourceNames")::add);
                }
            }
        }
        if (selector != null) {
            constraints.set("objectSelector", selector.deepCopy());
        }
        ObjectNode nsSelector = namespaceSelector == null ? null : namespaceSelector.deepCopy();
        if (namespaces != null) {
            nsSelector = nsSelector == null ? JSON.objectNode() : nsSelector;
            ObjectNode e = nsSelector.withArray("matchExpressions").addObject();
            e.put("key", "kubernetes.io/metadata.name").put("operator", "In");
            namespaces.forEach(e.putArray("values")::add);
        }
        return exclude(rule.path("exclude"), constraints, nsSelector);
    }

    private static Optional<String> exclude(JsonNode exclude, ObjectNode constraints, ObjectNode nsSelector) {
        List<JsonNode> filters = new ArrayList<>();
        exclude.path("any").forEach(filters::add);
        exclude.path("all").forEach(filters::add);
        if (exclude.has("resources")) {
            filters.add(exclude);
        }
        List<String> excludedNamespaces = new ArrayList<>();
        for (JsonNode f : filters) {
            if (f.has("subjects") || f.has("roles") || f.has("clusterRoles")) {
                return Optional.of("exclude by subjects or roles has no matchConstraints form: write it as a celPrecondition "
                        + "on request.userInfo");
            }
            JsonNode r = f.path("resources");
            boolean onlyNamespaces = r.has("namespaces") && r.size() == 1;
            if (onlyNamespaces) {
                for (JsonNode n : r.get("namespaces")) {
                    if (n.asText().contains("*") || n.asText().contains("?")) {
                        return Optional.of("exclude.namespaces with wildcards: write it as a celPrecondition on request.namespace");
                    }
                    excludedNamespaces.add(n.asText());
                }
            } else if (r.has("kinds") && r.size() == 1) {
                for (JsonNode k : r.get("kinds")) {
                    Optional<KyvernoKinds.Rule> kind = KyvernoKinds.of(k.asText());
                    if (kind.isEmpty()) {
                        return Optional.of("excluded kind '" + k.asText() + "' has no resource rule form");
                    }
                    ObjectNode rr = constraints.withArray("excludeResourceRules").addObject();
                    rr.putArray("apiGroups").add(kind.get().group());
                    rr.putArray("apiVersions").add(kind.get().version());
                    rr.putArray("resources").add(kind.get().resource());
                    rr.putArray("operations").add("*");
                }
            } else if (!filters.isEmpty() && !r.isMissingNode()) {
                return Optional.of("exclude by " + String.join(", ", iterable(r.fieldNames())) + " has no matchConstraints "
                        + "form: write it as a celPrecondition");
            }
        }
        if (!excludedNamespaces.isEmpty()) {
            nsSelector = nsSelector == null ? JSON.objectNode() : nsSelector;
            ObjectNode e = nsSelector.withArray("matchExpressions").addObject();
            e.put("key", "kubernetes.io/metadata.name").put("operator", "NotIn");
            excludedNamespaces.forEach(e.putArray("values")::add);
        }
        if (nsSelector != null) {
            constraints.set("namespaceSelector", nsSelector);
        }
        return Optional.empty();
    }

    private static List<String> iterable(java.util.Iterator<String> it) {
        List<String> l = new ArrayList<>();
        it.forEachRemaining(l::add);
        return l;
    }

    static Optional<String> libraries(JsonNode node) {
        if (node.isTextual()) {
            return KyvernoLibraries.calledBy(node.asText());
        }
        for (JsonNode child : node) {
            Optional<String> found = libraries(child);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    static Optional<ObjectNode> refuse(ImportResult result, Document d, String rule, String object, String field,
                                               String message) {
        result.add(new ImportFinding(Finding.error(rule, object, field, message), d.source(), d.lineOf(field)));
        return Optional.empty();
    }
}

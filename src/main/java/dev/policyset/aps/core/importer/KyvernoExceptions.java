package dev.policyset.aps.core.importer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.yaml.Document;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Kyverno PolicyExceptions as negated matchConditions on the policies they exempt: a request the exception
 * matches is not evaluated by the policy, as Kyverno skips the rule for it.
 * <ul>
 *   <li>{@code policies.kyverno.io} PolicyException ({@code spec.policyRefs}, {@code spec.matchConditions}): each
 *   condition negated under its own name, {@code !(expr)}, as Kyverno's generator does
 *   ({@code kyverno/kyverno: pkg/admissionpolicy/builder.go: negateExceptionMatchConditions}).</li>
 *   <li>{@code kyverno.io/v2} and {@code v2beta1} PolicyException ({@code spec.exceptions[].policyName/ruleNames},
 *   {@code spec.match}): the match written in CEL, negated, one condition {@code kyverno-exception-<name>} per
 *   exception, with the semantics of Kyverno's engine ({@code pkg/engine/utils/exceptions.go: MatchesException}):
 *   {@code any} is a union, {@code all} an intersection, an empty match matches nothing; a filter's kinds, names
 *   (or generateName) and namespaces with {@code *}/{@code ?} wildcards, {@code selector} on the object's labels,
 *   {@code namespaceSelector} on its namespace's (not for Namespaces). Operations are not part of it (Kyverno does not
 *   check them either). Kyverno's own generator turns these into excludeResourceRules and refuses conditions and
 *   several ruleNames ({@code kyvernopolicy_checker.go}); CEL keeps names, wildcards and selectors exact.</li>
 * </ul>
 * What CEL cannot express from the request (JMESPath {@code conditions}, {@code podSecurity} controls, annotations,
 * subjects and roles, image and value allowances) is {@code import/Exception}; an exception whose policy or rule
 * was not imported is {@code import/ExceptionTarget}; each applied exception is reported as
 * {@code import/ExceptionApplied}, so the output says the exception became matchConditions.
 */
final class KyvernoExceptions {
    /**
     * A converted policy an exception may name: its Kyverno policy key ({@code ns/name} when namespaced), rule, and
     * the file it came from.
     */
    record Target(String policy, String rule, String kind, ObjectNode member, String source) {
        /** A {@code policies.kyverno.io} policy (ValidatingPolicy, MutatingPolicy, ...), which policyRefs name by kind. */
        boolean celPolicy() {
            return !kind.isEmpty();
        }
    }

    /** The object: the new one, or the old one on DELETE (Kyverno: {@code NewResource}, else {@code OldResource}). */
    private static final String OBJ = "(request.operation == 'DELETE' ? oldObject : object)";

    private KyvernoExceptions() {}

    static boolean isException(Document d) {
        return d.kind().equals("PolicyException") && (d.apiVersion().startsWith("kyverno.io/v2")
                || d.apiVersion().startsWith("policies.kyverno.io/"));
    }

    /** Applies every exception among {@code documents} to {@code targets}; findings for each into {@code result}. */
    static void apply(List<Document> documents, List<Target> targets, ImportResult result) {
        for (Document d : documents) {
            if (isException(d)) {
                if (d.apiVersion().startsWith("policies.kyverno.io/")) {
                    celException(d, targets, result);
                } else {
                    matchException(d, targets, result);
                }
            }
        }
    }

    private static void celException(Document d, List<Target> targets, ImportResult result) {
        JsonNode spec = d.content().path("spec");
        for (String field : List.of("images", "allowedValues")) {
            if (spec.path(field).size() > 0) {
                error(result, d, "spec." + field, "the exception's " + field + " are read by the policy's expressions "
                        + "(exceptions." + (field.equals("images") ? "allowedImages" : "allowedValues") + "), which a native "
                        + "policy cannot: put the values into the policy's variables, or keep the exception in Kyverno");
                return;
            }
        }
        List<ObjectNode> conditions = new ArrayList<>();
        for (JsonNode c : spec.path("matchConditions")) {
            ObjectNode negated = SetDocuments.JSON.objectNode();
            negated.put("name", c.path("name").asText());
            negated.put("expression", "!(" + c.path("expression").asText() + ")");
            conditions.add(negated);
        }
        if (conditions.isEmpty()) {
            warning(result, d, ImportRules.EXCEPTION_TARGET, "spec.matchConditions", "the exception has no matchConditions: "
                    + "it exempts nothing, so nothing is imported from it");
            return;
        }
        JsonNode refs = spec.path("policyRefs");
        for (int i = 0; i < refs.size(); i++) {
            String name = refs.get(i).path("name").asText();
            String key = namespaced(d, refs.get(i).path("kind").asText()) ? namespace(d) + "/" + name : name;
            String kind = refs.get(i).path("kind").asText("ValidatingPolicy");
            List<Target> hit = targets.stream().filter(t -> t.kind().equals(kind) && t.policy().equals(key)).toList();
            applyTo(d, hit, conditions, "spec.policyRefs[" + i + "]", kind + " " + name, result);
        }
    }

    private static String namespace(Document d) {
        return d.content().path("metadata").path("namespace").asText("");
    }

    private static boolean namespaced(Document d, String kind) {
        return kind.startsWith("Namespaced") && !namespace(d).isEmpty();
    }

    private static void matchException(Document d, List<Target> targets, ImportResult result) {
        JsonNode spec = d.content().path("spec");
        if (spec.path("podSecurity").size() > 0) {
            error(result, d, "spec.podSecurity", "podSecurity controls exempt checks inside a validate.podSecurity rule, "
                    + "which is not imported: keep the exception and its policy in Kyverno");
            return;
        }
        if (spec.has("conditions") && !spec.get("conditions").isNull()) {
            error(result, d, "spec.conditions", "conditions are JMESPath, which only Kyverno evaluates: rewrite the "
                    + "exception as a policies.kyverno.io PolicyException with CEL matchConditions, then import");
            return;
        }
        Optional<String> expression;
        try {
            expression = Optional.of(KyvernoExceptionMatch.expression(spec.path("match"), OBJ));
        } catch (KyvernoExceptionMatch.Unsupported e) {
            error(result, d, "spec.match", e.getMessage());
            return;
        }
        ObjectNode condition = SetDocuments.JSON.objectNode();
        condition.put("name", conditionName(d));
        condition.put("expression", "!(" + expression.get() + ")");
        JsonNode exceptions = spec.path("exceptions");
        for (int i = 0; i < exceptions.size(); i++) {
            JsonNode e = exceptions.get(i);
            String policy = e.path("policyName").asText();
            List<String> ruleNames = new ArrayList<>();
            e.path("ruleNames").forEach(r -> ruleNames.add(r.asText()));
            List<Target> hit = targets.stream().filter(t -> !t.celPolicy() && t.policy().equals(policy)
                    && ruleNames.stream().anyMatch(r -> namesRule(r, t.rule()))).toList();
            applyTo(d, hit, List.of(condition), "spec.exceptions[" + i + "]", "policy " + policy + " rules "
                    + String.join(", ", ruleNames), result);
        }
    }

    /** Kyverno's {@code Exception.Contains}: a wildcard rule name; autogen-[cronjob-]rule names the rule's autogen. */
    static boolean namesRule(String pattern, String rule) {
        return Wildcard.matches(pattern, rule) || Wildcard.matches(pattern, "autogen-" + rule)
                || Wildcard.matches(pattern, "autogen-cronjob-" + rule);
    }

    private static void applyTo(Document d, List<Target> named, List<ObjectNode> conditions, String field, String what,
                                ImportResult result) {
        List<Target> hit = nearest(d.source(), named);
        if (hit.isEmpty()) {
            warning(result, d, ImportRules.EXCEPTION_TARGET, field, what + ": no such policy or rule was imported (refused, "
                    + "or not among the inputs), so the exception exempts nothing here; import the policy with it");
            return;
        }
        for (Target t : hit) {
            ObjectNode policy = (ObjectNode) t.member().get("policy");
            List<String> names = new ArrayList<>();
            for (ObjectNode c : conditions) {
                ObjectNode copy = c.deepCopy();
                copy.put("name", unique(policy, c.path("name").asText()));
                policy.withArray("matchConditions").add(copy);
                names.add(copy.path("name").asText());
            }
            result.add(new ImportFinding(Finding.info(ImportRules.EXCEPTION_APPLIED, "PolicyException/" + d.name(), field,
                    "the exception became matchCondition(s) " + String.join(", ", names) + " (negated) on policy "
                    + t.member().path("name").asText() + ": requests it matches are not evaluated, as Kyverno skips them"),
                    d.source(), d.lineOf(field)));
        }
    }

    /**
     * Of the policies an exception names, those in the folder nearest to the exception's file: a folder of
     * independent tests (Kyverno's test/cli) defines one policy name in several of them, and an exception belongs to
     * its own. In a cluster the name is unique and this is every one.
     */
    static List<Target> nearest(String exceptionFile, List<Target> named) {
        int best = named.stream().mapToInt(t -> sharedFolders(exceptionFile, t.source())).max().orElse(0);
        return named.stream().filter(t -> sharedFolders(exceptionFile, t.source()) == best).toList();
    }

    private static int sharedFolders(String a, String b) {
        String[] x = a.split("/");
        String[] y = b.split("/");
        int n = 0;
        while (n < x.length - 1 && n < y.length - 1 && x[n].equals(y[n])) {
            n++;
        }
        return n;
    }

    /** A matchCondition name (a qualified name, at most 63 characters) for the exception. */
    private static String conditionName(Document d) {
        String name = SetDocuments.dnsName("kyverno-exception-" + (namespace(d).isEmpty() ? "" : namespace(d) + "-") + d.name())
                .replace('.', '-');
        return SetDocuments.labelValue(name);
    }

    private static String unique(ObjectNode policy, String name) {
        List<String> taken = new ArrayList<>();
        policy.path("matchConditions").forEach(c -> taken.add(c.path("name").asText()));
        String unique = name;
        for (int n = 2; taken.contains(unique); n++) {
            String suffix = "-" + n;
            unique = (name.length() + suffix.length() > 63 ? name.substring(0, 63 - suffix.length()) : name) + suffix;
        }
        return unique;
    }

    private static void error(ImportResult result, Document d, String field, String message) {
        result.add(new ImportFinding(Finding.error(ImportRules.EXCEPTION, "PolicyException/" + d.name(), field, message),
                d.source(), d.lineOf(field)));
    }

    private static void warning(ImportResult result, Document d, String rule, String field, String message) {
        result.add(new ImportFinding(Finding.warning(rule, "PolicyException/" + d.name(), field, message), d.source(),
                d.lineOf(field)));
    }
}

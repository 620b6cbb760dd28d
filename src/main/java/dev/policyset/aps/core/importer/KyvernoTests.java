package dev.policyset.aps.core.importer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.evaluate.KindResources;
import dev.policyset.aps.core.evaluate.suite.Loader;
import dev.policyset.aps.core.intercept.BuiltinResources;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.PodControllers;
import dev.policyset.aps.core.render.Names;
import dev.policyset.aps.core.yaml.Document;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static dev.policyset.aps.core.importer.SetDocuments.JSON;

/**
 * {@code kyverno-test.yaml} ({@code cli.kyverno.io} Test) into a PolicyTest beside it ({@code <name>.aps-test.yaml}):
 * each result's resource becomes a case whose {@code decisions} say whether the policy the rule became is violated
 * ({@code fail}) or not ({@code pass}, {@code skip}) whatever its validationActions, as Kyverno's verdict is the
 * rule's whatever its failure action. A resource of a pod controller is judged by the rule's autogen policy
 * ({@code <policy>-autogen}, {@code <policy>-autogen-cronjobs}). The test's {@code policies} paths stay as they are:
 * the import writes each policy file's set at the same relative path. Namespace resources and the namespaces of the
 * test's values are the namespaces fixture; the values' operation and subresources shape each case's request
 * ({@link KyvernoValues}).
 */
public final class KyvernoTests {
    private KyvernoTests() {}

    public static boolean isTest(Document d) {
        JsonNode c = d.content();
        return c.isObject() && c.path("results").isArray() && c.path("policies").isArray()
                && ("Test".equals(d.kind()) && d.apiVersion().startsWith("cli.kyverno.io/") || !c.has("kind"));
    }

    public static void convert(Document test, Loader loader, String outputDir, boolean autogen, ImportResult result) {
        JsonNode t = test.content();
        Map<String, KyvernoImporter.Converted> rules = new HashMap<>();
        Map<String, String> refused = new HashMap<>();
        // ClusterPolicies and Policies: the kinds whose rules Kyverno gives the values' JMESPath variables
        Set<String> legacy = new HashSet<>();
        List<String> policyFiles = new ArrayList<>();
        for (JsonNode p : t.path("policies")) {
            try {
                for (Document d : loader.load(p.asText())) {
                    ImportResult own = new ImportResult();
                    List<KyvernoImporter.Converted> converted = KyvernoImporter.convert(d, own, new ArrayList<>(), autogen);
                    converted.forEach(c -> rules.put(c.policy() + "/" + c.rule(), c));
                    if (KyvernoImporter.isClusterPolicy(d)) {
                        legacy.add(d.name());
                    }
                    // a file whose policies were all refused has no set to name
                    if (!converted.isEmpty() && !policyFiles.contains(p.asText())) {
                        policyFiles.add(p.asText());
                    }
                    own.findings().forEach(f -> refused.putIfAbsent(d.name(), f.finding().rule()));
                }
            } catch (Loader.LoadException e) {
                note(result, test, "policies", "policy '" + p.asText() + "': " + e.getMessage());
            }
        }
        List<JsonNode> resources = new ArrayList<>();
        for (JsonNode r : t.path("resources")) {
            try {
                loader.load(r.asText()).stream().filter(d -> d.content().isObject()).forEach(d -> resources.add(d.content()));
            } catch (Loader.LoadException e) {
                note(result, test, "resources", "resource file '" + r.asText() + "': " + e.getMessage());
            }
        }
        Optional<KyvernoValues> loaded = values(test, loader, result);
        if (loaded.isEmpty()) {
            return;
        }
        KyvernoValues values = loaded.get();
        String name = test.name().isEmpty() ? "kyverno-test" : test.name();
        String file = test.source().substring(test.source().lastIndexOf('/') + 1).replaceAll("\\.(ya?ml|json)$", "");
        ObjectNode out = SetDocuments.policyTest(SetDocuments.dnsName(name));
        policyFiles.forEach(((ArrayNode) out.get("policies"))::add);
        ArrayNode namespaces = JSON.arrayNode();
        List<String> declared = values.namespaces().stream().map(n -> n.path("name").asText(n.path("metadata").path("name").asText())).toList();
        resources.stream().filter(r -> "Namespace".equals(r.path("kind").asText()))
                .filter(r -> !declared.contains(r.path("metadata").path("name").asText())).forEach(r -> namespaces.add(r.deepCopy()));
        values.namespaces().forEach(namespaces::add);
        if (!namespaces.isEmpty()) {
            out.putObject("fixtures").set("namespaces", namespaces);
        }
        ArrayNode cases = out.putArray("cases");
        JsonNode results = t.path("results");
        for (int i = 0; i < results.size(); i++) {
            JsonNode r = results.get(i);
            String at = "results[" + i + "]";
            String policy = r.path("policy").asText("");
            policy = policy.substring(policy.lastIndexOf('/') + 1);
            // Kyverno names the rules it generates for pod controllers autogen-<rule> and autogen-cronjob-<rule>
            String rule = r.path("rule").asText("").replaceFirst("^autogen-(cronjob-)?", "");
            KyvernoImporter.Converted c = rules.get(policy + "/" + rule);
            if (c == null) {
                c = rules.get(policy + "/");
            }
            List<String> names = new ArrayList<>();
            r.path("resources").forEach(x -> names.add(x.asText()));
            if (r.has("resource")) {
                names.add(r.get("resource").asText());
            }
            if (c == null) {
                note(result, test, at, names.size() + " case(s) of policy " + policy + (rule.isEmpty() ? "" : " rule " + rule)
                        + " not converted: " + (refused.containsKey(policy) ? "the policy was refused (" + refused.get(policy)
                        + ")" : "no such imported policy or rule"));
                continue;
            }
            String verdict = r.path("result").asText("");
            // the result's own operation wins over the values' (processor/operation.go: resolveOperation)
            String ownOperation = r.path("operation").asText("");
            if (c.mutating()) {
                String operation = ownOperation.isEmpty() ? values.operation().orElse("CREATE") : ownOperation;
                if (!simulated(result, test, at, names.size() + " case(s)", operation)) {
                    continue;
                }
                if (operation.equals("DELETE")) {
                    note(result, test, at, names.size() + " case(s) of MutatingPolicy " + c.policy() + " with operation DELETE "
                            + "not converted: a DELETE request has no object to mutate");
                    continue;
                }
                mutationCases(test, loader, r, at, c, names, resources, cases, result, values, operation);
                continue;
            }
            if (!List.of("pass", "fail", "skip").contains(verdict)) {
                note(result, test, at, names.size() + " case(s) expecting '" + verdict + "' not converted: only pass, fail "
                        + "and skip are policy decisions a native policy makes");
                continue;
            }
            for (String resourceName : names) {
                Optional<JsonNode> object = find(resources, r.path("kind").asText(""), resourceName, r.path("namespace").asText(""));
                if (object.isEmpty()) {
                    note(result, test, at, "resource " + r.path("kind").asText("") + "/" + resourceName + " is in no resource file: not converted");
                    continue;
                }
                String resourceOnly = object.get().path("metadata").path("name").asText("");
                String operation = !ownOperation.isEmpty() ? ownOperation
                        : (legacy.contains(policy) ? values.operation(policy, resourceOnly) : values.operation()).orElse("CREATE");
                if (!simulated(result, test, at, "resource " + r.path("kind").asText("") + "/" + resourceName, operation)) {
                    continue;
                }
                List<String> context = legacy.contains(policy)
                        ? values.contextValues(policy, resourceOnly) : List.of();
                if (!context.isEmpty()) {
                    note(result, test, at, "resource " + r.path("kind").asText("") + "/" + resourceName + " not converted: the "
                            + "test's values give " + String.join(", ", context) + ", variables Kyverno puts in the JMESPath "
                            + "context of " + policy + "'s rules, which a PolicyTest has no place for; write what they stand "
                            + "for into the resource or the namespace fixtures, or keep this case in Kyverno");
                    continue;
                }
                ObjectNode tc = JSON.objectNode();
                tc.put("name", policy + (rule.isEmpty() ? "" : "/" + rule) + " " + verdict + " " + r.path("kind").asText("") + "/" + resourceName);
                request(tc, withNamespace(object.get()), operation, values);
                ObjectNode d = tc.putObject("expect").putArray("decisions").addObject();
                d.put("policy", judgedBy(c, object.get().path("kind").asText("")));
                d.put("violated", verdict.equals("fail"));
                cases.add(SetDocuments.uniqueName(tc, cases));
            }
        }
        if (cases.isEmpty()) {
            return;
        }
        result.countTestCases(cases.size());
        result.add(new ImportedFile((outputDir.isEmpty() ? "" : outputDir + "/") + file + ".aps-test.yaml", List.of(out), true));
    }

    /**
     * A MutatingPolicy's result: the object the API server stores after the policies' mutations. Kyverno's CLI compares
     * the mutated resource with the one in {@code patchedResources} (found by apiVersion, kind, namespace and name;
     * absent, the comparison is skipped), both tidied (empty maps and lists dropped:
     * {@code cmd/cli/kubectl-kyverno/resource/compare.go}), and its {@code pass}/{@code skip} is whether the policy
     * applied. {@code skip} without patchedResources means the object is left as it is; {@code pass} without it only
     * says the policy applied, which a PolicyTest cannot observe; a MutatingPolicy never {@code fail}s in Kyverno's
     * engine ({@code pkg/cel/policies/mpol/engine/engine.go: handlePolicy}: pass, skip or error). The expected object
     * is the patched one tidied, with the input's empty values put back where it lacks them ({@link #keepEmpty}), so
     * what Kyverno's comparison ignores is not a difference here either.
     */
    private static void mutationCases(Document test, Loader loader, JsonNode r, String at, KyvernoImporter.Converted c,
                                      List<String> names, List<JsonNode> resources, ArrayNode cases, ImportResult result,
                                      KyvernoValues values, String operation) {
        String verdict = r.path("result").asText("");
        String patchedFile = r.path("patchedResources").asText("");
        if (!verdict.equals("skip") && !(verdict.equals("pass") && !patchedFile.isEmpty())) {
            note(result, test, at, names.size() + " case(s) of MutatingPolicy " + c.policy() + " expecting '" + verdict + "'"
                    + (patchedFile.isEmpty() ? " without patchedResources" : "") + " not converted: "
                    + (verdict.equals("pass") ? "it says only that the policy applied, which a PolicyTest cannot observe; "
                    + "give patchedResources (the mutated object) to convert it" : "only the mutated object (pass with "
                    + "patchedResources) or the object left as it is (skip) are what a native policy's mutation shows"));
            return;
        }
        List<JsonNode> patched = new ArrayList<>();
        if (!patchedFile.isEmpty()) {
            try {
                loader.load(patchedFile).stream().filter(d -> d.content().isObject()).forEach(d -> patched.add(d.content()));
            } catch (Loader.LoadException e) {
                note(result, test, at + ".patchedResources", "patched resource file '" + patchedFile + "': " + e.getMessage());
                return;
            }
        }
        for (String resourceName : names) {
            Optional<JsonNode> object = find(resources, r.path("kind").asText(""), resourceName, r.path("namespace").asText(""));
            if (object.isEmpty()) {
                note(result, test, at, "resource " + r.path("kind").asText("") + "/" + resourceName + " is in no resource file: not converted");
                continue;
            }
            JsonNode expected = object.get();
            if (!patchedFile.isEmpty()) {
                Optional<JsonNode> p = samePatched(patched, object.get());
                if (p.isEmpty()) {
                    note(result, test, at, "resource " + r.path("kind").asText("") + "/" + resourceName + " is not in "
                            + patchedFile + " (Kyverno skips the comparison then): not converted");
                    continue;
                }
                expected = p.get();
            }
            ObjectNode tc = JSON.objectNode();
            tc.put("name", c.policy() + " " + verdict + " " + r.path("kind").asText("") + "/" + resourceName);
            JsonNode input = withNamespace(object.get());
            request(tc, input, operation, values);
            tc.putObject("expect").set("object", keepEmpty(tidy(withNamespace(expected)), input));
            cases.add(SetDocuments.uniqueName(tc, cases));
        }
    }

    /** Whether Kyverno's CLI simulates this operation; a note saying so when it does not. */
    private static boolean simulated(ImportResult result, Document test, String at, String what, String operation) {
        if (List.of("CREATE", "UPDATE", "DELETE").contains(operation)) {
            return true;
        }
        note(result, test, at, what + " with operation '" + operation + "' not converted: Kyverno's CLI simulates CREATE, "
                + "UPDATE and DELETE requests (a CONNECT from a values file is run as a CREATE while a ClusterPolicy's "
                + "request.operation says CONNECT, which no admission request is)");
        return false;
    }

    /**
     * The test's values: its inline {@code values}, else its {@code variables} file (Kyverno reads the file only without
     * inline values: {@code variables/new.go}); empty when the file cannot be read, as Kyverno fails the whole test then.
     */
    private static Optional<KyvernoValues> values(Document test, Loader loader, ImportResult result) {
        JsonNode t = test.content();
        if (t.path("values").isObject()) {
            return Optional.of(KyvernoValues.of(t.get("values")));
        }
        String file = t.path("variables").asText("");
        if (file.isEmpty()) {
            return Optional.of(KyvernoValues.none());
        }
        try {
            List<Document> docs = loader.load(file);
            return Optional.of(KyvernoValues.of(docs.isEmpty() ? null : docs.get(0).content()));
        } catch (Loader.LoadException e) {
            note(result, test, "variables", "values file '" + file + "': " + e.getMessage() + "; the test's cases are not "
                    + "converted, as Kyverno does not run them without it");
            return Optional.empty();
        }
    }

    /**
     * The case's request: the resource as the object of a CREATE, the object and old object of an UPDATE, the old
     * object of a DELETE ({@code processor/operation.go: AdmissionRequestShape}), made to the parent's subresource when
     * the values map the resource's kind to one.
     */
    private static void request(ObjectNode tc, JsonNode object, String operation, KyvernoValues values) {
        values.subresourceOf(object.path("apiVersion").asText(""), object.path("kind").asText(""))
                .ifPresent(s -> tc.put("resource", s.resource()).put("subResource", s.subResource()));
        if (!operation.equals("CREATE")) {
            tc.put("operation", operation);
        }
        if (!operation.equals("DELETE")) {
            tc.set("object", object);
        }
        if (!operation.equals("CREATE")) {
            tc.set("oldObject", object.deepCopy());
        }
    }

    /**
     * The patched resource of the same apiVersion, kind, namespace and name ({@code GetResourceFromPath}), a namespaced
     * kind without a namespace in {@code default} on both sides, as the CLI admits the resource there.
     */
    private static Optional<JsonNode> samePatched(List<JsonNode> patched, JsonNode resource) {
        String namespace = withNamespace(resource).path("metadata").path("namespace").asText("");
        for (JsonNode p : patched) {
            if (p.path("apiVersion").equals(resource.path("apiVersion")) && p.path("kind").equals(resource.path("kind"))
                    && p.path("metadata").path("name").equals(resource.path("metadata").path("name"))
                    && withNamespace(p).path("metadata").path("namespace").asText("").equals(namespace)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /**
     * {@code expected} with the input's empty values (empty maps and lists, nulls: what tidying drops) put back where
     * it lacks them, at the same path (lists element by element when both have the same length). A mutation leaves
     * them in the object (the input's {@code resources: {}} stays), and Kyverno's tidied comparison does not see them;
     * the input itself is not tidied, as an empty value can mean something ({@code emptyDir: {}}).
     */
    static JsonNode keepEmpty(JsonNode expected, JsonNode input) {
        if (expected == null) {
            return null;
        }
        if (expected.isObject() && input.isObject()) {
            ObjectNode out = (ObjectNode) expected.deepCopy();
            input.fields().forEachRemaining(e -> {
                if (!out.has(e.getKey())) {
                    if (tidy(e.getValue()) == null) {
                        out.set(e.getKey(), e.getValue().deepCopy());
                    }
                } else {
                    out.set(e.getKey(), keepEmpty(out.get(e.getKey()), e.getValue()));
                }
            });
            return out;
        }
        if (expected.isArray() && input.isArray() && expected.size() == input.size()) {
            ArrayNode out = JSON.arrayNode();
            for (int i = 0; i < expected.size(); i++) {
                out.add(keepEmpty(expected.get(i), input.get(i)));
            }
            return out;
        }
        return expected;
    }

    /** Kyverno's {@code resource.Tidy}: nulls, and maps and lists that are (or become) empty, dropped. */
    static JsonNode tidy(JsonNode node) {
        if (node.isObject()) {
            ObjectNode out = JSON.objectNode();
            node.fields().forEachRemaining(e -> {
                JsonNode v = tidy(e.getValue());
                if (v != null) {
                    out.set(e.getKey(), v);
                }
            });
            return out.isEmpty() ? null : out;
        }
        if (node.isArray()) {
            ArrayNode out = JSON.arrayNode();
            node.forEach(x -> {
                JsonNode v = tidy(x);
                if (v != null) {
                    out.add(v);
                }
            });
            return out.isEmpty() ? null : out;
        }
        return node.isNull() ? null : node;
    }

    /** The policy that judges a kind: the rule's autogen policy for its pod controllers, else the rule's. */
    static String judgedBy(KyvernoImporter.Converted c, String kind) {
        return PodControllers.CONTROLLERS.stream().filter(x -> x.kind().equals(kind) && c.podControllers().contains(x.resource()))
                .findFirst().map(x -> Names.autogenName(c.vapName(), x.shape())).orElse(c.vapName());
    }

    /**
     * The resource as the API server admits it: a built-in namespaced kind written without a namespace is in
     * {@code default} (the request's namespace, which the server writes into metadata.namespace before admission);
     * an expression reading {@code object.metadata.namespace} (a PolicyException's condition) needs it.
     */
    static JsonNode withNamespace(JsonNode resource) {
        ObjectNode copy = resource.deepCopy();
        String apiVersion = copy.path("apiVersion").asText("");
        boolean namespaced = BuiltinResources.find(KindResources.groupOf(apiVersion),
                KindResources.resourceOf(copy.path("kind").asText(""))).map(BuiltinResources.Resource::namespaced).orElse(false);
        if (namespaced && copy.path("metadata").isObject() && copy.path("metadata").path("namespace").asText("").isEmpty()) {
            ((ObjectNode) copy.get("metadata")).put("namespace", "default");
        }
        return copy;
    }

    private static Optional<JsonNode> find(List<JsonNode> resources, String kind, String name, String namespace) {
        String ns = namespace;
        String n = name;
        if (name.contains("/")) {
            ns = name.substring(0, name.indexOf('/'));
            n = name.substring(name.indexOf('/') + 1);
        }
        for (JsonNode r : resources) {
            if ((kind.isEmpty() || kind.equals(r.path("kind").asText())) && n.equals(r.path("metadata").path("name").asText())
                    && (ns.isEmpty() || ns.equals(r.path("metadata").path("namespace").asText("default")))) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    private static void note(ImportResult result, Document test, String at, String message) {
        result.add(new ImportFinding(Finding.warning(ImportRules.TEST, "Test/" + test.name(), at, message), test.source(), test.lineOf(at)));
    }
}

package dev.policyset.aps.core.evaluate.suite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.evaluate.AdmissionOutcome;
import dev.policyset.aps.core.evaluate.AdmissionRequest;
import dev.policyset.aps.core.evaluate.AdmissionSimulator;
import dev.policyset.aps.core.evaluate.Fixtures;
import dev.policyset.aps.core.evaluate.KindResources;
import dev.policyset.aps.core.evaluate.PolicyConfiguration;
import dev.policyset.aps.core.evaluate.UserInfo;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.yaml.Document;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kaptest manifests ({@code github.com/pfnet/kaptest}: {@code validatingAdmissionPolicies}, {@code resources},
 * {@code testSuites}) read as they are and run through the same simulation as a PolicyTest.
 *
 * <p>Translation (kaptest {@code internal/tester/tester.go}): each test invokes its suite's policy through one
 * binding ({@code validationActions: [Deny]}, the test's param as paramRef); objects, old objects, params and
 * namespaces are looked up among the resources by kind, name and (when given) namespace, group and version;
 * the operation follows from which objects are given. Where kaptest departs from the API server:
 * <ul>
 *   <li>it never evaluates {@code matchConstraints}: a policy is evaluated even when the API server would not
 *       call it; such cases pass or fail on kaptest's terms and carry the note {@code NOT APPLIED BY THE API
 *       SERVER} with the reason;</li>
 *   <li>its verdicts are per policy: {@code admit}, {@code deny}, {@code skip} (a matchCondition is false) and
 *       {@code error} (an expression failed, whatever the failurePolicy);</li>
 *   <li>a namespaced object without a namespace is placed in {@code default}, as the API server does for a
 *       request without one.</li>
 * </ul>
 */
public final class Kaptest {
    static final String FORMAT = "kaptest";
    static final String BINDING = "kaptest";

    private Kaptest() {}

    /** A kaptest manifest has no apiVersion/kind and lists testSuites or validatingAdmissionPolicies. */
    public static boolean isManifest(Document d) {
        JsonNode c = d.content();
        return c.isObject() && !c.has("kind") && !c.has("apiVersion")
                && (c.has("testSuites") || c.has("validatingAdmissionPolicies"));
    }

    public static PolicyTest read(Document doc, Loader loader, KubeVersion version) {
        List<Problem> problems = new ArrayList<>();
        JsonNode root = doc.content();
        for (String required : List.of("validatingAdmissionPolicies", "resources", "testSuites")) {
            if (!root.path(required).isArray() || root.path(required).isEmpty()) {
                problems.add(new Problem(doc.source(), doc.lineOf(required), "invalid kaptest manifest: at least one "
                        + required + " is required"));
            }
        }
        Map<String, RenderedObject> policies = new LinkedHashMap<>();
        JsonNode paths = root.path("validatingAdmissionPolicies");
        for (int i = 0; i < paths.size(); i++) {
            try {
                List<RenderedObject> objects = new ArrayList<>();
                Configurations.collect(loader.load(paths.get(i).asText()), version, objects, problems);
                objects.stream().filter(o -> o.kind() == AdmissionKind.VALIDATING_ADMISSION_POLICY)
                        .forEach(o -> policies.put(o.name(), o));
            } catch (Loader.LoadException e) {
                problems.add(new Problem(doc.source(), doc.lineOf("validatingAdmissionPolicies[" + i + "]"),
                        "validatingAdmissionPolicies[" + i + "] '" + paths.get(i).asText() + "': " + e.getMessage()));
            }
        }
        List<ObjectNode> resources = new ArrayList<>();
        JsonNode rpaths = root.path("resources");
        for (int i = 0; i < rpaths.size(); i++) {
            try {
                for (Document d : loader.load(rpaths.get(i).asText())) {
                    if (d.content().isObject()) {
                        resources.add(defaultNamespace((ObjectNode) d.content().deepCopy()));
                    }
                }
            } catch (Loader.LoadException e) {
                problems.add(new Problem(doc.source(), doc.lineOf("resources[" + i + "]"),
                        "resources[" + i + "] '" + rpaths.get(i).asText() + "': " + e.getMessage()));
            }
        }
        Map<String, ObjectNode> namespaces = new LinkedHashMap<>();
        resources.stream().filter(r -> r.path("kind").asText("").equals("Namespace") && r.path("apiVersion").asText("").equals("v1"))
                .forEach(r -> namespaces.put(r.path("metadata").path("name").asText(""), r));

        List<TestCase> cases = new ArrayList<>();
        AdmissionSimulator.Options options = new AdmissionSimulator.Options(version, true);
        JsonNode suites = root.path("testSuites");
        for (int s = 0; s < suites.size(); s++) {
            String policyName = suites.get(s).path("policy").asText("");
            RenderedObject policy = policies.get(policyName);
            JsonNode tests = suites.get(s).path("tests");
            for (int t = 0; t < tests.size(); t++) {
                String at = "testSuites[" + s + "].tests[" + t + "]";
                cases.add(testCase(tests.get(t), at, doc, policyName, policy, resources, namespaces, options));
            }
            if (tests.isEmpty()) {
                problems.add(new Problem(doc.source(), doc.lineOf("testSuites[" + s + "]"), "testSuites[" + s + "] has no tests"));
            }
        }
        return new PolicyTest(doc.source(), doc.source(), FORMAT, cases, problems);
    }

    private static TestCase testCase(JsonNode t, String at, Document doc, String policyName, RenderedObject policy,
                                     List<ObjectNode> resources, Map<String, ObjectNode> namespaces,
                                     AdmissionSimulator.Options options) {
        String expect = t.path("expect").asText("");
        List<String> errors = new ArrayList<>();
        ObjectNode object = find(t.get("object"), resources, "object", errors);
        ObjectNode oldObject = find(t.get("oldObject"), resources, "oldObject", errors);
        String operation = Requests.impliedOperation(object, oldObject);
        // kaptest names the operation by what the test gives, found or not
        String named = t.has("object") && t.has("oldObject") ? "UPDATE" : t.has("object") ? "CREATE" : "DELETE";
        String name = policyName + " - (" + named + ") " + describe(t.get("object") != null ? t.get("object") : t.get("oldObject"))
                + (t.has("param") ? " (Param: " + describe(t.get("param")) + ")" : "") + " - " + expect.toUpperCase(java.util.Locale.ROOT)
                + " [" + at + "]";
        if (policy == null) {
            errors.add("policy '" + policyName + "' not found in validatingAdmissionPolicies");
        }
        if (object == null && oldObject == null && errors.isEmpty()) {
            errors.add("object or oldObject must be given and valid");
        }
        if (!List.of("admit", "deny", "skip", "error").contains(expect)) {
            errors.add("expect must be admit, deny, skip or error, not '" + expect + "'");
        }
        if (object != null && oldObject != null && !namespaceOf(object).equals(namespaceOf(oldObject))) {
            errors.add("namespace is different between object and oldObject");
        }
        ObjectNode binding = JsonNodeFactory.instance.objectNode();
        binding.put("apiVersion", "admissionregistration.k8s.io/v1");
        binding.put("kind", "ValidatingAdmissionPolicyBinding");
        binding.putObject("metadata").put("name", BINDING);
        ObjectNode spec = binding.putObject("spec");
        spec.put("policyName", policyName);
        spec.putArray("validationActions").add("Deny");
        List<ObjectNode> params = new ArrayList<>();
        JsonNode paramKind = policy == null ? null : policy.manifest().path("spec").get("paramKind");
        if (paramKind != null && !paramKind.isNull()) {
            JsonNode ref = t.path("param");
            if (ref.path("name").asText("").isEmpty()) {
                errors.add("get param: param name is empty");
            } else {
                ObjectNode query = JsonNodeFactory.instance.objectNode();
                query.put("kind", paramKind.path("kind").asText(""));
                query.put("group", KindResources.groupOf(paramKind.path("apiVersion").asText("")));
                query.put("version", KindResources.versionOf(paramKind.path("apiVersion").asText("")));
                query.put("name", ref.path("name").asText());
                if (ref.has("namespace")) {
                    query.put("namespace", ref.get("namespace").asText());
                }
                ObjectNode param = find(query, resources, "param", errors);
                if (param != null) {
                    params.add(param);
                    ObjectNode paramRef = spec.putObject("paramRef");
                    paramRef.put("name", ref.path("name").asText());
                    if (!namespaceOf(param).isEmpty()) {
                        paramRef.put("namespace", namespaceOf(param));
                    }
                    paramRef.put("parameterNotFoundAction", "Deny");
                }
            }
        }
        PolicyConfiguration config = new PolicyConfiguration(policy == null ? List.of() : List.of(policy,
                new RenderedObject(AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING, "admissionregistration.k8s.io/v1",
                        BINDING, binding, "")));
        JsonNode u = t.path("userInfo");
        List<String> groups = new ArrayList<>();
        u.path("groups").forEach(g -> groups.add(g.asText()));
        Map<String, List<String>> extra = new LinkedHashMap<>();
        u.path("extra").fields().forEachRemaining(e -> {
            List<String> values = new ArrayList<>();
            e.getValue().forEach(v -> values.add(v.asText()));
            extra.put(e.getKey(), values);
        });
        UserInfo user = new UserInfo(u.path("name").asText(""), "", groups, extra);
        AdmissionRequest request = errors.isEmpty()
                ? Requests.build(operation, object, oldObject, null, "", null, null, user, true, null) : null;
        Fixtures fixtures = new Fixtures(namespaces, params, null);
        Expectation expectation = new Expectation(null, null, null, null, null, null, null, null, null, expect, policyName, null);
        return new TestCase(name, doc.lineOf(at), request, expectation, config, fixtures, options,
                errors.isEmpty() ? null : String.join("; ", errors));
    }

    /** kaptest's {@code NameWithGVK.Match}: kind and name; namespace, group, version only when the query sets them. */
    private static ObjectNode find(JsonNode query, List<ObjectNode> resources, String what, List<String> errors) {
        if (query == null || query.path("kind").asText("").isEmpty() || query.path("name").asText("").isEmpty()) {
            return null;
        }
        List<ObjectNode> found = new ArrayList<>();
        for (ObjectNode r : resources) {
            String apiVersion = r.path("apiVersion").asText("");
            if (!r.path("kind").asText("").equals(query.path("kind").asText())
                    || !r.path("metadata").path("name").asText("").equals(query.path("name").asText())) {
                continue;
            }
            String ns = query.path("namespace").asText("");
            if (!ns.isEmpty() && !ns.equals(namespaceOf(r))) {
                continue;
            }
            String group = query.path("group").asText("");
            if (!group.isEmpty() && !group.equals(KindResources.groupOf(apiVersion))) {
                continue;
            }
            String version = query.path("version").asText("");
            if (!group.isEmpty() && !version.isEmpty() && !version.equals(KindResources.versionOf(apiVersion))) {
                continue;
            }
            found.add(r);
        }
        if (found.size() > 1) {
            errors.add("get " + what + ": multiple target resource found: " + describe(query));
            return null;
        }
        if (found.isEmpty()) {
            errors.add(what + " " + describe(query) + " not found in resources");
            return null;
        }
        return found.get(0).deepCopy();
    }

    private static String describe(JsonNode q) {
        if (q == null) {
            return "";
        }
        String ns = q.path("namespace").asText("");
        return (q.has("kind") ? q.path("kind").asText() + ":" : "") + (ns.isEmpty() ? "" : ns + "/") + q.path("name").asText("");
    }

    private static String namespaceOf(JsonNode o) {
        return o.path("metadata").path("namespace").asText("");
    }

    /** A namespaced object without a namespace is created in {@code default}, as the API server does. */
    private static ObjectNode defaultNamespace(ObjectNode o) {
        String kind = o.path("kind").asText("");
        if (!KindResources.isClusterScopedKind(kind) && namespaceOf(o).isEmpty() && o.path("metadata").isObject()) {
            ((ObjectNode) o.get("metadata")).put("namespace", "default");
        }
        return o;
    }

    /** The verdict kaptest would name for the tested policy, compared with the expected one. */
    static List<String> compare(Expectation e, AdmissionOutcome o) {
        String got = verdict(o, e.policy());
        if (got.equals(e.kaptest())) {
            return List.of();
        }
        List<String> d = new ArrayList<>();
        d.add("verdict: expected " + e.kaptest() + ", got " + got);
        if (!o.allowed()) {
            d.add("    " + o.code() + " " + o.reason() + ": " + o.message());
        }
        o.errors().forEach(x -> d.add("    evaluation error: " + x));
        o.trace().forEach(x -> d.add("    " + x));
        return d;
    }

    /** admit, deny, skip (a matchCondition is false) or error (an expression or the configuration failed). */
    static String verdict(AdmissionOutcome o, String policy) {
        String prefix = "ValidatingAdmissionPolicy/" + policy;
        if (o.errors().stream().anyMatch(x -> x.startsWith(prefix) && !x.contains(": messageExpression: "))) {
            return "error";
        }
        if (o.trace().stream().anyMatch(x -> x.startsWith(prefix) && x.contains(": skipped (matchCondition"))) {
            return "skip";
        }
        return o.allowed() ? "admit" : "deny";
    }
}

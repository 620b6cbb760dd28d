package dev.policyset.aps.core.evaluate.suite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.cel.lib.CelAuthorizer;
import dev.policyset.aps.core.evaluate.AdmissionRequest;
import dev.policyset.aps.core.evaluate.AdmissionSimulator;
import dev.policyset.aps.core.evaluate.Fixtures;
import dev.policyset.aps.core.evaluate.PolicyConfiguration;
import dev.policyset.aps.core.evaluate.StubAuthorizer;
import dev.policyset.aps.core.evaluate.UserInfo;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.schema.CrdSchemas;
import dev.policyset.aps.core.schema.SchemaSource;
import dev.policyset.aps.core.yaml.Document;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a {@code PolicyTest} document ({@code docs/testing.md}, schema {@code docs/policytest.schema.json}).
 * Every problem is collected with the line of the field at fault; a file with problems runs no case.
 */
public final class PolicyTestReader {
    public static final String API_VERSION = "aps.policyset.dev/v1alpha1";
    public static final String KIND = "PolicyTest";

    static final Set<String> TOP = Set.of("apiVersion", "kind", "metadata", "kubeVersion", "policies", "crds", "fixtures", "cases");
    static final Set<String> CASE = Set.of("name", "operation", "resource", "subResource", "namespace",
            "user", "dryRun", "options", "object", "oldObject", "expect");
    static final Set<String> EXPECT = Set.of("allowed", "message", "messageContains", "reason", "code",
            "warnings", "auditAnnotations", "object", "objectContains", "decisions");
    private static final Set<String> OPERATIONS = Set.of("CREATE", "UPDATE", "DELETE", "CONNECT");

    private final Document doc;
    private final Loader loader;
    private final List<Problem> problems = new ArrayList<>();

    private PolicyTestReader(Document doc, Loader loader) {
        this.doc = doc;
        this.loader = loader;
    }

    /** Whether a document is a PolicyTest (by apiVersion group and kind). */
    public static boolean isPolicyTest(Document d) {
        return d.content().isObject() && KIND.equals(d.kind()) && d.apiVersion().startsWith("aps.policyset.dev/");
    }

    public static PolicyTest read(Document doc, Loader loader, KubeVersion defaultVersion) {
        return new PolicyTestReader(doc, loader).read(defaultVersion);
    }

    private void problem(String field, String message) {
        problems.add(new Problem(doc.source(), field.isEmpty() ? doc.line() : doc.lineOf(field), message));
    }

    private PolicyTest read(KubeVersion defaultVersion) {
        JsonNode root = doc.content();
        String name = root.path("metadata").path("name").asText("");
        if (!API_VERSION.equals(doc.apiVersion())) {
            problem("apiVersion", "apiVersion '" + doc.apiVersion() + "' is not supported; use " + API_VERSION);
        }
        unknownFields(root, TOP, "");
        KubeVersion version = defaultVersion;
        if (root.has("kubeVersion")) {
            try {
                version = KubeVersion.parse(root.get("kubeVersion").asText());
            } catch (IllegalArgumentException e) {
                problem("kubeVersion", e.getMessage());
            }
        }
        List<RenderedObject> objects = new ArrayList<>();
        JsonNode policies = root.path("policies");
        if (!policies.isArray() || policies.isEmpty()) {
            problem("policies", "policies must list at least one file or directory (relative to this file) "
                    + "holding AdmissionPolicySets or admission policies and bindings");
        }
        for (int i = 0; i < policies.size(); i++) {
            String field = "policies[" + i + "]";
            try {
                Configurations.collect(loader.load(policies.get(i).asText()), version, objects, problems);
            } catch (Loader.LoadException e) {
                problem(field, "policies[" + i + "] '" + policies.get(i).asText() + "': " + e.getMessage());
            }
        }
        if (policies.size() > 0 && objects.isEmpty() && problems.isEmpty()) {
            problem("policies", "the policies listed hold no AdmissionPolicySet and no admission policy, binding or webhook configuration");
        }
        SchemaSource schemas = crds(root.path("crds"));
        Fixtures fixtures = fixtures(root.path("fixtures"));
        Map<String, UserInfo> users = users(root.path("fixtures").path("users"));
        PolicyConfiguration config = new PolicyConfiguration(objects, schemas);
        AdmissionSimulator.Options options = AdmissionSimulator.Options.of(version);

        List<TestCase> cases = new ArrayList<>();
        JsonNode list = root.path("cases");
        if (!list.isArray() || list.isEmpty()) {
            problem("cases", "cases must list at least one case");
        }
        Set<String> names = new java.util.HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            String at = "cases[" + i + "]";
            TestCase c = testCase(list.get(i), at, users, config, fixtures, options);
            if (c != null && !names.add(c.name())) {
                problem(at + ".name", "case name '" + c.name() + "' is used twice; names identify cases in reports");
            }
            if (c != null) {
                cases.add(c);
            }
        }
        return new PolicyTest(doc.source(), name.isEmpty() ? doc.source() : name, KIND, cases, problems);
    }

    /**
     * {@code crds}: files or directories with CustomResourceDefinition manifests; their served versions' schemas
     * give custom resources' list and map types to ApplyConfiguration merges, as the API server's type converter
     * does. Each path must hold at least one CRD.
     */
    private SchemaSource crds(JsonNode crds) {
        if (crds.isMissingNode()) {
            return SchemaSource.NONE;
        }
        if (!crds.isArray()) {
            problem("crds", "crds must be a list of files or directories (relative to this file) holding "
                    + "CustomResourceDefinition manifests");
            return SchemaSource.NONE;
        }
        List<JsonNode> manifests = new ArrayList<>();
        for (int i = 0; i < crds.size(); i++) {
            String field = "crds[" + i + "]";
            try {
                List<JsonNode> found = loader.load(crds.get(i).asText()).stream().map(Document::content)
                        .filter(CrdSchemas::isCrd).toList();
                if (found.isEmpty()) {
                    problem(field, field + " '" + crds.get(i).asText() + "' holds no CustomResourceDefinition "
                            + "(apiextensions.k8s.io)");
                }
                manifests.addAll(found);
            } catch (Loader.LoadException e) {
                problem(field, field + " '" + crds.get(i).asText() + "': " + e.getMessage());
            }
        }
        return CrdSchemas.of(manifests);
    }

    private void unknownFields(JsonNode node, Set<String> known, String at) {
        node.fieldNames().forEachRemaining(f -> {
            if (!known.contains(f)) {
                String field = at.isEmpty() ? f : at + "." + f;
                problem(field, "unknown field '" + field + "'; known fields here: " + new java.util.TreeSet<>(known));
            }
        });
    }

    private Fixtures fixtures(JsonNode f) {
        unknownFields(f, Set.of("namespaces", "params", "users", "authorizer"), "fixtures");
        Map<String, ObjectNode> namespaces = new LinkedHashMap<>();
        JsonNode ns = f.path("namespaces");
        for (int i = 0; i < ns.size(); i++) {
            JsonNode n = ns.get(i);
            String at = "fixtures.namespaces[" + i + "]";
            ObjectNode object;
            if (n.has("apiVersion") || n.has("metadata")) {
                object = ((ObjectNode) n).deepCopy();
            } else {
                unknownFields(n, Set.of("name", "labels", "annotations"), at);
                object = Fixtures.none().namespace(n.path("name").asText(""));
                if (n.has("labels")) {
                    object.with("metadata").with("labels").setAll((ObjectNode) n.get("labels"));
                }
                if (n.has("annotations")) {
                    object.with("metadata").set("annotations", n.get("annotations"));
                }
            }
            String name = object.path("metadata").path("name").asText("");
            if (name.isEmpty()) {
                problem(at, "a namespace fixture needs a name");
            }
            namespaces.put(name, object);
        }
        List<ObjectNode> params = new ArrayList<>();
        JsonNode ps = f.path("params");
        for (int i = 0; i < ps.size(); i++) {
            params.addAll(objects(ps.get(i), "fixtures.params[" + i + "]"));
        }
        return new Fixtures(namespaces, params, authorizer(f.path("authorizer")));
    }

    /** An inline object, or {@code {file: path}} for every object of a file. */
    private List<ObjectNode> objects(JsonNode node, String at) {
        if (node.isObject() && node.size() == 1 && node.has("file")) {
            try {
                List<ObjectNode> out = new ArrayList<>();
                for (Document d : loader.load(node.get("file").asText())) {
                    if (d.content().isObject()) {
                        out.add((ObjectNode) d.content());
                    }
                }
                if (out.isEmpty()) {
                    problem(at + ".file", "'" + node.get("file").asText() + "' holds no object");
                }
                return out;
            } catch (Loader.LoadException e) {
                problem(at + ".file", "'" + node.get("file").asText() + "': " + e.getMessage());
                return List.of();
            }
        }
        if (!node.isObject()) {
            problem(at, at + " must be an object or {file: path}");
            return List.of();
        }
        return List.of((ObjectNode) node);
    }

    private ObjectNode object(JsonNode node, String at) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        List<ObjectNode> objects = objects(node, at);
        if (objects.size() > 1) {
            problem(at, at + " names a file with " + objects.size() + " objects; a case takes exactly one");
        }
        return objects.isEmpty() ? null : objects.get(0).deepCopy();
    }

    private Map<String, UserInfo> users(JsonNode u) {
        Map<String, UserInfo> users = new LinkedHashMap<>();
        u.fields().forEachRemaining(e -> users.put(e.getKey(), user(e.getValue(), e.getKey(), "fixtures.users." + e.getKey())));
        return users;
    }

    private UserInfo user(JsonNode n, String defaultName, String at) {
        unknownFields(n, Set.of("username", "uid", "groups", "extra"), at);
        List<String> groups = new ArrayList<>();
        n.path("groups").forEach(g -> groups.add(g.asText()));
        Map<String, List<String>> extra = new LinkedHashMap<>();
        n.path("extra").fields().forEachRemaining(e -> {
            List<String> values = new ArrayList<>();
            e.getValue().forEach(v -> values.add(v.asText()));
            extra.put(e.getKey(), values);
        });
        return new UserInfo(n.path("username").asText(defaultName), n.path("uid").asText(""), groups, extra);
    }

    /**
     * {@code authorizer: {rules: [{match: {...}, decision, reason, error}], default: {...}}}; a match may say
     * {@code serviceAccount: ns/name} for the user {@code system:serviceaccount:ns:name}.
     */
    private CelAuthorizer authorizer(JsonNode a) {
        if (a.isMissingNode()) {
            return null;
        }
        unknownFields(a, Set.of("rules", "default"), "fixtures.authorizer");
        List<StubAuthorizer.Rule> rules = new ArrayList<>();
        JsonNode rs = a.path("rules");
        for (int i = 0; i < rs.size(); i++) {
            String at = "fixtures.authorizer.rules[" + i + "]";
            JsonNode r = rs.get(i);
            unknownFields(r, Set.of("match", "decision", "reason", "error"), at);
            Map<String, String> match = new LinkedHashMap<>();
            r.path("match").fields().forEachRemaining(e -> {
                if (e.getKey().equals("serviceAccount")) {
                    String[] parts = e.getValue().asText().split("/", 2);
                    if (parts.length != 2) {
                        problem(at + ".match.serviceAccount", "serviceAccount must be NAMESPACE/NAME");
                    } else {
                        match.put("user", "system:serviceaccount:" + parts[0] + ":" + parts[1]);
                    }
                } else if (StubAuthorizer.ATTRIBUTES.contains(e.getKey())) {
                    match.put(e.getKey(), e.getValue().asText());
                } else {
                    problem(at + ".match." + e.getKey(), "unknown attribute '" + e.getKey() + "'; use one of "
                            + StubAuthorizer.ATTRIBUTES + " or serviceAccount");
                }
            });
            rules.add(new StubAuthorizer.Rule(match, decision(r, at)));
        }
        CelAuthorizer.Decision fallback = a.has("default") ? decision(a.get("default"), "fixtures.authorizer.default") : null;
        return new StubAuthorizer(rules, fallback);
    }

    private CelAuthorizer.Decision decision(JsonNode d, String at) {
        CelAuthorizer.Decision.Kind kind = switch (d.path("decision").asText("deny")) {
            case "allow" -> CelAuthorizer.Decision.Kind.ALLOW;
            case "deny" -> CelAuthorizer.Decision.Kind.DENY;
            case "noOpinion" -> CelAuthorizer.Decision.Kind.NO_OPINION;
            default -> {
                problem(at + ".decision", "decision must be allow, deny or noOpinion");
                yield CelAuthorizer.Decision.Kind.DENY;
            }
        };
        return new CelAuthorizer.Decision(kind, d.path("reason").asText(""), d.has("error") ? d.get("error").asText() : null);
    }

    private TestCase testCase(JsonNode c, String at, Map<String, UserInfo> users, PolicyConfiguration config,
                              Fixtures fixtures, AdmissionSimulator.Options options) {
        if (!c.isObject()) {
            problem(at, at + " must be a mapping with name, object and expect");
            return null;
        }
        unknownFields(c, CASE, at);
        String name = c.path("name").asText("");
        if (name.isEmpty()) {
            problem(at, at + ".name is required: it names the case in reports");
        }
        ObjectNode object = object(c.get("object"), at + ".object");
        ObjectNode oldObject = object(c.get("oldObject"), at + ".oldObject");
        if (object == null && oldObject == null && !c.has("object") && !c.has("oldObject")) {
            problem(at, at + " needs an object (CREATE, UPDATE) or an oldObject (DELETE)");
        }
        String operation = c.has("operation") ? c.get("operation").asText() : Requests.impliedOperation(object, oldObject);
        if (!OPERATIONS.contains(operation)) {
            problem(at + ".operation", "operation must be one of CREATE, UPDATE, DELETE, CONNECT");
        }
        UserInfo user = UserInfo.ANONYMOUS;
        JsonNode u = c.get("user");
        if (u != null && u.isTextual()) {
            user = users.getOrDefault(u.asText(), new UserInfo(u.asText(), "", List.of(), Map.of()));
        } else if (u != null && u.isObject()) {
            user = user(u, "", at + ".user");
        }
        AdmissionRequest request = Requests.build(operation, object, oldObject, text(c, "resource"),
                text(c, "subResource"), text(c, "namespace"), null, user,
                c.path("dryRun").asBoolean(false), c.get("options"));
        Expectation expect = expectation(c.path("expect"), at + ".expect");
        return new TestCase(name, doc.lineOf(at), request, expect, config, fixtures, options);
    }

    private static String text(JsonNode c, String field) {
        return c.has(field) && !c.get(field).isNull() ? c.get(field).asText() : null;
    }

    private List<Expectation.Decision> decisions(JsonNode list, String at) {
        if (list == null || list.isNull()) {
            return null;
        }
        List<Expectation.Decision> decisions = new ArrayList<>();
        if (!list.isArray()) {
            problem(at, at + " must be a list of {policy, violated or count, message, messageMatches}");
            return decisions;
        }
        for (int i = 0; i < list.size(); i++) {
            JsonNode d = list.get(i);
            String where = at + "[" + i + "]";
            if (!d.isObject() || !d.path("policy").isTextual()
                    || !(d.path("violated").isBoolean() || d.path("count").canConvertToInt())) {
                problem(where, where + " must have policy (a ValidatingAdmissionPolicy name) and violated (true or false) "
                        + "or count (a number of failed validations)");
                continue;
            }
            unknownFields(d, Set.of("policy", "violated", "count", "message", "messageMatches"), where);
            String matches = text(d, "messageMatches");
            if (matches != null) {
                try {
                    java.util.regex.Pattern.compile(matches);
                } catch (java.util.regex.PatternSyntaxException x) {
                    problem(where + ".messageMatches", "messageMatches is not a regular expression: " + x.getDescription());
                    continue;
                }
            }
            decisions.add(new Expectation.Decision(d.get("policy").asText(),
                    d.has("violated") ? d.get("violated").asBoolean() : null,
                    d.has("count") ? d.get("count").asInt() : null, text(d, "message"), matches));
        }
        return decisions;
    }

    private Expectation expectation(JsonNode e, String at) {
        if (!e.isObject() || e.isEmpty()) {
            problem(at, at + " is required: say at least allowed: true or false");
            return new Expectation(null, null, null, null, null, null, null, null, null, null, null, null);
        }
        unknownFields(e, EXPECT, at);
        List<String> warnings = null;
        if (e.has("warnings")) {
            warnings = new ArrayList<>();
            for (JsonNode w : e.get("warnings")) {
                warnings.add(w.asText());
            }
        }
        Map<String, String> audit = null;
        if (e.has("auditAnnotations")) {
            audit = new LinkedHashMap<>();
            Map<String, String> a = audit;
            e.get("auditAnnotations").fields().forEachRemaining(f -> a.put(f.getKey(), f.getValue().asText()));
        }
        if (e.has("code") && !e.get("code").canConvertToInt()) {
            problem(at + ".code", "code must be an HTTP status code such as 422");
        }
        return new Expectation(e.has("allowed") ? e.get("allowed").asBoolean() : null, text(e, "message"),
                text(e, "messageContains"), text(e, "reason"), e.has("code") ? e.get("code").asInt() : null,
                warnings, audit, e.get("object"), e.get("objectContains"), null, null, decisions(e.get("decisions"), at + ".decisions"));
    }
}

package dev.policyset.aps.core.evaluate.suite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.evaluate.AdmissionOutcome;
import dev.policyset.aps.core.evaluate.AdmissionRequest;
import dev.policyset.aps.core.evaluate.UserInfo;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.render.RenderedObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How one test file runs on a real cluster ({@code aps test --server}), decided without a cluster: what to create,
 * which request each case sends, and how the server's answer reads as an {@link AdmissionOutcome} that the offline
 * comparison understands.
 *
 * <p>Safe by construction on a cluster others use: every policy and binding is created under a name unique to the
 * run, and every policy gets one more match condition that only the run's own requests meet — they carry the extra
 * {@value #RUN_EXTRA} with the run's id, which only impersonation can set; every case request is a dry run. Params
 * keep their names and namespaces (a policy may read them) and are created only where absent; a param or namespace
 * that exists with other content makes the cases of the file unrunnable rather than silently different.
 */
public final class ServerReplay {
    /** The {@code userInfo.extra} key a run's requests carry; policies of the run match nothing else. */
    public static final String RUN_EXTRA = "aps.policyset.dev/test-run";
    /** The label on everything a run creates, so that a later run (or a person) can find leftovers. */
    public static final String RUN_LABEL = "aps.policyset.dev/test-run";
    /** Who a case without a user is sent as: the server needs a name to impersonate. */
    public static final String ANONYMOUS_USER = "aps-test:anonymous";

    private final String runId;
    /** A policy's name in the test to its name in the run. */
    private final Map<String, String> renamed = new LinkedHashMap<>();
    /** Every run name to the test's own name, to read the server's messages back. */
    private final Map<String, String> restore = new LinkedHashMap<>();

    public ServerReplay(String runId) {
        if (!runId.matches("[a-z0-9]{1,12}")) {
            throw new IllegalArgumentException("run id must be 1-12 lowercase letters or digits: " + runId);
        }
        this.runId = runId;
    }

    public String runId() {
        return runId;
    }

    /** One object to create before the cases run, and whether an existing one of that name may be reused. */
    public record Setup(ObjectNode object, boolean reuseIfEqual) {
        public String id() {
            return object.path("kind").asText() + "/" + (object.path("metadata").has("namespace")
                    ? object.path("metadata").path("namespace").asText() + "/" : "") + object.path("metadata").path("name").asText();
        }
    }

    /**
     * The run's objects in creation order: namespaces and params (reused when the cluster holds them unchanged),
     * then policies before their bindings, renamed. Webhook configurations are left out: the server would call
     * their backends for real ({@link #skipped}).
     */
    public List<Setup> setup(PolicyTest test) {
        return setup(test, false);
    }

    /**
     * @param grantCaseUsers also a ClusterRole and ClusterRoleBinding, first, that let the users the cases name
     *                       (and the probe's) make the cases' requests: impersonated users are authorized like
     *                       any other, and a test's users ({@code alice}) have no RBAC of their own on a fresh cluster
     */
    public List<Setup> setup(PolicyTest test, boolean grantCaseUsers) {
        List<Setup> out = new ArrayList<>();
        TestCase any = test.cases().isEmpty() ? null : test.cases().get(0);
        if (any == null) {
            return out;
        }
        if (grantCaseUsers) {
            out.addAll(grants(test));
        }
        // every namespace a case or param is in must exist (offline, an undeclared one is taken as existing)
        java.util.TreeSet<String> namespaces = new java.util.TreeSet<>(any.fixtures().namespaces().keySet());
        test.cases().stream().map(c -> c.request().namespace()).filter(ns -> !ns.isEmpty())
                .forEach(namespaces::add);
        any.fixtures().params().stream().map(p -> p.path("metadata").path("namespace").asText(""))
                .filter(ns -> !ns.isEmpty()).forEach(namespaces::add);
        test.cases().stream().filter(c -> isNamespace(c.request())).map(c -> c.request().name()).forEach(namespaces::remove);
        namespaces.forEach(ns -> out.add(new Setup(any.fixtures().namespace(ns), true)));
        for (ObjectNode p : any.fixtures().params()) {
            out.add(new Setup(p.deepCopy(), true));
        }
        List<RenderedObject> objects = objects(test);
        for (RenderedObject o : objects) {
            if (o.kind() == AdmissionKind.VALIDATING_ADMISSION_POLICY || o.kind() == AdmissionKind.MUTATING_ADMISSION_POLICY) {
                renamed.putIfAbsent(o.name(), unique(o.name()));
                restore.put(unique(o.name()), o.name());
            }
        }
        for (RenderedObject o : objects) {
            switch (o.kind()) {
                case VALIDATING_ADMISSION_POLICY, MUTATING_ADMISSION_POLICY -> out.add(new Setup(policy(o), false));
                case VALIDATING_ADMISSION_POLICY_BINDING, MUTATING_ADMISSION_POLICY_BINDING -> out.add(new Setup(binding(o), false));
                default -> { }
            }
        }
        return out;
    }

    /**
     * The objects of every case, each once: a kaptest manifest gives each case its own policy and a binding named
     * {@code kaptest}, so the first case's configuration is not the file's (its other policies were never created).
     */
    private static List<RenderedObject> objects(PolicyTest test) {
        Map<String, RenderedObject> distinct = new LinkedHashMap<>();
        for (TestCase c : test.cases()) {
            for (RenderedObject o : c.config().objects()) {
                distinct.putIfAbsent(o.kind() + "|" + o.manifest(), o);
            }
        }
        return List.copyOf(distinct.values());
    }

    /** The user the run's probe request is sent as (granted with the case users). */
    public static final String PROBE_USER = "aps-test:probe";

    private List<Setup> grants(PolicyTest test) {
        java.util.TreeSet<String> users = new java.util.TreeSet<>(List.of(PROBE_USER));
        Map<String, java.util.TreeSet<String>> verbsByResource = new java.util.TreeMap<>();
        verbsByResource.computeIfAbsent("|configmaps", k -> new java.util.TreeSet<>()).add("create");
        for (TestCase c : test.cases()) {
            AdmissionRequest r = c.request();
            users.add(r.userInfo().username().isEmpty() ? ANONYMOUS_USER : r.userInfo().username());
            String verb = switch (r.operation()) {
                case "CREATE" -> "create";
                case "UPDATE" -> "update";
                case "DELETE" -> "delete";
                default -> null;
            };
            if (verb != null) {
                verbsByResource.computeIfAbsent(r.group() + "|" + r.resource(), k -> new java.util.TreeSet<>()).add(verb);
            }
        }
        String name = "aps-test-" + runId;
        ObjectNode role = object("rbac.authorization.k8s.io/v1", "ClusterRole", name);
        ArrayNode rules = role.putArray("rules");
        verbsByResource.forEach((key, verbs) -> {
            ObjectNode rule = rules.addObject();
            rule.putArray("apiGroups").add(key.substring(0, key.indexOf('|')));
            rule.putArray("resources").add(key.substring(key.indexOf('|') + 1));
            verbs.forEach(rule.putArray("verbs")::add);
        });
        ObjectNode binding = object("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", name);
        binding.putObject("roleRef").put("apiGroup", "rbac.authorization.k8s.io").put("kind", "ClusterRole").put("name", name);
        ArrayNode subjects = binding.putArray("subjects");
        users.forEach(u -> subjects.addObject().put("apiGroup", "rbac.authorization.k8s.io").put("kind", "User").put("name", u));
        return List.of(new Setup(role, false), new Setup(binding, false));
    }

    private ObjectNode object(String apiVersion, String kind, String name) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("apiVersion", apiVersion).put("kind", kind);
        o.putObject("metadata").put("name", name).putObject("labels").put(RUN_LABEL, runId);
        return o;
    }

    /** What the server run leaves out of a file, one sentence each. */
    public static List<String> skipped(PolicyTest test) {
        List<String> notes = new ArrayList<>();
        if (test.cases().isEmpty()) {
            return notes;
        }
        test.cases().get(0).config().objects().stream()
                .filter(o -> o.kind() == AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION || o.kind() == AdmissionKind.MUTATING_WEBHOOK_CONFIGURATION)
                .forEach(o -> notes.add(o.id() + " is not created on the server: its webhooks would be called for real"));
        return notes;
    }

    private ObjectNode policy(RenderedObject o) {
        ObjectNode p = o.manifest().deepCopy();
        ObjectNode meta = metadataFor(p, renamed.get(o.name()));
        meta.remove("namespace");
        ObjectNode spec = p.with("spec");
        ArrayNode conditions = spec.has("matchConditions") && spec.get("matchConditions").isArray()
                ? (ArrayNode) spec.get("matchConditions") : spec.putArray("matchConditions");
        // first, so that no other condition is evaluated (or fails) for anyone else's request
        conditions.insertObject(0).put("name", "aps-test-run-" + runId).put("expression", runCondition());
        return p;
    }

    private ObjectNode binding(RenderedObject o) {
        ObjectNode b = o.manifest().deepCopy();
        // two different bindings of one name (kaptest's per-policy "kaptest") get a number each
        String name = unique(o.name());
        for (int n = 2; restore.containsKey(name); n++) {
            name = unique(o.name() + "-" + n);
        }
        metadataFor(b, name);
        restore.put(name, o.name());
        ObjectNode spec = b.with("spec");
        String policy = spec.path("policyName").asText("");
        spec.put("policyName", renamed.getOrDefault(policy, unique(policy)));
        return b;
    }

    private ObjectNode metadataFor(ObjectNode object, String name) {
        ObjectNode meta = JsonNodeFactory.instance.objectNode();
        meta.put("name", name);
        ObjectNode labels = meta.putObject("labels");
        object.path("metadata").path("labels").fields().forEachRemaining(e -> labels.set(e.getKey(), e.getValue()));
        labels.put(RUN_LABEL, runId);
        JsonNode annotations = object.path("metadata").path("annotations");
        if (annotations.isObject() && !annotations.isEmpty()) {
            meta.set("annotations", annotations.deepCopy());
        }
        object.set("metadata", meta);
        object.remove("status");
        return meta;
    }

    /** The CEL the run adds to each policy: true only for this run's impersonated requests (never an error). */
    String runCondition() {
        return "has(request.userInfo.extra) && '" + RUN_EXTRA + "' in request.userInfo.extra && request.userInfo.extra['"
                + RUN_EXTRA + "'] == ['" + runId + "']";
    }

    private String unique(String name) {
        String suffix = "-aps-" + runId;
        String base = name.length() + suffix.length() > 253 ? name.substring(0, 253 - suffix.length()) : name;
        return base + suffix;
    }

    /** One HTTP request a case sends: always a dry run, as the case's user (impersonated, with the run's extra). */
    public record Request(String method, String path, ObjectNode body, UserInfo user, ObjectNode existing) {}

    /**
     * The request of a case, or why it cannot be sent: UPDATE and DELETE need the old object on the server
     * ({@code existing}: created by the runner without impersonation, so no policy of the run sees it, and deleted
     * after), CONNECT and subresources are not sent.
     */
    public Optional<Request> request(TestCase c, List<String> why) {
        AdmissionRequest r = c.request();
        if (!r.subResource().isEmpty() || r.operation().equals("CONNECT")) {
            why.add("not sent to the server: " + (r.subResource().isEmpty() ? "CONNECT" : "subresource " + r.subResource())
                    + " requests are checked offline only");
            return Optional.empty();
        }
        if (r.oldObject() != null && r.object() != null && !r.oldObject().path("metadata").path("name").asText("")
                .equals(r.object().path("metadata").path("name").asText(""))) {
            // kaptest allows it; a server updates the object the URL names, so the old object could never be found
            why.add("not sent to the server: the old object '" + r.oldObject().path("metadata").path("name").asText("")
                    + "' and the object '" + r.object().path("metadata").path("name").asText("")
                    + "' have different names, which no update on a server can have");
            return Optional.empty();
        }
        String collection = (r.group().isEmpty() ? "/api/" + r.version() : "/apis/" + r.group() + "/" + r.version())
                + (r.namespace().isEmpty() || isNamespace(r) ? "" : "/namespaces/" + r.namespace()) + "/" + r.resource();
        String dryRun = "?dryRun=All&fieldValidation=Strict";
        UserInfo user = withRun(r.userInfo());
        ObjectNode existing = r.oldObject() == null ? null : withoutServerFields(r.oldObject());
        return switch (r.operation()) {
            case "CREATE" -> Optional.of(new Request("POST", collection + dryRun, withoutServerFields(r.object()), user, null));
            case "UPDATE" -> Optional.of(new Request("PUT", collection + "/" + r.name() + dryRun, withoutServerFields(r.object()), user, existing));
            case "DELETE" -> Optional.of(new Request("DELETE", collection + "/" + r.name() + "?dryRun=All", null, user, existing));
            default -> {
                why.add("not sent to the server: operation " + r.operation());
                yield Optional.empty();
            }
        };
    }

    private static boolean isNamespace(AdmissionRequest r) {
        return r.group().isEmpty() && r.resource().equals("namespaces");
    }

    private UserInfo withRun(UserInfo u) {
        Map<String, List<String>> extra = new LinkedHashMap<>(u.extra());
        extra.put(RUN_EXTRA, List.of(runId));
        return new UserInfo(u.username().isEmpty() ? ANONYMOUS_USER : u.username(), u.uid(), u.groups(), extra);
    }

    /** Fields the server sets itself and refuses or ignores from a client (a create with a resourceVersion fails). */
    private static ObjectNode withoutServerFields(ObjectNode o) {
        if (o == null) {
            return null;
        }
        ObjectNode copy = o.deepCopy();
        ObjectNode meta = copy.with("metadata");
        for (String f : List.of("resourceVersion", "uid", "creationTimestamp", "generation", "managedFields")) {
            meta.remove(f);
        }
        copy.remove("status");
        return copy;
    }

    /**
     * The server's answer as an outcome: 2xx allowed, else the {@code metav1.Status} code, reason and message; the
     * warnings from its {@code Warning} headers; the object it returned (dry-run result, after mutations). The run's
     * names are put back to the test's own, so that messages compare as written.
     */
    public AdmissionOutcome outcome(int code, JsonNode body, List<String> warnings) {
        boolean allowed = code >= 200 && code < 300;
        String reason = allowed ? "" : body.path("reason").asText("");
        String message = allowed ? "" : restoreNames(body.path("message").asText(""));
        ObjectNode object = allowed && body.isObject() && !"Status".equals(body.path("kind").asText()) ? (ObjectNode) body : null;
        return new AdmissionOutcome(allowed, allowed ? 0 : code, reason, message,
                warnings.stream().map(this::restoreNames).toList(), Map.of(), object, List.of(), List.of(), List.of());
    }

    private String restoreNames(String text) {
        String out = text;
        // longest first: a binding's run name contains no policy's run name, but be sure
        List<Map.Entry<String, String>> byLength = new ArrayList<>(restore.entrySet());
        byLength.sort((a, b) -> b.getKey().length() - a.getKey().length());
        for (Map.Entry<String, String> e : byLength) {
            out = out.replace(e.getKey(), e.getValue());
        }
        return out;
    }

    /**
     * A case's expectation against the server's outcome. Two things cannot be compared as offline: audit
     * annotations (the server writes them to its audit log, not to the client), and a whole expected object (the
     * server's answer carries its defaults, uid and timestamps), which is compared as {@code objectContains}.
     */
    public static List<String> compare(Expectation e, AdmissionOutcome server) {
        Expectation onServer = new Expectation(e.allowed(), e.message(), e.messageContains(), e.reason(), e.code(),
                e.warnings(), null, null, e.objectContains() != null ? e.objectContains() : withoutServerFields(asObject(e.object())),
                e.kaptest(), e.policy(), null);
        return TestRunner.compare(onServer, server);
    }

    private static ObjectNode asObject(JsonNode n) {
        return n instanceof ObjectNode o ? o : null;
    }

    /** Whether an object on the cluster holds what the run would create (labels, data, spec; not server fields). */
    public static boolean sameContent(ObjectNode desired, JsonNode live) {
        ObjectNode a = withoutServerFields(desired);
        ObjectNode b = withoutServerFields(live instanceof ObjectNode o ? o : null);
        if (b == null) {
            return false;
        }
        for (ObjectNode x : List.of(a, b)) {
            ObjectNode meta = x.with("metadata");
            meta.retain("name", "namespace", "labels");
            ObjectNode labels = meta.with("labels");
            labels.remove(RUN_LABEL);
            if (labels.isEmpty()) {
                meta.remove("labels");
            }
            x.remove("apiVersion");
        }
        if ("Namespace".equals(a.path("kind").asText())) {
            return a.path("metadata").path("labels").equals(b.path("metadata").path("labels"));
        }
        a.remove("kind");
        b.remove("kind");
        return a.equals(b);
    }
}

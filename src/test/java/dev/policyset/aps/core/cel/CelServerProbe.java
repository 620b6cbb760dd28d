package dev.policyset.aps.core.cel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.testing.kube.KubeControlPlane;

import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Asks a real kube-apiserver what CEL expressions evaluate to, many at once, inside admission policies.
 *
 * <p><b>Validation environment.</b> One ValidatingAdmissionPolicy per batch of cases that share their inputs. Case
 * {@code i}'s expression is {@code spec.variables[i]} ({@code c<i>}): a variable's result type is not restricted,
 * as the cel-eval cases assume, and a compile error comes back from the create (422) on
 * {@code spec.variables[i].expression}, with the server's message. Each variable has a validation that is always
 * false unless the variable fails ({@code <type tag of c_i> == 'aps-never'}), so every case yields one failure:
 * its messageExpression renders the value ({@code aps|<type>|<text>|}), or, when evaluating the variable failed, the
 * failure's message is the evaluation error. The binding's only action is {@code Audit}, so one dry-run create
 * returns every failure in the audit event's {@code validation.policy.admission.k8s.io/validation_failure}
 * annotation (upstream: k8s.io/apiserver pkg/admission/plugin/policy/validating/dispatcher.go, the Audit action
 * publishes every failed decision; Deny would return only the first, Warn truncates past 4 KiB).
 * A first validation {@code false} with message {@code aps-sentinel} says the policy is active.
 *
 * <p><b>Mutation environment.</b> One MutatingAdmissionPolicy per case: a JSONPatch mutation whose expression is
 * {@code [JSONPatch{op: 'add', path: '/probe/value', value: (<expr>)}]}; the dry run returns the object with the
 * value as JSON, or the request fails with the evaluation error.
 *
 * <p>Inputs: {@code object} is the probe object (a cluster-scoped custom resource with
 * {@code x-kubernetes-preserve-unknown-fields}, holding the case's {@code vars.object}), {@code params} a params
 * object holding {@code vars.params} (every policy has a paramKind, as the cases assume), {@code request} the
 * dry-run create made as a user of the batch's own (impersonated) with the case's groups, and {@code authorizer} the
 * server's RBAC, given the allow rules of the case's authorizer stub ({@link #rbacRules}).
 */
final class CelServerProbe {
    static final String GROUP = "cel.aps.test";
    static final String FAILURE_ANNOTATION = "validation.policy.admission.k8s.io/validation_failure";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern VARIABLE_FIELD = Pattern.compile("^spec\\.variables\\[(\\d+)]\\.expression$");
    private static final Pattern VALIDATION_FIELD = Pattern.compile("^spec\\.validations\\[(\\d+)]\\.");
    private static final Pattern MUTATION_FIELD = Pattern.compile("^spec\\.mutations\\[(\\d+)]\\.");

    /** One case as the server gets it. {@code expected} is the case's {@code result} (only used to compare lists and maps). */
    record Probe(String id, String expression, boolean mutation, Map<String, Object> vars, boolean hasExpected, Object expected,
                 boolean costly) {
    }

    /**
     * What the server made of one case: {@code kind} is "compile error", "error" or "value" ({@code value} then is
     * "&lt;type&gt; &lt;text&gt;"); "harness" when the answer could not be read (a bug of this class). {@code message}
     * is the server's text. {@code object}, {@code params}, {@code request} are the inputs as the server had them.
     */
    record Answer(String kind, String value, String message, JsonNode object, JsonNode params, Map<String, Object> request) {
    }

    /** The request a batch's probe makes, as CEL's {@code request} sees it (filter.go CreateAdmissionRequest). */
    private record Requester(String user, List<String> groups) {
    }

    private final KubeControlPlane plane;
    private final HttpClient http;
    private final String run;
    private int batches;
    /**
     * The server records only a request's first validation failure (below 1.37: upstream's dispatcher adds one audit
     * annotation per failure under the same key, and every one after the first is refused as an overwrite; 1.37
     * publishes up to 50 in one). Then each case goes in a policy of its own, without the failing sentinel in front
     * of it, and a last validation that always fails tells that the policy is active when the case itself does not.
     */
    private boolean onePerRequest;

    /** For a server that records one validation failure per request ({@link #onePerRequest}). */
    CelServerProbe onePerRequest(boolean one) {
        this.onePerRequest = one;
        return this;
    }

    CelServerProbe(KubeControlPlane plane, String run) {
        this.plane = plane;
        this.run = run;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(plane.sslContext(true))
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** The probe and params kinds, and the role every user needs to create probes. */
    void install() throws Exception {
        for (String[] kind : List.of(new String[]{"probes", "Probe"}, new String[]{"params", "Params"})) {
            ObjectNode crd = (ObjectNode) JSON.readTree("""
                    {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
                     "metadata": {"name": "%1$s.%3$s"},
                     "spec": {"group": "%3$s", "scope": "Cluster",
                      "names": {"plural": "%1$s", "singular": "%4$s", "kind": "%2$s", "listKind": "%2$sList"},
                      "versions": [{"name": "v1", "served": true, "storage": true,
                        "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}]}}
                    """.formatted(kind[0], kind[1], GROUP, kind[1].toLowerCase(java.util.Locale.ROOT)));
            post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd);
        }
        post("/apis/rbac.authorization.k8s.io/v1/clusterroles", JSON.readTree("""
                {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "aps-cel-prober"},
                 "rules": [{"apiGroups": ["%s"], "resources": ["probes"], "verbs": ["create"]}]}""".formatted(GROUP)));
        post("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", JSON.readTree("""
                {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding", "metadata": {"name": "aps-cel-prober"},
                 "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "aps-cel-prober"},
                 "subjects": [{"apiGroup": "rbac.authorization.k8s.io", "kind": "Group", "name": "system:authenticated"}]}"""));
        for (String ns : List.of("test")) {
            post("/api/v1/namespaces", JSON.readTree("{\"apiVersion\": \"v1\", \"kind\": \"Namespace\", \"metadata\": {\"name\": \"" + ns + "\"}}"));
        }
        Instant deadline = Instant.now().plusSeconds(60);
        while (!served("/apis/" + GROUP + "/v1/probes") || !served("/apis/" + GROUP + "/v1/params")) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("the probe CRDs were not served within 60s");
            }
            Thread.sleep(200);
        }
    }

    /**
     * Every probe's answer. Cases that share their inputs go in one policy (at most {@code perPolicy}); all policies
     * are created first, then each is asked once it is active.
     */
    Map<String, Answer> ask(List<Probe> probes, int perPolicy) throws Exception {
        Map<String, List<Probe>> groups = new LinkedHashMap<>();
        for (Probe p : probes) {
            // A case that spends the per-call cost limit goes alone: upstream's validator spends one runtime budget
            // (celconfig.RuntimeCELCostBudget) across a policy's expressions and stops at the first that exceeds it.
            String key = (p.mutation() || p.costly() ? "1:" + p.id() : staticMessages(p.expression()) ? "s:" : "v:")
                    + JSON.writeValueAsString(new TreeMap<>(p.vars()));
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(p);
        }
        List<Batch> all = new ArrayList<>();
        for (List<Probe> group : groups.values()) {
            // at most 50 failures of a request are recorded (observed at 1.37.2), one per case, three in static mode
            int size = onePerRequest ? 1 : staticMessages(group.get(0).expression()) ? Math.min(perPolicy, 15) : Math.min(perPolicy, 48);
            for (int from = 0; from < group.size(); from += size) {
                all.add(new Batch("aps-cel-" + run + "-" + (batches++), group.subList(from, Math.min(group.size(), from + size))));
            }
        }
        Map<String, Answer> answers = new LinkedHashMap<>();
        for (Batch b : all) {
            b.create(answers);
        }
        Instant deadline = Instant.now().plusSeconds(90);
        List<Batch> waiting = new ArrayList<>(all);
        while (!waiting.isEmpty()) {
            List<Batch> still = new ArrayList<>();
            for (Batch b : waiting) {
                if (!b.ask(answers)) {
                    still.add(b);
                }
            }
            waiting = still;
            if (!waiting.isEmpty()) {
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException("policies not active after 90s: " + waiting.stream().map(b -> b.name).toList());
                }
                Thread.sleep(250);
            }
        }
        return answers;
    }

    /** One policy, its binding, its params object and its requester. */
    private final class Batch {
        final String name;
        final List<Probe> probes;
        final boolean mutation;
        /** The cases read {@code authorizer}: values come from static messages ({@link #staticMessages}). */
        final boolean staticMode;
        final Requester requester;
        final Map<Integer, String> compileErrors = new HashMap<>();
        final Map<Integer, String> harness = new HashMap<>();
        JsonNode params;
        int attempt;

        Batch(String name, List<Probe> probes) {
            this.name = name;
            this.probes = probes;
            this.mutation = probes.get(0).mutation();
            this.staticMode = !mutation && staticMessages(probes.get(0).expression());
            Map<String, Object> vars = probes.get(0).vars();
            @SuppressWarnings("unchecked")
            Map<String, Object> userInfo = (Map<String, Object>) ((Map<String, Object>) vars.getOrDefault("request", Map.of()))
                    .getOrDefault("userInfo", Map.of());
            List<String> groups = new ArrayList<>();
            ((List<?>) userInfo.getOrDefault("groups", List.of())).forEach(g -> groups.add(g.toString()));
            this.requester = new Requester(name, groups);
        }

        void create(Map<String, Answer> answers) throws Exception {
            ObjectNode p = JSON.createObjectNode().put("apiVersion", GROUP + "/v1").put("kind", "Params");
            p.putObject("metadata").put("name", name);
            Object given = probes.get(0).vars().get("params");
            if (given instanceof Map<?, ?> m) {
                m.forEach((k, v) -> p.set(k.toString(), JSON.valueToTree(v)));
            }
            params = post("/apis/" + GROUP + "/v1/params", p);
            createRbac();
            String kind = mutation ? "MutatingAdmissionPolicy" : "ValidatingAdmissionPolicy";
            String resource = mutation ? "mutatingadmissionpolicies" : "validatingadmissionpolicies";
            for (int tries = 0; ; tries++) {
                ObjectNode policy = mutation ? mutatingPolicy() : validatingPolicy();
                HttpResponse<String> r = send("POST", "/apis/admissionregistration.k8s.io/v1/" + resource, policy, null);
                if (r.statusCode() == 201) {
                    break;
                }
                JsonNode status = JSON.readTree(r.body());
                if (r.statusCode() != 422 || tries > 4) {
                    throw new IllegalStateException(kind + " " + name + ": " + r.statusCode() + " " + r.body());
                }
                for (JsonNode cause : status.path("details").path("causes")) {
                    String field = cause.path("field").asText();
                    Matcher variable = VARIABLE_FIELD.matcher(field);
                    Matcher validation = VALIDATION_FIELD.matcher(field);
                    Matcher mutationField = MUTATION_FIELD.matcher(field);
                    if (!mutation && variable.find()) {
                        compileErrors.putIfAbsent(Integer.parseInt(variable.group(1)), cause.path("message").asText());
                    } else if (!mutation && validation.find() && Integer.parseInt(validation.group(1)) > 0) {
                        int i = Integer.parseInt(validation.group(1)) - 1;
                        if (!compileErrors.containsKey(i)) {
                            harness.putIfAbsent(i, field + ": " + cause.path("message").asText());
                        }
                    } else if (mutation && mutationField.find() && Integer.parseInt(mutationField.group(1)) == 1) {
                        compileErrors.putIfAbsent(0, cause.path("message").asText());
                    } else {
                        throw new IllegalStateException(kind + " " + name + ": a refusal this harness cannot place: " + r.body());
                    }
                }
            }
            String bindingKind = kind + "Binding";
            ObjectNode binding = JSON.createObjectNode().put("apiVersion", "admissionregistration.k8s.io/v1").put("kind", bindingKind);
            binding.putObject("metadata").put("name", name);
            ObjectNode spec = binding.putObject("spec").put("policyName", name);
            spec.putObject("paramRef").put("name", name).put("parameterNotFoundAction", "Deny");
            if (!mutation) {
                spec.putArray("validationActions").add("Audit");
            }
            spec.putObject("matchResources").putObject("objectSelector").putObject("matchLabels").put("aps-cel-batch", name);
            post("/apis/admissionregistration.k8s.io/v1/" + resource.replace("policies", "policybindings"), binding);
            for (int i = 0; i < probes.size(); i++) {
                if (compileErrors.containsKey(i)) {
                    answers.put(probes.get(i).id(), new Answer("compile error", "", compileErrors.get(i), null, params, null));
                }
            }
        }

        /**
         * The case's allow rules as RBAC for this batch's user (the server's authorizer is RBAC: a rule that does
         * not allow is no opinion, which {@code allowed()} reads as false, like the stub's deny).
         */
        private void createRbac() throws Exception {
            Object stub = probes.get(0).vars().get("authorizer");
            if (!(stub instanceof Map<?, ?>)) {
                return;
            }
            Map<String, ArrayNode> rulesByNamespace = rbacRules(stub, requester.user());
            for (Map.Entry<String, ArrayNode> e : rulesByNamespace.entrySet()) {
                boolean cluster = e.getKey().isEmpty();
                String kind = cluster ? "ClusterRole" : "Role";
                String base = "/apis/rbac.authorization.k8s.io/v1" + (cluster ? "" : "/namespaces/" + e.getKey());
                ObjectNode role = JSON.createObjectNode().put("apiVersion", "rbac.authorization.k8s.io/v1").put("kind", kind);
                role.putObject("metadata").put("name", name);
                role.set("rules", e.getValue());
                post(base + (cluster ? "/clusterroles" : "/roles"), role);
                ObjectNode bind = JSON.createObjectNode().put("apiVersion", "rbac.authorization.k8s.io/v1").put("kind", kind + "Binding");
                bind.putObject("metadata").put("name", name);
                bind.putObject("roleRef").put("apiGroup", "rbac.authorization.k8s.io").put("kind", kind).put("name", name);
                bind.putArray("subjects").addObject().put("apiGroup", "rbac.authorization.k8s.io").put("kind", "User").put("name", requester.user());
                post(base + (cluster ? "/clusterrolebindings" : "/rolebindings"), bind);
            }
        }

        private ObjectNode validatingPolicy() {
            ObjectNode policy = policyShell("ValidatingAdmissionPolicy");
            ObjectNode spec = (ObjectNode) policy.get("spec");
            ArrayNode variables = spec.putArray("variables");
            ArrayNode validations = spec.putArray("validations");
            validations.addObject().put("expression", onePerRequest ? "true" : "false").put("message", "aps-sentinel");
            for (int i = 0; i < probes.size(); i++) {
                Probe p = probes.get(i);
                boolean ok = !compileErrors.containsKey(i) && !harness.containsKey(i);
                variables.addObject().put("name", "c" + i).put("expression", compileErrors.containsKey(i) ? "'aps-not-compiled'" : p.expression());
                String v = "variables.c" + i;
                if (staticMode) {
                    for (String[] probe : STATIC_PROBES) {
                        validations.addObject().put("expression", ok ? "dyn(" + v + ") != " + probe[0] : "true").put("message", probe[1]);
                    }
                } else if (ok) {
                    validations.addObject().put("expression", tag(v) + " == 'aps-never'").put("messageExpression", render(v, p));
                } else {
                    validations.addObject().put("expression", "true");
                }
            }
            if (onePerRequest) {
                validations.addObject().put("expression", "false").put("message", "aps-end");
            }
            return policy;
        }

        private ObjectNode mutatingPolicy() {
            ObjectNode policy = policyShell("MutatingAdmissionPolicy");
            ObjectNode spec = (ObjectNode) policy.get("spec");
            spec.put("reinvocationPolicy", "Never");
            ArrayNode mutations = spec.putArray("mutations");
            mutations.addObject().put("patchType", "JSONPatch").putObject("jsonPatch")
                    .put("expression", "[JSONPatch{op: 'add', path: '/probe/sentinel', value: 'on'}]");
            String expression = compileErrors.containsKey(0) ? "'aps-not-compiled'" : probes.get(0).expression();
            mutations.addObject().put("patchType", "JSONPatch").putObject("jsonPatch")
                    .put("expression", "[JSONPatch{op: 'add', path: '/probe/value', value: (" + expression + ")}]");
            return policy;
        }

        private ObjectNode policyShell(String kind) {
            ObjectNode policy = JSON.createObjectNode().put("apiVersion", "admissionregistration.k8s.io/v1").put("kind", kind);
            policy.putObject("metadata").put("name", name);
            ObjectNode spec = policy.putObject("spec").put("failurePolicy", "Fail");
            spec.putObject("paramKind").put("apiVersion", GROUP + "/v1").put("kind", "Params");
            ObjectNode rule = spec.putObject("matchConstraints").putArray("resourceRules").addObject();
            rule.putArray("apiGroups").add(GROUP);
            rule.putArray("apiVersions").add("v1");
            rule.putArray("resources").add("probes");
            rule.putArray("operations").add("CREATE");
            return policy;
        }

        /** One dry-run create of the probe; false while the policy is not active yet. */
        boolean ask(Map<String, Answer> answers) throws Exception {
            if (!mutation && compileErrors.size() + harness.size() == probes.size()) {
                harnessAnswers(answers);
                return true;
            }
            ObjectNode object = JSON.createObjectNode().put("apiVersion", GROUP + "/v1").put("kind", "Probe");
            Object given = probes.get(0).vars().get("object");
            if (given instanceof Map<?, ?> m) {
                m.forEach((k, v) -> object.set(k.toString(), JSON.valueToTree(v)));
            }
            ObjectNode metadata = object.has("metadata") ? (ObjectNode) object.get("metadata") : object.putObject("metadata");
            if (!metadata.has("name")) {
                metadata.put("name", name + "-" + (attempt++));
            }
            (metadata.has("labels") ? (ObjectNode) metadata.get("labels") : metadata.putObject("labels")).put("aps-cel-batch", name);
            if (mutation) {
                object.putObject("probe");
            }
            HttpResponse<String> r = send("POST", "/apis/" + GROUP + "/v1/probes?dryRun=All", object, requester);
            Map<String, Object> request = request(metadata.path("name").asText());
            if (mutation) {
                return mutationAnswer(r, object, request, answers);
            }
            if (r.statusCode() != 201) {
                throw new IllegalStateException("probe of " + name + " refused: " + r.statusCode() + " " + r.body());
            }
            JsonNode created = JSON.readTree(r.body());
            String auditId = r.headers().firstValue("Audit-Id").orElseThrow();
            JsonNode event = auditEvent(auditId);
            JsonNode failures = event == null ? null : JSON.readTree(event.path("annotations").path(FAILURE_ANNOTATION).asText("[]"));
            Map<Integer, String> byIndex = new HashMap<>();
            if (failures != null) {
                for (JsonNode f : failures) {
                    if (f.path("policy").asText().equals(name)) {
                        byIndex.put(f.path("expressionIndex").asInt(), f.path("message").asText());
                    }
                }
            }
            if (onePerRequest ? byIndex.isEmpty() : !"aps-sentinel".equals(byIndex.get(0))) {
                return false; // not active yet
            }
            for (int i = 0; i < probes.size(); i++) {
                if (compileErrors.containsKey(i)) {
                    continue;
                }
                String id = probes.get(i).id();
                if (harness.containsKey(i)) {
                    answers.put(id, new Answer("harness", "", harness.get(i), created, params, request));
                    continue;
                }
                if (staticMode) {
                    answers.put(id, staticAnswer(byIndex, i, created, request));
                    continue;
                }
                String message = byIndex.get(i + 1);
                answers.put(id, validationAnswer(message, created, request));
            }
            return true;
        }

        /** Case {@code i}'s three static probes: which one failed names the value; an error fails all three. */
        private Answer staticAnswer(Map<Integer, String> byIndex, int i, JsonNode object, Map<String, Object> request) {
            for (int k = 0; k < STATIC_PROBES.length; k++) {
                String message = byIndex.get(1 + STATIC_PROBES.length * i + k);
                if (message != null) {
                    return validationAnswer(message, object, request);
                }
            }
            return new Answer("value", "other ", "none of true, false, '' (static mode reads no other value)", object, params, request);
        }

        private void harnessAnswers(Map<String, Answer> answers) {
            harness.forEach((i, m) -> answers.put(probes.get(i).id(), new Answer("harness", "", m, null, params, null)));
        }

        private Answer validationAnswer(String message, JsonNode object, Map<String, Object> request) {
            if (message == null) {
                return new Answer("harness", "", "no failure reported for the case (the probe validation cannot pass)", object, params, request);
            }
            if (message.startsWith("aps|") && message.endsWith("|")) {
                String body = message.substring(4, message.length() - 1);
                int bar = body.indexOf('|');
                String tag = body.substring(0, bar);
                String text = body.substring(bar + 1);
                return new Answer("value", tag + " " + canonical(tag, text), message, object, params, request);
            }
            return new Answer("error", "", message, object, params, request);
        }

        private boolean mutationAnswer(HttpResponse<String> r, JsonNode sent, Map<String, Object> request,
                                       Map<String, Answer> answers) throws IOException {
            String id = probes.get(0).id();
            if (compileErrors.containsKey(0)) {
                return true;
            }
            if (r.statusCode() == 201) {
                JsonNode created = JSON.readTree(r.body());
                if (!created.path("probe").has("sentinel")) {
                    return false;
                }
                JsonNode value = created.path("probe").get("value");
                answers.put(id, value == null
                        ? new Answer("harness", "", "the mutation added no value", created, params, request)
                        : new Answer("value", jsonValue(value), value.toString(), sent, params, request));
                return true;
            }
            JsonNode status = JSON.readTree(r.body());
            String message = status.path("message").asText();
            if (!message.contains(name)) {
                throw new IllegalStateException("probe of " + name + " refused: " + r.statusCode() + " " + r.body());
            }
            answers.put(id, new Answer("error", "", message, sent, params, request));
            return true;
        }

        /** CEL's {@code request} for this batch's probe: what the server's admission attributes hold. */
        private Map<String, Object> request(String objectName) {
            Map<String, Object> r = new LinkedHashMap<>();
            Map<String, Object> gvk = Map.of("group", GROUP, "version", "v1", "kind", "Probe");
            Map<String, Object> gvr = Map.of("group", GROUP, "version", "v1", "resource", "probes");
            r.put("kind", gvk);
            r.put("resource", gvr);
            r.put("subResource", "");
            r.put("requestKind", gvk);
            r.put("requestResource", gvr);
            r.put("requestSubResource", "");
            r.put("name", objectName);
            r.put("namespace", "");
            r.put("operation", "CREATE");
            List<String> groups = new ArrayList<>(requester.groups());
            if (!groups.contains("system:authenticated")) {
                groups.add("system:authenticated"); // the impersonation filter adds it (endpoints/filters/impersonation.go)
            }
            r.put("userInfo", Map.of("username", requester.user(), "groups", groups));
            r.put("dryRun", true);
            return r;
        }
    }

    /**
     * A stub's allow rules as RBAC rules by namespace ("" for a ClusterRole), for {@code user}. An attribute a rule
     * does not match on is any value: {@code *}, and for the resource also its subresources. Rules that match another
     * user cannot match this batch's requests and are left out.
     */
    @SuppressWarnings("unchecked")
    static Map<String, ArrayNode> rbacRules(Object stub, String user) {
        Map<String, ArrayNode> byNamespace = new TreeMap<>();
        for (Map<String, Object> rule : (List<Map<String, Object>>) ((Map<String, Object>) stub).getOrDefault("rules", List.of())) {
            if (!"allow".equals(rule.get("decision"))) {
                continue;
            }
            Map<String, Object> match = (Map<String, Object>) rule.getOrDefault("match", Map.of());
            if (match.containsKey("user") && !Objects.equals(match.get("user"), user)) {
                continue;
            }
            String verb = Objects.toString(match.getOrDefault("verb", "*"));
            String namespace = Objects.toString(match.getOrDefault("namespace", ""));
            ObjectNode r = JSON.createObjectNode();
            r.putArray("verbs").add(verb);
            if (match.containsKey("path")) {
                r.putArray("nonResourceURLs").add(match.get("path").toString());
                byNamespace.computeIfAbsent("", k -> JSON.createArrayNode()).add(r);
                continue;
            }
            r.putArray("apiGroups").add(Objects.toString(match.getOrDefault("group", "*")));
            String resource = Objects.toString(match.getOrDefault("resource", "*"));
            ArrayNode resources = r.putArray("resources");
            if (match.containsKey("subresource")) {
                String sub = match.get("subresource").toString();
                resources.add(sub.isEmpty() ? resource : resource + "/" + sub);
            } else {
                resources.add(resource).add(resource + "/*");
            }
            if (match.containsKey("name")) {
                r.putArray("resourceNames").add(match.get("name").toString());
            }
            byNamespace.computeIfAbsent(namespace, k -> JSON.createArrayNode()).add(r);
        }
        return byNamespace;
    }

    /** Whether a stub can be built from RBAC: it cannot make a check fail with an error (only a webhook can). */
    @SuppressWarnings("unchecked")
    static String notReproducible(Object stub) {
        if (!(stub instanceof Map<?, ?> m)) {
            return null;
        }
        List<Map<String, Object>> rules = (List<Map<String, Object>>) ((Map<String, Object>) m).getOrDefault("rules", List.of());
        Map<String, Object> fallback = (Map<String, Object>) ((Map<String, Object>) m).getOrDefault("default", Map.of());
        boolean errors = fallback.get("error") != null || rules.stream().anyMatch(r -> r.get("error") != null);
        return errors ? "its authorizer stub returns an error, which RBAC never does (it takes an authorization webhook)" : null;
    }

    /**
     * Static mode, for expressions that read {@code authorizer}: upstream evaluates messageExpressions without an
     * authorizer (validator.go {@code expressionOptionalVars}), so a messageExpression cannot render a variable that
     * calls it. Instead each case has three validations with static messages that fail when the value is
     * {@code true}, {@code false} or {@code ''} (the only values the authz cases produce).
     */
    static final String[][] STATIC_PROBES = {{"true", "aps|bool|true|"}, {"false", "aps|bool|false|"}, {"''", "aps|string||"}};

    static boolean staticMessages(String expression) {
        return expression.contains("authorizer");
    }

    /** A type tag for a CEL value: bool, int, uint, double, string, null, list, map, bytes or other. */
    static String tag(String v) {
        StringBuilder sb = new StringBuilder("(");
        for (String[] t : new String[][]{{"bool", "bool"}, {"int", "int"}, {"uint", "uint"}, {"double", "double"},
                {"string", "string"}, {"null_type", "null"}, {"list", "list"}, {"map", "map"}, {"bytes", "bytes"}}) {
            sb.append("type(").append(v).append(") == ").append(t[0]).append(" ? '").append(t[1]).append("' : ");
        }
        return sb.append("'other')").toString();
    }

    /**
     * The messageExpression that renders a value as {@code aps|<tag>|<text>|}: scalars as {@code string()} prints them
     * (strings with backslash, newline and carriage return escaped: a message is one line), lists and maps as
     * {@code eq}/{@code ne} against the case's expected value.
     */
    static String render(String v, Probe p) {
        String t = tag(v);
        String literal = p.hasExpected() ? celLiteral(p.expected()) : "null";
        return "'aps|' + " + t + " + '|' + (" + t + " == 'string' ? string(dyn(" + v + ")).replace('\\\\', '\\\\\\\\')"
                + ".replace('\\n', '\\\\n').replace('\\r', '\\\\r') : " + t + " == 'bool' ? (dyn(" + v + ") == true ? 'true' : 'false') : "
                + t + " in ['int', 'uint', 'double'] ? string(dyn(" + v + ")) : " + t + " in ['list', 'map'] ? (dyn(" + v + ") == "
                + literal + " ? 'eq' : 'ne') : '') + '|'";
    }

    /** A YAML value of a case as a CEL literal; list and map members wrapped in dyn() so mixed members stay homogeneous. */
    static String celLiteral(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof Boolean b) {
            return b.toString();
        }
        if (v instanceof Integer || v instanceof Long || v instanceof BigInteger) {
            BigInteger i = new BigInteger(v.toString());
            return i.equals(BigInteger.valueOf(Long.MIN_VALUE)) ? "(-9223372036854775807 - 1)" : i.toString();
        }
        if (v instanceof Double d) {
            if (d.isNaN() || d.isInfinite()) {
                return "double('" + (d.isNaN() ? "NaN" : d > 0 ? "Infinity" : "-Infinity") + "')";
            }
            return Double.toString(d);
        }
        if (v instanceof String s) {
            StringBuilder sb = new StringBuilder("'");
            for (int cp : s.codePoints().toArray()) {
                switch (cp) {
                    case '\\' -> sb.append("\\\\");
                    case '\'' -> sb.append("\\'");
                    case '\n' -> sb.append("\\n");
                    case '\r' -> sb.append("\\r");
                    case '\t' -> sb.append("\\t");
                    default -> {
                        if (cp < 0x20) {
                            sb.append(String.format("\\u%04x", cp));
                        } else {
                            sb.appendCodePoint(cp);
                        }
                    }
                }
            }
            return sb.append("'").toString();
        }
        if (v instanceof List<?> l) {
            List<String> parts = new ArrayList<>();
            l.forEach(x -> parts.add("dyn(" + celLiteral(x) + ")"));
            return "[" + String.join(", ", parts) + "]";
        }
        if (v instanceof Map<?, ?> m) {
            List<String> parts = new ArrayList<>();
            m.forEach((k, x) -> parts.add(celLiteral(k.toString()) + ": dyn(" + celLiteral(x) + ")"));
            return "{" + String.join(", ", parts) + "}";
        }
        return "'" + v + "'";
    }

    /** The compared text of a rendered scalar: doubles as Java prints the parsed value (Go prints 3.0 as "3"). */
    static String canonical(String tag, String text) {
        if (tag.equals("double")) {
            return switch (text) {
                case "+Inf" -> "Infinity";
                case "-Inf" -> "-Infinity";
                case "NaN" -> "NaN";
                default -> Double.toString(Double.parseDouble(text));
            };
        }
        return text;
    }

    /** A JSON value's tag and canonical text (objects with sorted keys). */
    static String jsonValue(JsonNode value) {
        String tag = value.isBoolean() ? "bool" : value.isIntegralNumber() ? "int" : value.isNumber() ? "double"
                : value.isTextual() ? "string" : value.isNull() ? "null" : value.isArray() ? "list" : value.isObject() ? "map" : "other";
        try {
            Object plain = JSON.treeToValue(value, Object.class);
            return tag + " " + JSON.writer().with(com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                    .writeValueAsString(plain);
        } catch (IOException e) {
            return tag + " " + value;
        }
    }

    private boolean served(String path) throws Exception {
        return send("GET", path, null, null).statusCode() == 200;
    }

    private JsonNode post(String path, JsonNode body) throws Exception {
        HttpResponse<String> r = send("POST", path, body, null);
        if (r.statusCode() != 201 && r.statusCode() != 200) {
            throw new IllegalStateException("POST " + path + ": " + r.statusCode() + " " + r.body());
        }
        return JSON.readTree(r.body());
    }

    private HttpResponse<String> send(String method, String path, JsonNode body, Requester as) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(plane.url() + path)).timeout(Duration.ofSeconds(60))
                .header("Accept", "application/json");
        if (body != null) {
            b.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        if (as != null) {
            b.header("Impersonate-User", as.user());
            as.groups().forEach(g -> b.header("Impersonate-Group", g));
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private long auditRead;
    private final Map<String, JsonNode> auditEvents = new HashMap<>();

    /** The audit event of one request (ResponseComplete), waiting briefly for the log to be written. */
    private JsonNode auditEvent(String auditId) throws Exception {
        Path log = plane.directory().resolve("audit.log");
        Instant deadline = Instant.now().plusSeconds(10);
        while (true) {
            if (Files.exists(log)) {
                try (java.nio.channels.FileChannel in = java.nio.channels.FileChannel.open(log)) {
                    long size = in.size();
                    if (size > auditRead) {
                        java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(Math.toIntExact(size - auditRead));
                        in.read(buffer, auditRead);
                        byte[] bytes = buffer.array();
                        int end = buffer.position();
                        while (end > 0 && bytes[end - 1] != '\n') {
                            end--;
                        }
                        for (String line : new String(bytes, 0, end, StandardCharsets.UTF_8).split("\n")) {
                            if (line.contains("\"resource\":\"probes\"")) {
                                JsonNode e = JSON.readTree(line);
                                if ("ResponseComplete".equals(e.path("stage").asText())) {
                                    auditEvents.put(e.path("auditID").asText(), e);
                                }
                            }
                        }
                        auditRead += end;
                    }
                }
            }
            JsonNode e = auditEvents.remove(auditId);
            if (e != null || Instant.now().isAfter(deadline)) {
                return e;
            }
            Thread.sleep(50);
        }
    }
}

package dev.policyset.aps.core.evaluate.suite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.evaluate.AdmissionOutcome;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.render.RenderedObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How {@code aps test --server} knows the server evaluates a run's objects, which no API reports. The admission
 * plugins load policies through informers of their own: one for ValidatingAdmissionPolicies, one for
 * MutatingAdmissionPolicies, and, per paramKind, one for the params (started when a policy names the kind).
 * Each gets a probe policy created after the run's objects, and a dry-run ConfigMap create only that probe
 * matches: once each probe answers, the objects created before it are loaded too (an informer delivers in order).
 *
 * <p>Why more than the validating probe: the behaviour differential suite at 1.37.2, on a loaded machine, saw runs
 * whose mutating policies had not mutated anything yet while the validating probe already answered (cases allowed
 * unchanged), and a test's own mutating policy on ConfigMaps answering the probe request.
 */
public final class ServerProbes {
    private static final String GROUP = "admissionregistration.k8s.io";

    /** One probe: the objects to create (policy, binding), the request to send, and what a loaded answer looks like. */
    public record Probe(String what, List<ObjectNode> objects, ObjectNode request, String deniedWith) {
        /** A denial naming {@code deniedWith}, or, for the mutating probe (no denial), the request's label set. */
        public boolean answered(AdmissionOutcome o) {
            if (o == null) {
                return false;
            }
            if (deniedWith != null) {
                return !o.allowed() && o.message().contains("denied request: " + deniedWith);
            }
            return o.allowed() && o.object() != null
                    && "loaded".equals(o.object().path("metadata").path("labels").path(LABEL).asText());
        }
    }

    private static final String LABEL = "aps-probe";

    private ServerProbes() {}

    /** The probes for a run of {@code test}: always the validating one, the others when the test needs them. */
    public static List<Probe> of(PolicyTest test, String runId) {
        List<Probe> probes = new ArrayList<>();
        String name = "aps-probe-" + runId;
        probes.add(validating(name, runId, null, null, "aps-probe", "ValidatingAdmissionPolicy"));
        if (test.cases().isEmpty()) {
            return probes;
        }
        TestCase any = test.cases().get(0);
        Map<String, ObjectNode> paramKinds = new LinkedHashMap<>();
        for (RenderedObject o : any.config().objects()) {
            if (o.kind() == AdmissionKind.MUTATING_ADMISSION_POLICY && probes.stream().noneMatch(p -> p.deniedWith() == null)) {
                probes.add(mutating(name + "-m", runId, o.manifest().path("apiVersion").asText(GROUP + "/v1")));
            }
            JsonNode paramKind = o.manifest().path("spec").path("paramKind");
            if (o.kind() == AdmissionKind.VALIDATING_ADMISSION_POLICY && paramKind.isObject()) {
                String key = paramKind.path("apiVersion").asText() + "/" + paramKind.path("kind").asText();
                // the last param of the kind the run creates: once the informer holds it, it holds those before it
                any.fixtures().params().stream()
                        .filter(p -> (p.path("apiVersion").asText() + "/" + p.path("kind").asText()).equals(key))
                        .reduce((first, second) -> second).ifPresent(p -> paramKinds.put(key, p));
            }
        }
        int i = 0;
        for (ObjectNode param : paramKinds.values()) {
            String probe = name + "-p" + i++;
            probes.add(validating(probe, runId, param, (ObjectNode) paramKindOf(param), probe,
                    "params of kind " + param.path("kind").asText()));
        }
        return probes;
    }

    private static JsonNode paramKindOf(ObjectNode param) {
        ObjectNode k = JsonNodeFactory.instance.objectNode();
        k.put("apiVersion", param.path("apiVersion").asText()).put("kind", param.path("kind").asText());
        return k;
    }

    private static Probe validating(String name, String runId, ObjectNode param, ObjectNode paramKind, String message, String what) {
        ObjectNode policy = object(GROUP + "/v1", "ValidatingAdmissionPolicy", name, runId);
        ObjectNode spec = policy.putObject("spec");
        spec.put("failurePolicy", "Fail");
        if (paramKind != null) {
            spec.set("paramKind", paramKind);
        }
        matchProbe(spec, name, runId);
        spec.putArray("validations").addObject().put("expression", "false").put("message", message);
        ObjectNode binding = object(GROUP + "/v1", "ValidatingAdmissionPolicyBinding", name, runId);
        ObjectNode bspec = binding.putObject("spec").put("policyName", name);
        bspec.putArray("validationActions").add("Deny");
        if (param != null) {
            ObjectNode ref = bspec.putObject("paramRef").put("name", param.path("metadata").path("name").asText());
            String ns = param.path("metadata").path("namespace").asText("");
            if (!ns.isEmpty()) {
                ref.put("namespace", ns);
            }
            // found: the probe denies; not (yet) in the informer: allowed, and the run waits on. By name: from 1.37 a
            // param named in paramRef.name that the informer lacks is read from the API directly (upstream
            // CollectParams, getParamDirectly), so there this probe answers at once; a probe by selector never
            // answered at 1.37.2 (the selector case in known-divergences.yaml)
            ref.put("parameterNotFoundAction", "Allow");
        }
        return new Probe(what, List.of(policy, binding), request(name, runId), message);
    }

    private static Probe mutating(String name, String runId, String apiVersion) {
        ObjectNode policy = object(apiVersion, "MutatingAdmissionPolicy", name, runId);
        ObjectNode spec = policy.putObject("spec");
        spec.put("failurePolicy", "Fail").put("reinvocationPolicy", "Never");
        matchProbe(spec, name, runId);
        ObjectNode mutation = spec.putArray("mutations").addObject().put("patchType", "JSONPatch");
        mutation.putObject("jsonPatch").put("expression",
                "[JSONPatch{op: 'replace', path: '/metadata/labels/" + LABEL + "', value: 'loaded'}]");
        ObjectNode binding = object(apiVersion, "MutatingAdmissionPolicyBinding", name, runId);
        binding.putObject("spec").put("policyName", name);
        return new Probe("MutatingAdmissionPolicy", List.of(policy, binding), request(name, runId), null);
    }

    /**
     * The run extra the probe requests carry: not the run's own, so that the run's policies (whose first
     * matchCondition asks for the run's) never see a probe, and a test policy on ConfigMaps cannot answer for one.
     */
    public static String probeExtra(String runId) {
        return runId + "-probe";
    }

    /** Configmap creates of the probe's own name by the run's probe user only. */
    private static void matchProbe(ObjectNode spec, String name, String runId) {
        ObjectNode rule = spec.putObject("matchConstraints").putArray("resourceRules").addObject();
        rule.putArray("apiGroups").add("");
        rule.putArray("apiVersions").add("v1");
        rule.putArray("operations").add("CREATE");
        rule.putArray("resources").add("configmaps");
        ArrayNode conditions = spec.putArray("matchConditions");
        conditions.addObject().put("name", "probe").put("expression", "object.metadata.name == '" + name
                + "' && has(request.userInfo.extra) && '" + ServerReplay.RUN_EXTRA + "' in request.userInfo.extra && "
                + "request.userInfo.extra['" + ServerReplay.RUN_EXTRA + "'] == ['" + probeExtra(runId) + "']");
    }

    private static ObjectNode request(String name, String runId) {
        ObjectNode cm = JsonNodeFactory.instance.objectNode();
        cm.put("apiVersion", "v1").put("kind", "ConfigMap");
        cm.putObject("metadata").put("name", name).put("namespace", "default").putObject("labels").put(LABEL, "waiting");
        return cm;
    }

    private static ObjectNode object(String apiVersion, String kind, String name, String runId) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("apiVersion", apiVersion).put("kind", kind);
        o.putObject("metadata").put("name", name).putObject("labels").put(ServerReplay.RUN_LABEL, runId);
        return o;
    }
}

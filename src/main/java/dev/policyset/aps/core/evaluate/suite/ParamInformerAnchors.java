package dev.policyset.aps.core.evaluate.suite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.render.ParamInformerAnchorObjects;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.schema.BuiltinSchemas;
import dev.policyset.aps.core.schema.GroupVersionKind;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Policies that keep the API server's informer of a built-in {@code paramKind} running while {@code aps test
 * --server} creates and removes its own bindings.
 *
 * <p>kube-apiserver stops a paramKind's informer as soon as no binding uses it, and the informer of a built-in kind
 * comes from a shared factory that never starts it again in that process (kubernetes/kubernetes#130887; upstream
 * fix proposed in #141015): from then on, until the server restarts, a selector {@code paramRef} of that kind finds
 * no params, and so does a named one before 1.37 (1.37 falls back to a direct GET on a cache miss, #134423). A run
 * that deleted its bindings between two files judged the second file's cases without params (measured at 1.36.3:
 * "no params found" for 40 s and more). An anchor is a policy of that paramKind with one binding that matches no
 * object (an objectSelector on a label value only the anchor's run id has), so the server keeps the informer for
 * the whole run. CRD paramKinds get a fresh informer each time and need none.
 */
public final class ParamInformerAnchors {
    /** The label key of the objectSelector no object matches (its value is the run id). */
    public static final String ANCHOR_LABEL = "aps.policyset.dev/param-informer-anchor";

    private ParamInformerAnchors() {
    }

    /** A paramKind and the kind and apiVersion of a policy that uses it. */
    public record Use(AdmissionKind policyKind, String policyApiVersion, String paramApiVersion, String paramKind) {
        public String describe() {
            return paramApiVersion + "/" + paramKind;
        }

        String key() {
            return policyKind + "|" + paramApiVersion + "|" + paramKind;
        }
    }

    /** The built-in paramKinds the test's policies use, once per policy kind (validating, mutating). */
    public static List<Use> builtInParamKinds(PolicyTest test) {
        Map<String, Use> uses = new LinkedHashMap<>();
        for (TestCase c : test.cases()) {
            for (RenderedObject o : c.config().objects()) {
                if (o.kind() != AdmissionKind.VALIDATING_ADMISSION_POLICY && o.kind() != AdmissionKind.MUTATING_ADMISSION_POLICY) {
                    continue;
                }
                JsonNode paramKind = o.manifest().path("spec").path("paramKind");
                String apiVersion = paramKind.path("apiVersion").asText("");
                String kind = paramKind.path("kind").asText("");
                if (apiVersion.isEmpty() || kind.isEmpty() || !isBuiltIn(apiVersion, kind)) {
                    continue;
                }
                Use use = new Use(o.kind(), o.apiVersion(), apiVersion, kind);
                uses.putIfAbsent(use.key(), use);
            }
        }
        return List.copyOf(uses.values());
    }

    /** Whether the kind is one the API server serves itself (its informer comes from the shared factory). */
    public static boolean isBuiltIn(String apiVersion, String kind) {
        return BuiltinSchemas.instance().schema(GroupVersionKind.of(apiVersion, kind)).isPresent();
    }

    /** The anchor of one use: its policy, then its binding, named after the run and the use's position. */
    public static List<ObjectNode> anchor(Use use, String runId, int index) {
        String name = "aps-test-" + runId + "-param-anchor-" + index;
        ObjectNode policy = ParamInformerAnchorObjects.policy(use.policyKind(), use.policyApiVersion(), name,
                use.paramApiVersion(), use.paramKind(), nothingSelector(runId));
        ObjectNode binding = ParamInformerAnchorObjects.binding(use.policyKind(), use.policyApiVersion(), name,
                nothingSelector(runId));
        ObjectNode paramRef = binding.with("spec").putObject("paramRef");
        paramRef.putObject("selector");
        paramRef.put("parameterNotFoundAction", "Allow");
        for (ObjectNode o : List.of(policy, binding)) {
            o.with("metadata").putObject("labels").put(ServerReplay.RUN_LABEL, runId);
        }
        return List.of(policy, binding);
    }

    private static ObjectNode nothingSelector(String runId) {
        ObjectNode selector = JsonNodeFactory.instance.objectNode();
        selector.putObject("matchLabels").put(ANCHOR_LABEL, runId);
        return selector;
    }

    /**
     * Whether {@code policies} (the cluster's, as listed) hold one with this paramKind, of the use's policy kind, that
     * a binding in {@code bindings} names, other than the run's own: then the server keeps the informer after the run.
     */
    public static boolean boundElsewhere(Use use, List<JsonNode> policies, List<JsonNode> bindings, String runLabelValuePrefix) {
        List<String> bound = new ArrayList<>();
        bindings.stream().filter(b -> !ownedByRun(b, runLabelValuePrefix))
                .forEach(b -> bound.add(b.path("spec").path("policyName").asText("")));
        return policies.stream()
                .filter(p -> !ownedByRun(p, runLabelValuePrefix))
                .filter(p -> bound.contains(p.path("metadata").path("name").asText()))
                .map(p -> p.path("spec").path("paramKind"))
                .anyMatch(k -> use.paramApiVersion().equals(k.path("apiVersion").asText())
                        && use.paramKind().equals(k.path("kind").asText()));
    }

    private static boolean ownedByRun(JsonNode object, String runLabelValuePrefix) {
        return object.path("metadata").path("labels").path(ServerReplay.RUN_LABEL).asText("").startsWith(runLabelValuePrefix);
    }

    /**
     * What a user is told when the run's bindings were the last of a built-in paramKind on the cluster: the server
     * has stopped that kind's informer for good, so a later policy of that kind will miss its params.
     */
    public static String lastBindingWarning(Use use, String serverVersion) {
        boolean namedFallback = minor(serverVersion) >= 37;
        return "the run's bindings were the last on this cluster to use paramKind " + use.describe() + " ("
                + use.policyKind().kind() + "): kube-apiserver " + serverVersion + " stops that kind's param informer "
                + "when no binding uses it and does not start it again (kubernetes/kubernetes#130887). Until the API "
                + "server restarts, a new binding of a policy with this paramKind finds no params through a paramRef "
                + (namedFallback ? "selector (a named paramRef still works: 1.37 reads it directly)"
                : "name or selector")
                + ". Restart kube-apiserver, or keep one binding of that paramKind on a cluster you test against again.";
    }

    static int minor(String version) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("v?(\\d+\\.\\d+)").matcher(version == null ? "" : version);
        return m.lookingAt() ? dev.policyset.aps.core.model.KubeVersion.parse(m.group(1)).minor() : 0; // "v1.37.2+k3s1" too
    }
}

package dev.policyset.aps.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.evaluate.AdmissionOutcome;
import dev.policyset.aps.core.evaluate.AdmissionRequest;
import dev.policyset.aps.core.evaluate.AdmissionSimulator;
import dev.policyset.aps.core.evaluate.Fixtures;
import dev.policyset.aps.core.evaluate.PolicyConfiguration;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.model.PolicySetReader;
import dev.policyset.aps.core.render.RenderOptions;
import dev.policyset.aps.core.render.Renderer;
import dev.policyset.aps.core.yaml.Document;
import dev.policyset.aps.core.yaml.DocumentParseException;
import dev.policyset.aps.core.yaml.Yaml;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One pod-security set of policies/pod-security/, rendered as the operator renders it, and a pod (or a controller
 * holding it as its template) sent through it as a CREATE with the evaluator {@code aps test} uses
 * ({@link AdmissionSimulator}). The answer is per PSA check: which checks' policies failed, with their messages.
 */
final class PodSecuritySetRunner {
    static final String NAMESPACE = "psa-fixtures";

    private final String level;
    private final KubeVersion version;
    private final PolicyConfiguration config;
    /** Policy name (and its autogen names) → PSA check ID. */
    private final Map<String, String> checkOfPolicy = new LinkedHashMap<>();

    PodSecuritySetRunner(String level, int minor) throws IOException, DocumentParseException {
        this.level = level;
        this.version = new KubeVersion(1, minor);
        Path file = PodSecuritySetsTest.DIR.resolve("v1." + minor).resolve(level + ".yaml");
        List<Document> docs = Yaml.parse(file.toString(), Files.readString(file));
        PolicySetReader.Result read = PolicySetReader.read(docs.get(0).content());
        this.config = new PolicyConfiguration(Renderer.render(read.set().orElseThrow(
                () -> new IllegalStateException(file + " cannot be read: " + read.findings())), RenderOptions.forKubeVersion(version)));
        for (PodSecurityChecks.Check c : PodSecurityChecks.of(level, minor)) {
            String name = c.policyName(level);
            checkOfPolicy.put(name, c.id());
            checkOfPolicy.put(name + "-autogen", c.id());
            checkOfPolicy.put(name + "-autogen-cronjobs", c.id());
        }
    }

    String level() {
        return level;
    }

    KubeVersion version() {
        return version;
    }

    /** The failed checks (ID → message, in policy order), and the evaluation errors met. */
    record Verdict(Map<String, String> failed, List<String> errors, AdmissionOutcome outcome) {}

    Verdict createPod(ObjectNode pod) {
        return review(pod, "", "v1", "pods", "Pod");
    }

    /** The pod as the template of a Deployment: what PSA warns about for workloads. */
    Verdict createDeployment(ObjectNode pod) {
        ObjectNode d = JsonNodeFactory.instance.objectNode();
        d.put("apiVersion", "apps/v1");
        d.put("kind", "Deployment");
        d.putObject("metadata").put("name", pod.path("metadata").path("name").asText("pod").replace('_', '-'))
                .put("namespace", NAMESPACE);
        ObjectNode spec = d.putObject("spec");
        spec.putObject("selector").putObject("matchLabels").put("app", "psa");
        ObjectNode template = spec.putObject("template");
        ObjectNode meta = template.putObject("metadata");
        meta.putObject("labels").put("app", "psa");
        if (pod.path("metadata").has("annotations")) {
            meta.set("annotations", pod.path("metadata").get("annotations").deepCopy());
        }
        template.set("spec", pod.path("spec").deepCopy());
        return review(d, "apps", "v1", "deployments", "Deployment");
    }

    /**
     * The pod through {@code pods/ephemeralcontainers} (the set's {@code pss-<level>-ephemeral-containers} policy), as
     * an UPDATE PSA counts as significant: the old pod had another image in its first container, so the whole new pod
     * is checked ({@code isSignificantPodUpdate}). Every check fails in that one policy, so the answer is its messages.
     */
    List<String> updateEphemeralContainers(ObjectNode pod) {
        ObjectNode old = pod.deepCopy();
        ObjectNode first = (ObjectNode) old.path("spec").path("containers").path(0);
        first.put("image", first.path("image").asText() + "-before");
        String name = pod.path("metadata").path("name").asText();
        AdmissionRequest request = new AdmissionRequest("UPDATE", "", "v1", "pods", "ephemeralcontainers", "Pod", NAMESPACE,
                name, pod, old, null, false, null);
        AdmissionOutcome outcome = AdmissionSimulator.review(config, Fixtures.none(), request, version);
        List<String> messages = new java.util.ArrayList<>(outcome.errors());
        outcome.violations().forEach(v -> messages.add(v.policy().equals(PodSecuritySets.ephemeralPolicyName(level))
                ? v.message() : "unexpected policy " + v.policy() + ": " + v.message()));
        return messages;
    }

    private Verdict review(ObjectNode object, String group, String apiVersion, String resource, String kind) {
        String name = object.path("metadata").path("name").asText();
        AdmissionRequest request = new AdmissionRequest("CREATE", group, apiVersion, resource, "", kind, NAMESPACE, name,
                object, null, null, false, null);
        AdmissionOutcome outcome = AdmissionSimulator.review(config, Fixtures.none(), request, version);
        Map<String, String> failed = new LinkedHashMap<>();
        for (AdmissionOutcome.Violation v : outcome.violations()) {
            String check = checkOfPolicy.get(v.policy());
            failed.put(check == null ? "unknown policy " + v.policy() : check, v.message());
        }
        return new Verdict(failed, outcome.errors(), outcome);
    }

    /**
     * The pod as the API server stores it, for the one default the fixtures rely on: a volume with no source is an
     * emptyDir ({@code pkg/apis/core/v1/defaults.go: SetDefaults_Volume}); admission (PSA and policies alike) sees
     * the defaulted object. restricted's {@code restrictedvolumes0} pass fixture has such a volume.
     */
    static ObjectNode defaulted(JsonNode fixture) {
        ObjectNode pod = (ObjectNode) fixture.deepCopy();
        pod.with("metadata").put("namespace", NAMESPACE);
        for (JsonNode volume : pod.path("spec").path("volumes")) {
            if (volume instanceof ObjectNode v && v.size() == 1 && v.has("name")) {
                v.putObject("emptyDir");
            }
        }
        return pod;
    }
}

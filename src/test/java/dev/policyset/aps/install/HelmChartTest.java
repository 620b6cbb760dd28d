package dev.policyset.aps.install;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * charts/admission-policy-operator never drifts from config/: {@code helm template} of the chart is compared, object
 * by object (kind, namespace, name, and the whole object without Helm's own labels), with {@code kubectl kustomize}
 * of the overlay each {@code webhook.mode} stands for: config/default (default values, {@code self-managed}),
 * config/with-cert-manager ({@code cert-manager}), config/without-webhook ({@code off}); and of config/default with
 * the config/prometheus, config/grafana and policy-reports components (the metrics and reports toggles on). The chart installs no Namespace
 * ({@code helm install --create-namespace} does) and its CRD comes from its crds/ directory, which must be crds/'s.
 * helm comes from test/helm/build.sh (~/.cache/aps/helm/&lt;version&gt;/helm); without it these tests skip, and
 * fail with {@code -Daps.helm.required=true} (CI).
 */
class HelmChartTest {
    private static final String NAMESPACE = "admission-policy-operator";
    /** Labels Helm charts carry by convention and config/ does not. */
    private static final List<String> HELM_LABELS = List.of("app.kubernetes.io/managed-by", "app.kubernetes.io/instance",
            "helm.sh/chart");
    private static final String NAME_LABEL = "app.kubernetes.io/name";

    private static Path root;
    private static Path chart;
    private static String helm;
    private static String kubectl;

    @BeforeAll
    static void tools() {
        root = ProjectFiles.root();
        chart = root.resolve("charts/admission-policy-operator");
        Optional<Path> found = helmBinary(root);
        if (found.isEmpty() && Boolean.getBoolean("aps.helm.required")) {
            throw new IllegalStateException("helm is missing and aps.helm.required is set (CI): run test/helm/build.sh");
        }
        assumeTrue(found.isPresent(), "helm is not built: run test/helm/build.sh (it builds the version "
                + "test/helm/module/go.mod pins into ~/.cache/aps/helm); the chart checks are skipped");
        helm = found.get().toString();
        Optional<String> k = ProjectFiles.kubectl();
        if (k.isEmpty() && Boolean.getBoolean("aps.kubectl.required")) {
            throw new IllegalStateException("kubectl is not on the PATH and aps.kubectl.required is set (CI)");
        }
        assumeTrue(k.isPresent(), "kubectl is not on the PATH: cannot render config/ to compare the chart with");
        kubectl = k.get();
    }

    @Test
    void lintPassesWithDefaultAndAllOptionalParts() {
        run(List.of(helm, "lint", "--strict", chart.toString()));
        run(List.of(helm, "lint", "--strict", chart.toString(), "--set", "webhook.mode=off"));
        run(List.of(helm, "lint", "--strict", chart.toString(), "--set", "webhook.mode=cert-manager",
                "--set", "metrics.serviceMonitor.enabled=true", "--set", "metrics.prometheusRule.enabled=true",
                "--set", "metrics.dashboard.enabled=true"));
    }

    @Test
    void defaultValuesInstallWhatConfigDefaultInstalls() {
        assertSameObjects(kustomize(root.resolve("config/default")), template());
    }

    @Test
    void selfManagedModeIsTheDefault() {
        assertEquals(template(), template("webhook.mode=self-managed"));
    }

    @Test
    void certManagerModeInstallsWhatConfigWithCertManagerInstalls() {
        assertSameObjects(kustomize(root.resolve("config/with-cert-manager")), template("webhook.mode=cert-manager"));
    }

    @Test
    void offModeInstallsWhatConfigWithoutWebhookInstalls() {
        assertSameObjects(kustomize(root.resolve("config/without-webhook")), template("webhook.mode=off"));
    }

    @Test
    void metricsTogglesInstallTheComponentsOfConfigPrometheusAndGrafana() throws IOException {
        assertSameObjects(kustomize(overlay("metrics", "../../../config/prometheus", "../../../config/grafana")),
                template("metrics.serviceMonitor.enabled=true", "metrics.prometheusRule.enabled=true",
                        "metrics.dashboard.enabled=true"));
    }

    @Test
    void reportsToggleInstallsTheComponentPolicyReports() throws IOException {
        assertSameObjects(kustomize(overlay("reports", "../../../config/components/policy-reports")),
                template("reports.enabled=true"));
    }

    /** config/default with components, in the namespace and with the labels config/default gives its own objects. */
    private static Path overlay(String name, String... components) throws IOException {
        Path overlay = root.resolve("target/helm-chart-test/" + name);
        Files.createDirectories(overlay);
        Files.writeString(overlay.resolve("kustomization.yaml"), """
                apiVersion: kustomize.config.k8s.io/v1beta1
                kind: Kustomization
                namespace: admission-policy-operator
                labels:
                  - pairs: {app.kubernetes.io/part-of: admission-policy-operator}
                resources: [../../../config/default]
                components: [%s]
                """.formatted(String.join(", ", components)));
        return overlay;
    }

    @Test
    void chartCopiesAreTheFilesOfConfigAndCrds() throws IOException {
        Map<String, String> copies = Map.of(
                "crds/admissionpolicysets.admission.policyset.dev-v1.yml", "crds/admissionpolicysets.admission.policyset.dev-v1.yml",
                "files/prometheus_rule.yaml", "config/prometheus/prometheus_rule.yaml",
                "files/admission-policy-operator.json", "config/grafana/admission-policy-operator.json");
        for (Map.Entry<String, String> e : copies.entrySet()) {
            assertEquals(Files.readString(root.resolve(e.getValue())), Files.readString(chart.resolve(e.getKey())),
                    "charts/admission-policy-operator/" + e.getKey() + " differs from " + e.getValue() + ": run make chart");
        }
    }

    @Test
    void valuesReachTheDeploymentAndTheRole() {
        List<JsonNode> objects = template("image.tag=9.9.9", "resources.limits.memory=1Gi", "impact.enabled=false",
                "impact.kinds={v1/Pod,networking.k8s.io/v1/Ingress}",
                "impact.extraRules[0].apiGroups={networking.k8s.io}", "impact.extraRules[0].resources={ingresses}",
                "impact.extraRules[0].verbs={list,watch}", "extraEnv[0].name=APS_STATUS_MAX_FINDINGS",
                "extraEnv[0].value=20", "reports.enabled=true", "reports.results={fail,pass}", "reports.maxResults=50");
        JsonNode container = find(objects, "Deployment", "admission-policy-operator")
                .path("spec").path("template").path("spec").path("containers").get(0);
        assertEquals("ghcr.io/policyset/admission-policy-operator:9.9.9", container.path("image").asText());
        assertEquals("1Gi", container.path("resources").path("limits").path("memory").asText());
        Map<String, String> env = new TreeMap<>();
        container.path("env").forEach(e -> env.put(e.path("name").asText(), e.path("value").asText()));
        assertEquals("false", env.get("APS_IMPACT_ENABLED"));
        assertEquals("v1/Pod,networking.k8s.io/v1/Ingress", env.get("APS_IMPACT_KINDS"));
        assertEquals("20", env.get("APS_STATUS_MAX_FINDINGS"));
        assertEquals("fail,pass", env.get("APS_REPORTS_RESULTS"));
        assertEquals("50", env.get("APS_REPORTS_MAX_RESULTS"));
        JsonNode rules = find(objects, "ClusterRole", "admission-policy-operator").path("rules");
        JsonNode last = rules.get(rules.size() - 1);
        assertEquals("ingresses", last.path("resources").get(0).asText());
        assertEquals("[\"list\",\"watch\"]", last.path("verbs").toString());
    }

    @Test
    void anUnknownWebhookModeFailsNamingTheModes() {
        String typo = failure(List.of(helm, "template", "t", chart.toString(), "--set", "webhook.mode=on"));
        assertTrue(typo.contains("/webhook/mode") && typo.contains("self-managed") && typo.contains("cert-manager")
                && typo.contains("off"), typo);
    }

    // ------------------------------------------------------------------------------------------------ helpers

    /** Kustomize's objects and the chart's must be the same set, each the same once Helm's labels are set aside. */
    private static void assertSameObjects(List<JsonNode> kustomized, List<JsonNode> templated) {
        Map<String, JsonNode> expected = byKey(kustomized.stream().filter(o -> !"Namespace".equals(o.path("kind").asText())).toList());
        Map<String, JsonNode> actual = byKey(templated);
        assertEquals(expected.keySet(), actual.keySet(), "objects of config/ vs the chart (a Namespace aside)");
        for (String key : expected.keySet()) {
            JsonNode want = expected.get(key);
            JsonNode got = withoutChartLabels(actual.get(key), want);
            if (key.startsWith("CustomResourceDefinition ")) {
                // crds/ of a chart is installed as it is (never templated): no labels to add there
                ((ObjectNode) want.path("metadata")).remove("labels");
            }
            List<String> differences = new ArrayList<>();
            differences(want, got, "", differences);
            assertEquals(List.of(), differences, key + " differs from config/'s (path: config/'s value -> the chart's)");
        }
    }

    private static void differences(JsonNode want, JsonNode got, String path, List<String> out) {
        if (want.isObject() && got.isObject()) {
            java.util.Set<String> names = new java.util.TreeSet<>();
            want.fieldNames().forEachRemaining(names::add);
            got.fieldNames().forEachRemaining(names::add);
            for (String n : names) {
                differences(want.path(n), got.path(n), path + "." + n, out);
            }
        } else if (want.isArray() && got.isArray() && want.size() == got.size()) {
            for (int i = 0; i < want.size(); i++) {
                differences(want.get(i), got.get(i), path + "[" + i + "]", out);
            }
        } else if (!ProjectFiles.sameValue(want, got)) {
            out.add(path + ": " + abbreviate(want) + " -> " + abbreviate(got));
        }
    }

    private static String abbreviate(JsonNode node) {
        String text = node.isMissingNode() ? "(absent)" : node.toString();
        return text.length() > 300 ? text.substring(0, 300) + "..." : text;
    }

    private static Map<String, JsonNode> byKey(List<JsonNode> objects) {
        Map<String, JsonNode> out = new TreeMap<>();
        for (JsonNode o : objects) {
            String key = o.path("kind").asText() + " " + o.path("metadata").path("namespace").asText("-") + "/"
                    + o.path("metadata").path("name").asText();
            if (out.put(key, o) != null) {
                throw new IllegalStateException("two objects " + key);
            }
        }
        return out;
    }

    /** The chart's object without the labels it adds and config/'s object lacks (Helm's; the name on every object). */
    private static JsonNode withoutChartLabels(JsonNode object, JsonNode configs) {
        ObjectNode copy = object.deepCopy();
        JsonNode labels = copy.path("metadata").path("labels");
        if (labels instanceof ObjectNode l) {
            HELM_LABELS.forEach(l::remove);
            if (!configs.path("metadata").path("labels").has(NAME_LABEL)) {
                l.remove(NAME_LABEL);
            }
        }
        return copy;
    }

    private static JsonNode find(List<JsonNode> objects, String kind, String name) {
        return objects.stream().filter(o -> kind.equals(o.path("kind").asText())
                && name.equals(o.path("metadata").path("name").asText())).findFirst()
                .orElseThrow(() -> new AssertionError("the chart renders no " + kind + "/" + name));
    }

    private static List<JsonNode> kustomize(Path dir) {
        return ProjectFiles.kustomize(kubectl, dir);
    }

    private static List<JsonNode> template(String... sets) {
        List<String> command = new ArrayList<>(List.of(helm, "template", "aps", chart.toString(), "--namespace", NAMESPACE,
                "--include-crds"));
        for (String s : sets) {
            command.add("--set");
            command.add(s);
        }
        return ProjectFiles.readAllYaml(run(command));
    }

    static String run(List<String> command) {
        return run(new ProcessBuilder(command));
    }

    /** Runs the command (with the builder's directory and environment); its output, or an AssertionError with both. */
    static String run(ProcessBuilder builder) {
        Result r = exec(builder);
        if (r.code != 0) {
            throw new AssertionError(String.join(" ", builder.command()) + " exited " + r.code + ":\n" + r.out + r.err);
        }
        return r.out;
    }

    private static String failure(List<String> command) {
        Result r = exec(command);
        assertTrue(r.code != 0, String.join(" ", command) + " should fail");
        return r.err;
    }

    private record Result(int code, String out, String err) {}

    private static Result exec(List<String> command) {
        return exec(new ProcessBuilder(command));
    }

    private static Result exec(ProcessBuilder builder) {
        List<String> command = builder.command();
        try {
            Process p = builder.start();
            p.getOutputStream().close();
            var err = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    return new String(p.getErrorStream().readAllBytes());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish in 120 s");
            }
            return new Result(p.exitValue(), out, err.join());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** ~/.cache/aps/helm/&lt;version test/helm/module/go.mod pins&gt;/helm, or -Daps.helm=PATH. */
    static Optional<Path> helmBinary(Path root) {
        String explicit = System.getProperty("aps.helm");
        if (explicit != null && !explicit.isBlank()) {
            return Optional.of(Path.of(explicit)).filter(Files::isExecutable);
        }
        try {
            Matcher m = Pattern.compile("(?m)^require helm\\.sh/helm/v3 v([0-9.]+)$")
                    .matcher(Files.readString(root.resolve("test/helm/module/go.mod")));
            if (!m.find()) {
                throw new IllegalStateException("test/helm/module/go.mod: no 'require helm.sh/helm/v3 vX.Y.Z' line");
            }
            String dir = System.getenv().getOrDefault("APS_HELM_DIR", System.getProperty("user.home") + "/.cache/aps/helm");
            return Optional.of(Path.of(dir, m.group(1), "helm")).filter(Files::isExecutable);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package dev.policyset.aps.core.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySetStatus;
import dev.policyset.aps.core.cel.KubernetesCelChecker;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.ClusterView;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.model.LiveObject;
import dev.policyset.aps.core.yaml.Document;
import dev.policyset.aps.core.yaml.Yaml;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Golden files for the planner: one directory per case under {@code src/test/resources/golden/plan/}.
 *
 * <ul>
 *   <li>{@code in-set.yaml}: the set as stored (metadata with uid and generation, spec, and the status of the
 *       previous reconcile when the case needs one);
 *   <li>{@code in-cluster-*.yaml}: what the cluster holds (any admission objects, multi-document);
 *   <li>{@code in-discovery.yaml} (optional): {@code kubeVersion} (default 1.34) and {@code mutatingPolicyVersion}
 *       (default v1beta1; {@code none} when not served);
 *   <li>{@code in-dry-run.yaml} (optional): the API server's refusals of dry runs ({@code object}, {@code code},
 *       {@code reason}, {@code message}, {@code causes});
 *   <li>{@code out-plan.yaml}: the plan (outcome, detail, findings, writes, removals, rows, events), or the
 *       release when the set has a {@code deletionTimestamp};
 *   <li>{@code out-status.yaml}: the status the plan writes (time fixed at {@link #NOW}).
 * </ul>
 * Any other file fails the case, so a misspelt fixture cannot be silently ignored. Regenerate with
 * {@code -Daps.golden.update=true} and review the diff.
 */
class PlanGoldenTest {
    static final Path CASES = Path.of("src/test/resources/golden/plan");
    static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final Set<String> KNOWN = Set.of("in-set.yaml", "in-discovery.yaml", "in-dry-run.yaml",
            "out-plan.yaml", "out-status.yaml");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Planner PLANNER = new Planner(new KubernetesCelChecker());

    @TestFactory
    Stream<DynamicTest> goldenCases() throws IOException {
        List<Path> dirs;
        try (Stream<Path> list = Files.list(CASES)) {
            dirs = list.filter(Files::isDirectory).sorted().toList();
        }
        assertFalse(dirs.isEmpty(), "no golden cases under " + CASES);
        return dirs.stream().map(dir -> DynamicTest.dynamicTest(dir.getFileName().toString(), () -> check(dir)));
    }

    private static void check(Path dir) throws Exception {
        List<Path> cluster = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.sorted().toList()) {
                String name = f.getFileName().toString();
                if (name.startsWith("in-cluster-") && name.endsWith(".yaml")) {
                    cluster.add(f);
                } else {
                    assertTrue(KNOWN.contains(name), dir + " has a file the test does not use: " + name);
                }
            }
        }
        ObjectNode set = (ObjectNode) read(dir.resolve("in-set.yaml")).get(0);
        AdmissionPolicySetStatus previous = set.has("status")
                ? JSON.convertValue(set.get("status"), AdmissionPolicySetStatus.class) : null;
        PlanInput input = new PlanInput(set, previous);
        ClusterView view = view(dir, cluster);

        if (set.path("metadata").has("deletionTimestamp")) {
            compare(dir.resolve("out-plan.yaml"), Yaml.write(List.of(describe(Planner.release(input, view)))));
            return;
        }
        Plan plan = PLANNER.plan(input, view);
        Path dryRun = dir.resolve("in-dry-run.yaml");
        if (Files.exists(dryRun)) {
            assertFalse(plan.writes().isEmpty(), dryRun + " is unused: the plan has nothing to dry-run");
            plan = Planner.afterDryRun(plan, rejections(read(dryRun)));
        }
        compare(dir.resolve("out-plan.yaml"), Yaml.write(List.of(describe(plan))));
        compare(dir.resolve("out-status.yaml"), Yaml.write(List.of(JSON.valueToTree(plan.status(NOW, 50)))));
    }

    private static ClusterView view(Path dir, List<Path> files) throws Exception {
        KubeVersion version = new KubeVersion(1, 34);
        Optional<String> map = Optional.of("v1beta1");
        Path discovery = dir.resolve("in-discovery.yaml");
        if (Files.exists(discovery)) {
            JsonNode d = read(discovery).get(0);
            version = d.has("kubeVersion") ? KubeVersion.parse(d.get("kubeVersion").asText()) : version;
            String v = d.path("mutatingPolicyVersion").asText("v1beta1");
            map = v.equals("none") ? Optional.empty() : Optional.of(v);
        }
        List<LiveObject> objects = new ArrayList<>();
        for (Path f : files) {
            for (JsonNode n : read(f)) {
                objects.add(LiveObject.of((ObjectNode) n).orElseThrow(() -> new AssertionError(f + ": not an admission object: " + n)));
            }
        }
        return ClusterView.of(version, map, objects);
    }

    private static List<DryRunRejection> rejections(List<JsonNode> documents) {
        List<DryRunRejection> out = new ArrayList<>();
        for (JsonNode list : documents) {
            for (JsonNode r : list) {
                List<DryRunRejection.Cause> causes = new ArrayList<>();
                r.path("causes").forEach(c -> causes.add(new DryRunRejection.Cause(c.path("reason").asText(),
                        c.path("field").asText(), c.path("message").asText())));
                out.add(new DryRunRejection(r.path("object").asText(), r.path("code").asInt(), r.path("reason").asText(),
                        r.path("message").asText(), causes));
            }
        }
        return out;
    }

    static ObjectNode describe(Plan plan) {
        ObjectNode out = JSON.createObjectNode();
        out.put("outcome", plan.outcome().name());
        out.put("detail", plan.detail());
        ArrayNode findings = out.putArray("findings");
        for (Finding f : plan.findings()) {
            findings.addObject().put("rule", f.rule()).put("severity", f.severity().label()).put("object", f.object())
                    .put("field", f.field()).put("message", f.message());
        }
        ArrayNode writes = out.putArray("writes");
        plan.writes().forEach(w -> writes.addObject().put("object", w.id()).put("apiVersion", w.apiVersion())
                .put("action", w.action().name()));
        ArrayNode removals = out.putArray("removals");
        plan.removals().forEach(r -> removals.add(r.id()));
        ArrayNode objects = out.putArray("objects");
        plan.objects().forEach(o -> objects.addObject().put("object", o.id()).put("apiVersion", o.apiVersion())
                .put("state", o.state().name()).put("message", o.message()));
        ArrayNode events = out.putArray("events");
        plan.events().forEach(e -> events.add(e.reason() + ": " + e.message()));
        plan.warning().ifPresent(e -> events.add("Warning " + e.reason() + ": " + e.message()));
        if (plan.lastApplied() != null) {
            out.put("lastAppliedGeneration", plan.lastApplied().getGeneration());
        }
        return out;
    }

    private static ObjectNode describe(Release release) {
        ObjectNode out = JSON.createObjectNode();
        out.put("release", release.orphan() ? "Orphan" : "Delete");
        ArrayNode objects = out.putArray("objects");
        release.objects().forEach(r -> objects.add(r.id()));
        release.event().ifPresent(e -> out.put("event", e.reason() + ": " + e.message()));
        return out;
    }

    private static List<JsonNode> read(Path file) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (Document d : Yaml.parse(file.toString(), Files.readString(file))) {
            out.add(d.content());
        }
        return out;
    }

    private static void compare(Path expectedFile, String actual) throws IOException {
        if (Boolean.getBoolean("aps.golden.update")) {
            Files.writeString(expectedFile, actual, StandardCharsets.UTF_8);
        }
        assertTrue(Files.exists(expectedFile), expectedFile + " is missing; run with -Daps.golden.update=true");
        assertEquals(Files.readString(expectedFile), actual, "differs from " + expectedFile);
    }
}

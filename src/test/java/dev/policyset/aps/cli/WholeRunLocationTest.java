package dev.policyset.aps.cli;

import dev.policyset.aps.core.cel.KubernetesCelChecker;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.testing.SharedData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Findings are located where their own object is defined, even when several files of one run define the same
 * {@code Kind/name}. The conformance cases reuse names (one VAP name in over a hundred files), so a run over the
 * whole directory must locate every finding exactly as a run over its case file alone does.
 *
 * <p>Findings whose verdict depends on other objects of the input legitimately differ between the two runs: a
 * binding finds its policy in another case (APS401), a policy its binding (APS402), the latency of webhooks
 * from several cases adds up (APS302), the repeated names themselves (APS404). Such a finding may be present in
 * one run and not the other; when it is in both, its location must agree. Every other finding must be the same,
 * on the same file and line.
 */
class WholeRunLocationTest {
    private static final Set<String> ACROSS_OBJECTS = Set.of("APS302", "APS401", "APS402", "APS404");

    private static ValidationRun.Result run(Path path) {
        return ValidationRun.run(List.of(path), InputStream.nullInputStream(), KubeVersion.NEWEST, new KubernetesCelChecker());
    }

    private static String key(LocatedFinding f) {
        Finding x = f.finding();
        return x.rule() + " " + x.severity().label() + " " + x.object() + " " + x.field() + " :" + f.line() + " " + x.message();
    }

    @Test
    void everyFindingOfAWholeConformanceRunIsLocatedInItsOwnCaseFile() throws IOException {
        Path dir = SharedData.require("conformance");
        ValidationRun.Result whole = run(dir);
        Map<String, List<LocatedFinding>> byFile = new TreeMap<>();
        for (LocatedFinding f : whole.findings()) {
            assertTrue(f.file() != null || f.finding().object().isEmpty(), "located: " + f);
            byFile.computeIfAbsent(f.file(), k -> new ArrayList<>()).add(f);
        }

        List<Path> cases;
        try (Stream<Path> files = Files.walk(dir)) {
            cases = files.filter(p -> p.toString().endsWith(".yaml") && !p.toString().endsWith(".expect.yaml")
                    && !p.getFileName().toString().equals("README.md")).sorted().toList();
        }
        assertTrue(cases.size() > 200, "conformance cases: " + cases.size());

        int compared = 0;
        int acrossBoth = 0;
        List<String> problems = new ArrayList<>();
        for (Path file : cases) {
            List<String> alone = new ArrayList<>();
            for (LocatedFinding f : run(file).findings()) {
                assertEquals(file.toString(), f.file(), "a single-file run locates in its file: " + f);
                alone.add(key(f));
            }
            List<String> together = new ArrayList<>(byFile.getOrDefault(file.toString(), List.of()).stream()
                    .map(WholeRunLocationTest::key).toList());
            for (String f : List.copyOf(together)) {
                if (alone.remove(f)) {
                    together.remove(f);
                    compared++;
                    acrossBoth += ACROSS_OBJECTS.contains(f.substring(0, f.indexOf(' '))) ? 1 : 0;
                }
            }
            // What is left must be findings that depend on the other objects of the input.
            for (String f : together) {
                if (!ACROSS_OBJECTS.contains(f.substring(0, f.indexOf(' ')))) {
                    problems.add(file + ": only in the whole run: " + f);
                }
            }
            for (String f : alone) {
                if (!ACROSS_OBJECTS.contains(f.substring(0, f.indexOf(' ')))) {
                    problems.add(file + ": only in the single-file run: " + f);
                }
            }
        }
        assertEquals(List.of(), problems);
        // The expectation files are not objects: nothing but skipped documents there.
        for (var e : byFile.entrySet()) {
            if (e.getKey() != null && e.getKey().endsWith(".expect.yaml")) {
                assertTrue(e.getValue().stream().allMatch(ValidationRun.Result::isSkipped), e.toString());
            }
        }
        System.out.printf("whole conformance run: %d findings in %d case files agree with single-file runs on file and "
                + "line (%d of them from rules that look across objects)%n", compared, cases.size(), acrossBoth);
        assertTrue(compared > 300, "findings compared: " + compared);
    }

    @Test
    void aRepeatedNameIsLocatedInEachFileAndApS404NamesBothFiles(@TempDir Path dir) throws IOException {
        // Two environments define the same webhook configuration; only prod's is fail-closed with a long timeout.
        String webhook = """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata:
                  name: image-checker
                webhooks:
                  - name: images.example.com
                    admissionReviewVersions: [v1]
                    sideEffects: None
                    failurePolicy: %s
                    timeoutSeconds: %d
                    clientConfig:
                      url: https://images.example.com/validate
                    namespaceSelector:
                      matchExpressions:
                        - {key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system, kube-node-lease]}
                    rules:
                      - apiGroups: [apps]
                        apiVersions: [v1]
                        operations: [CREATE]
                        resources: [deployments]
                """;
        Path dev = dir.resolve("dev.yaml");
        Path prod = dir.resolve("prod.yaml");
        Files.writeString(dev, "# dev\n" + webhook.formatted("Ignore", 5));
        Files.writeString(prod, "# prod\n\n\n" + webhook.formatted("Fail", 25));
        ValidationRun.Result result = run(dir);
        Map<String, List<String>> rulesByFile = new HashMap<>();
        for (LocatedFinding f : result.findings()) {
            rulesByFile.computeIfAbsent(f.file(), k -> new ArrayList<>()).add(f.finding().rule() + ":" + f.line());
            if (f.finding().rule().equals("APS404")) {
                assertTrue(f.finding().message().contains(dev + ":5") && f.finding().message().contains(prod + ":7"),
                        f.finding().message());
            }
        }
        assertTrue(rulesByFile.getOrDefault(prod.toString(), List.of()).contains("APS301:13"), rulesByFile.toString());
        assertTrue(rulesByFile.getOrDefault(dev.toString(), List.of()).stream().noneMatch(r -> r.startsWith("APS301")),
                "dev's webhook is fail-open with a short timeout: " + rulesByFile);
        assertTrue(rulesByFile.getOrDefault(dev.toString(), List.of()).contains("APS404:5"), "APS404 at the first definition: "
                + rulesByFile);
    }
}

package dev.policyset.aps.core.validate.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.cel.CelChecker;
import dev.policyset.aps.core.cel.KubernetesCelChecker;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.yaml.Yaml;
import dev.policyset.aps.testing.SharedData;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The kube-apiserver conformance cases in {@code ../shared/conformance/}: for each case, the verdict and the
 * exact multiset of (field, error type) must match what the API server answers (its README). Cases run at
 * the suite's target, Kubernetes 1.36, with the real Kubernetes CEL checker (CEL errors are part of the
 * expectations).
 */
class ConformanceTest {
    /**
     * Cases known to be wrong, by {@code Kind/case}, each with the upstream function that shows the real
     * behaviour. Keep this list short and visible; never bend the validator to a case instead.
     */
    static final Map<String, String> EXCLUDED = Map.of();

    /** The suite describes 1.36 (its README: "also valid for 1.37 unless `requires` says otherwise"). */
    private static final KubeVersion TARGET = new KubeVersion(1, 36);
    private static final Pattern MIN_VERSION = Pattern.compile(
            "(?:>=|≥|at least|from|since)\\s*(?:kubernetes\\s*|kube-apiserver\\s*)?v?(1\\.\\d+)|v?(1\\.\\d+)\\s*\\+",
            Pattern.CASE_INSENSITIVE);
    private static final AtomicInteger RUN = new AtomicInteger();
    private static final AtomicInteger AGREED = new AtomicInteger();

    @TestFactory
    Stream<DynamicTest> cases() throws IOException {
        Path root = SharedData.find("conformance").orElse(null);
        if (root == null) {
            return Stream.of(SharedData.skippedSuite("conformance"));
        }
        CelChecker cel = new KubernetesCelChecker();
        List<DynamicTest> tests = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".yaml") && !p.toString().endsWith(".expect.yaml"))
                    .sorted().toList()) {
                String kind = file.getParent().getFileName().toString();
                String name = file.getFileName().toString().replaceFirst("\\.yaml$", "");
                String id = kind + "/" + name;
                if (EXCLUDED.containsKey(id)) {
                    continue;
                }
                tests.add(DynamicTest.dynamicTest(id, file.toUri(), () -> runCase(file, cel)));
            }
        }
        assertFalse(tests.isEmpty(), "no conformance cases under " + root);
        return tests.stream();
    }

    @AfterAll
    static void summary() {
        if (RUN.get() > 0) {
            System.out.println("conformance: " + AGREED.get() + "/" + RUN.get() + " agree"
                    + (EXCLUDED.isEmpty() ? "" : " (" + EXCLUDED.size() + " excluded: " + EXCLUDED.keySet() + ")")
                    + " [CEL: KubernetesCelChecker at " + TARGET + "]");
        }
    }

    /**
     * The suite targets 1.36; a case whose {@code requires} asks for a newer server ("kube-apiserver &gt;= 1.37",
     * "1.37+", "at least 1.37", "from 1.37") runs at that version instead.
     */
    static KubeVersion targetFor(String requires) {
        Matcher m = MIN_VERSION.matcher(requires);
        KubeVersion target = TARGET;
        while (m.find()) {
            KubeVersion wanted = KubeVersion.parse(m.group(1) != null ? m.group(1) : m.group(2));
            if (wanted.compareTo(target) > 0) {
                target = wanted;
            }
        }
        return target;
    }

    private static void runCase(Path file, CelChecker cel) throws Exception {
        RUN.incrementAndGet();
        JsonNode object = Yaml.parse(file.toString(), Files.readString(file)).get(0).content();
        Path expectFile = Path.of(file.toString().replaceFirst("\\.yaml$", ".expect.yaml"));
        JsonNode expect = Yaml.parse(expectFile.toString(), Files.readString(expectFile)).get(0).content();

        AdmissionKind kind = AdmissionKind.fromKind(object.path("kind").asText()).orElseThrow();
        RenderedObject rendered = new RenderedObject(kind, object.path("apiVersion").asText(),
                object.path("metadata").path("name").asText(""), (ObjectNode) object, "");
        List<Finding> findings = ApiServerRules.check(rendered, targetFor(expect.path("requires").asText("")), cel);

        Map<String, Integer> actual = new TreeMap<>();
        for (Finding f : findings) {
            if (f.isError()) {
                actual.merge(f.field() + " " + f.rule().replaceFirst("^api/", ""), 1, Integer::sum);
            }
        }
        Map<String, Integer> expected = new TreeMap<>();
        for (JsonNode error : expect.path("errors")) {
            expected.merge(error.path("field").asText() + " " + error.path("type").asText(), 1, Integer::sum);
        }
        boolean reject = expect.path("verdict").asText().equals("reject");
        String detail = "findings: " + findings.stream().map(f -> f.rule() + " " + f.field() + ": " + f.message()).toList();
        assertEquals(reject, !actual.isEmpty(), "verdict; " + detail);
        assertEquals(expected, actual, detail);
        AGREED.incrementAndGet();
    }
}

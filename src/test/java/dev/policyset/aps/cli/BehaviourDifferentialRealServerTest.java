package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.evaluate.AdmissionOutcome;
import dev.policyset.aps.core.evaluate.AdmissionRequest;
import dev.policyset.aps.core.evaluate.suite.CaseResult;
import dev.policyset.aps.core.evaluate.suite.TestCase;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.yaml.Document;
import dev.policyset.aps.core.yaml.Yaml;
import dev.policyset.aps.testing.kube.Differential;
import dev.policyset.aps.testing.kube.KubeBinaries;
import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.RealApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The behaviour differential suite (issue #19 item 3): every {@code aps test} file of the repository (a
 * {@code PolicyTest} or a kaptest manifest, found by walking the repository, so a new one is included) run offline
 * and on a real kube-apiserver through {@code aps test --server}'s own machinery ({@link ServerTestRun},
 * {@link TestRun#onServer}), and each case's two results compared: allowed or denied, code, message, warnings, and
 * for an admitted request the object (what a mutation made of it, as JSON values). Expectations are not what is
 * judged, so the deliberately failing samples count like the others.
 *
 * <p>The server is one of the suite's own, serving every admissionregistration version the binary can (as the
 * structure suite's), with the controller manager (namespaces the runs create are deleted for real) and every
 * CustomResourceDefinition a test names under {@code crds} installed. A case the server cannot be
 * asked is skipped with the reason: a file that does not run, a request {@code aps test --server} does not send
 * (subresources, CONNECT), a kind the server does not serve, and a custom kind of a test that runs without its CRD
 * (offline it is schemaless; a server serves it only with its CRD).
 */
@RealApiServer
class BehaviourDifferentialRealServerTest {
    private static final List<String> SKIP_DIRS = List.of(".git", "target", "node_modules", ".mvn", "bin");
    private static final dev.policyset.aps.core.cel.CelChecker CEL = new dev.policyset.aps.core.cel.KubernetesCelChecker();
    private static KubeControlPlane plane;

    @TestFactory
    Stream<DynamicTest> behaviour() throws Exception {
        String version = KubeBinaries.version();
        List<Path> files = testFiles(Path.of(""));
        assertFalse(files.isEmpty(), "no aps test file found in the repository");
        Differential judge = Differential.of("behaviour", version);

        Instant t0 = Instant.now();
        // every admissionregistration version the binary can serve (the suites hold v1beta1 policies, which a cluster
        // admin may enable), and the controller manager, so that the namespaces each file's run creates are deleted
        List<String> flags = StructureDifferentialRealServerTest.everythingServable(version).apiServerFlags();
        plane = KubeControlPlane.start(new KubeControlPlane.Options(version, true, null, false, flags));
        Map<String, Set<String>> declaredCrds = new LinkedHashMap<>(); // test file -> group/plural of its crds
        Set<String> installed = installCrds(files, declaredCrds);

        TestRun.Result offline = TestRun.run(files, InputStream.nullInputStream(), KubeVersion.parse(version));
        TestRun.Result judged;
        try (ServerTestRun run = ServerTestRun.connect(plane.configFor("aps-behaviour", List.of("system:masters")), false)) {
            judged = TestRun.onServer(offline, run::run);
        }
        System.out.printf("[behaviour] %s: %d files, %d cases, run offline and on the server in %d ms (start included)%n",
                version, judged.files().size(), judged.cases(), Duration.between(t0, Instant.now()).toMillis());

        List<DynamicTest> tests = new ArrayList<>();
        judged.problems().forEach(p -> tests.add(DynamicTest.dynamicTest(p.file(),
                () -> judge.skip(p.file(), "not a runnable test file", p.describe()))));
        for (TestRun.FileResult f : judged.files()) {
            String file = "repo:" + relative(f.test().file());
            if (!f.test().runnable()) {
                tests.add(DynamicTest.dynamicTest(file, () -> judge.skip(file, "not a runnable test file",
                        f.test().problems().stream().map(dev.policyset.aps.core.evaluate.suite.Problem::describe).toList().toString())));
                continue;
            }
            Set<String> declared = declaredCrds.getOrDefault(f.test().file(), Set.of());
            for (int i = 0; i < f.cases().size(); i++) {
                TestCase c = f.test().cases().get(i);
                CaseResult server = f.cases().get(i);
                CaseResult off = f.offlineOf(i);
                String id = file + "#" + c.name();
                tests.add(DynamicTest.dynamicTest(id, () -> judgeCase(judge, version, id, c, off, server, installed, declared)));
            }
        }
        tests.add(DynamicTest.dynamicTest("listed divergences still diverge at " + version, () -> {
            List<String> stale = judge.staleEntries(version, judge::judged);
            assertTrue(stale.isEmpty(), "known-divergences.yaml lists behaviour divergences that no longer diverge: " + stale);
        }));
        tests.add(DynamicTest.dynamicTest("report target/kube-report-" + version + ".json", () -> {
            Path report = judge.writeReport();
            System.out.printf("[behaviour] Kubernetes %s: %s (%s)%n", version, judge.counts(), report);
        }));
        return tests.stream();
    }

    private static void judgeCase(Differential judge, String version, String id, TestCase c, CaseResult offline,
                                  CaseResult server, Set<String> installed, Set<String> declared) {
        AdmissionRequest r = c.request();
        String resource = r.group() + "/" + r.resource();
        if (installed.contains(resource) && !declared.contains(resource)) {
            judge.skip(id, "custom kind tested without its CRD", resource + " is served only with its "
                    + "CustomResourceDefinition, which this test leaves out on purpose (offline it is schemaless)");
        }
        AdmissionOutcome s = server.outcome();
        if (s == null) {
            String why = String.join("; ", server.differences().isEmpty() ? server.notes() : server.differences());
            if (server.differences().isEmpty()) {
                judge.skip(id, "request not sent by aps test --server", why);
            }
            // The server refused the case's own policies at creation: offline agrees when aps test refuses them too
            // (RefusedObjects: the API server's creation rules run on what a case loads, and the versions it serves).
            String refusedOffline = offline.differences().stream()
                    .filter(d -> d.startsWith("the API server refuses to create")).findFirst().orElse("");
            if (why.contains("(404)")) {
                if (refusedOffline.contains("does not serve")) {
                    judge.judge(id, version, "setup refused: not served", "setup refused: not served", true, "both: not served");
                    return;
                }
                judge.skip(id, "not served by the server", why);
            }
            KubeVersion serverVersion = KubeVersion.parse(version);
            if (refusedOffline.isEmpty() && why.contains("(422)") && c.options().version().compareTo(serverVersion) > 0) {
                // A file written for a later Kubernetes (its kubeVersion) runs offline at that version; what this
                // older server refuses, aps must refuse at the server's version (a CEL library it does not have yet)
                Map<String, List<String>> atServer = RefusedObjects.refusedAt(c, serverVersion, CEL, new java.util.IdentityHashMap<>());
                judge.judge(id, version, "setup refused (written for " + c.options().version() + ")",
                        atServer.isEmpty() ? "created at " + version : "setup refused (written for " + c.options().version() + ")",
                        !atServer.isEmpty(), atServer.isEmpty() ? why : "at " + version + " aps refuses too: " + atServer);
                return;
            }
            judge.judge(id, version, "setup refused: " + why,
                    refusedOffline.isEmpty() ? summary(offline.outcome()) : "setup refused: " + refusedOffline,
                    !refusedOffline.isEmpty() && why.contains("(422)"), refusedOffline.isEmpty() ? "" : "both refuse");
            return;
        }
        if (s.code() == 404 && (offline.outcome() == null || offline.outcome().code() != 404)) {
            judge.skip(id, "not served by the server", s.message());
        }
        List<String> apart = OfflineComparison.differences(offline.outcome(), s);
        String objects = apart.stream().filter(d -> d.startsWith("object ")).reduce((a, b) -> a + "; " + b)
                .map(d -> " (" + d + ")").orElse("");
        judge.judge(id, version, summary(s), summary(offline.outcome()) + objects, apart.isEmpty(), String.join("; ", apart));
    }

    /** "allowed" or "denied CODE Reason: message", then the warnings; the object differences are the aps side's. */
    static String summary(AdmissionOutcome o) {
        if (o == null) {
            return "no outcome";
        }
        String verdict = o.allowed() ? "allowed" : "denied " + o.code() + (o.reason().isEmpty() ? "" : " " + o.reason()) + ": " + o.message();
        return verdict + (o.warnings().isEmpty() ? "" : " warnings " + o.warnings());
    }

    /** Every file of the repository holding an aps test (PolicyTest or kaptest manifest), sorted. */
    static List<Path> testFiles(Path root) throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(root.toAbsolutePath())) {
            for (Path p : walk.filter(Files::isRegularFile).sorted().toList()) {
                Path rel = root.toAbsolutePath().relativize(p);
                if (rel.getNameCount() > 0 && SKIP_DIRS.contains(rel.getName(0).toString())) {
                    continue;
                }
                String name = p.getFileName().toString();
                if (!(name.endsWith(".yaml") || name.endsWith(".yml"))) {
                    continue;
                }
                String text = Files.readString(p);
                if (text.contains("kind: PolicyTest") || text.contains("testSuites:")) {
                    out.add(rel);
                }
            }
        }
        return out;
    }

    /** Installs the CRDs the tests name under {@code crds}; returns their group/plural, and each file's own. */
    private static Set<String> installCrds(List<Path> files, Map<String, Set<String>> declared) throws Exception {
        Set<String> installed = new TreeSet<>();
        Map<String, JsonNode> crds = new LinkedHashMap<>();
        for (Path file : files) {
            List<Document> docs;
            try {
                docs = Yaml.parse(file.toString(), Files.readString(file));
            } catch (Exception e) {
                continue; // its own run reports it
            }
            Set<String> mine = new TreeSet<>();
            for (Document d : docs) {
                for (JsonNode entry : d.content().path("crds")) {
                    Path at = file.resolveSibling(entry.asText());
                    List<Path> sources = Files.isDirectory(at) ? Files.list(at).sorted().toList() : List.of(at);
                    for (Path source : sources) {
                        for (Document crd : Yaml.parse(source.toString(), Files.readString(source))) {
                            JsonNode content = crd.content();
                            if (content.path("kind").asText().equals("CustomResourceDefinition")) {
                                String resource = content.path("spec").path("group").asText() + "/"
                                        + content.path("spec").path("names").path("plural").asText();
                                mine.add(resource);
                                crds.putIfAbsent(content.path("metadata").path("name").asText(), content);
                            }
                        }
                    }
                }
            }
            declared.put(file.toString(), mine);
        }
        for (JsonNode crd : crds.values()) {
            GenericKubernetesResource r = Yaml.mapper().convertValue(crd, GenericKubernetesResource.class);
            plane.admin().resource(r).create();
            installed.add(crd.path("spec").path("group").asText() + "/" + crd.path("spec").path("names").path("plural").asText());
        }
        for (JsonNode crd : crds.values()) {
            awaitEstablished(crd.path("metadata").path("name").asText());
        }
        // a mutating policy's apply configuration is typed from the server's OpenAPI, which publishes a new CRD a
        // moment after it is Established
        for (String resource : installed) {
            awaitOpenApi("apis/" + resource.substring(0, resource.indexOf('/')));
        }
        return installed;
    }

    private static void awaitEstablished(String name) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        while (Instant.now().isBefore(deadline)) {
            var crd = plane.admin().apiextensions().v1().customResourceDefinitions().withName(name).get();
            if (crd != null && crd.getStatus() != null && crd.getStatus().getConditions().stream()
                    .anyMatch(c -> c.getType().equals("Established") && c.getStatus().equals("True"))) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("CustomResourceDefinition " + name + " not Established within 60 s");
    }

    private static void awaitOpenApi(String groupPrefix) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        while (Instant.now().isBefore(deadline)) {
            String paths = plane.admin().raw("/openapi/v3");
            if (paths != null && paths.contains("\"" + groupPrefix + "/")) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("/openapi/v3 does not list " + groupPrefix + " within 60 s");
    }

    private static String relative(String file) {
        Path p = Path.of(file);
        return (p.isAbsolute() ? Path.of("").toAbsolutePath().relativize(p) : p).toString().replace('\\', '/');
    }

    @AfterAll
    static void stop() {
        if (plane != null) {
            plane.close();
            plane = null;
        }
    }
}

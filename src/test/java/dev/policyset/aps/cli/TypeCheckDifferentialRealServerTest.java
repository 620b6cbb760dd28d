package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.cel.KubernetesCelChecker;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.yaml.Document;
import dev.policyset.aps.core.yaml.Yaml;
import dev.policyset.aps.testing.SharedData;
import dev.policyset.aps.testing.kube.Differential;
import dev.policyset.aps.testing.kube.KubeBinaries;
import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.RealApiServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
 * The type-checking differential suite (issue #19 item 4): every ValidatingAdmissionPolicy of the repository's
 * {@code aps test} suites ({@code src/test/resources/aps-test}), of {@code ../shared/corpus/vap} and of
 * {@code ../shared/conformance/ValidatingAdmissionPolicy} is created on a real server whose kube-controller-manager
 * runs the ValidatingAdmissionPolicy status controller, and the fields its {@code status.typeChecking} warns about
 * are compared with the fields {@code aps validate --kube-version <minor>} reports as APS602 for the same object.
 * APS601 is the operator's report of exactly those server warnings (one finding per {@code expressionWarnings}
 * entry, {@code Aps601ServerTypeCheck}), so the server's side of this comparison is what APS601 says.
 *
 * <p>Each policy gets a unique name and the v1 apiVersion (v1beta1/v1alpha1 are not served at 1.37; the spec is
 * the same). The CustomResourceDefinitions of the suites are installed first and given to {@code aps validate} as
 * {@code --crds}, so both sides know the same schemas. A policy the server refuses is not a type-checking case (the
 * structure suite judges it). Compared: the set of {@code fieldRef}s; messages are printed, not compared.
 *
 * <p>Judged like the other differential suites: an unlisted divergence fails, and so does a listed one that agrees
 * now (known-divergences.yaml, section {@code typecheck}; the 38 of 1.37.2 are reviewed there).
 */
@RealApiServer
class TypeCheckDifferentialRealServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static KubeControlPlane plane;

    /** One policy document: where it comes from, and the object as created (unique name, v1). */
    record PolicyCase(String id, ObjectNode object) {
    }

    @TestFactory
    Stream<DynamicTest> typecheck() throws Exception {
        String version = KubeBinaries.version();
        KubeVersion minor = KubeVersion.parse(version);
        Path repoSuites = Path.of("src", "test", "resources", "aps-test");
        List<PolicyCase> cases = new ArrayList<>();
        List<Path> crds = new ArrayList<>();
        collect(repoSuites, Path.of("src", "test", "resources"), "repo:", cases, crds);
        boolean shared = SharedData.find("corpus").isPresent() && SharedData.find("conformance").isPresent();
        if (shared) {
            collect(SharedData.require("corpus").resolve("vap"), SharedData.root(), "", cases, crds);
            collect(SharedData.require("conformance").resolve("ValidatingAdmissionPolicy"), SharedData.root(), "", cases, crds);
        } else {
            System.out.println("[typecheck] ../shared not found: only the repository's aps test suites are compared");
        }
        assertFalse(cases.isEmpty(), "no ValidatingAdmissionPolicy found");
        Differential judge = Differential.of("typecheck", version);

        Instant t0 = Instant.now();
        plane = KubeControlPlane.start(new KubeControlPlane.Options(version, true, null, false, List.of()));
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(plane.sslContext(true))
                .connectTimeout(Duration.ofSeconds(5)).build();
        for (Path crd : crds) {
            for (Document d : Yaml.parse(crd.toString(), Files.readString(crd))) {
                if (d.content().path("kind").asText().equals("CustomResourceDefinition")) {
                    send(http, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", d.content());
                }
            }
        }
        if (!crds.isEmpty()) {
            Thread.sleep(2000); // the status controller resolves kinds through discovery; give the CRDs time to be served
        }
        Map<String, PolicyCase> created = new LinkedHashMap<>();
        int refused = 0;
        for (PolicyCase c : cases) {
            HttpResponse<String> r = send(http, "POST", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies", c.object());
            if (r.statusCode() == 201) {
                created.put(c.object().path("metadata").path("name").asText(), c);
            } else {
                refused++;
            }
        }
        Map<String, JsonNode> statuses = awaitTypeChecking(http, created.keySet(), Duration.ofSeconds(120));
        System.out.printf("[typecheck] %s: %d policies, %d created (%d refused: not type-checking cases), type-checked by the"
                + " server in %d ms (start included)%n", version, cases.size(), created.size(), refused,
                Duration.between(t0, Instant.now()).toMillis());

        Path work = Files.createTempDirectory("aps-typecheck-");
        List<DynamicTest> tests = new ArrayList<>();
        for (Map.Entry<String, PolicyCase> e : created.entrySet()) {
            PolicyCase c = e.getValue();
            tests.add(DynamicTest.dynamicTest(c.id(), () -> {
                JsonNode status = statuses.get(e.getKey());
                assertTrue(status != null, "the server never type-checked " + c.id());
                Set<String> server = new TreeSet<>();
                List<String> serverSaid = new ArrayList<>();
                for (JsonNode w : status.path("typeChecking").path("expressionWarnings")) {
                    server.add(w.path("fieldRef").asText());
                    serverSaid.add(w.path("fieldRef").asText() + ": " + w.path("warning").asText().replace('\n', ' '));
                }
                Path file = work.resolve(e.getKey() + ".yaml");
                Files.writeString(file, JSON.writeValueAsString(c.object()));
                ValidationRun.Result result = ValidationRun.run(List.of(file), InputStream.nullInputStream(), minor,
                        new KubernetesCelChecker(), crds);
                Set<String> ours = new TreeSet<>();
                List<String> oursSaid = new ArrayList<>();
                for (LocatedFinding lf : result.findings()) {
                    Finding f = lf.finding();
                    if (f.rule().equals("APS602")) {
                        ours.add(f.field());
                        oursSaid.add(f.field() + ": " + f.message());
                    }
                }
                String detail = (serverSaid.isEmpty() ? "" : "server said: " + serverSaid)
                        + (oursSaid.isEmpty() ? "" : (serverSaid.isEmpty() ? "" : "; ") + "aps said: " + oursSaid);
                judge.judge(c.id(), version, summary(server), summary(ours), server.equals(ours), detail);
            }));
        }
        tests.add(DynamicTest.dynamicTest("listed divergences still diverge at " + version, () -> {
            List<String> stale = judge.staleEntries(version, judge::judged);
            assertTrue(stale.isEmpty(), "known-divergences.yaml lists typecheck divergences that no longer diverge: " + stale);
        }));
        tests.add(DynamicTest.dynamicTest("report target/kube-report-" + version + ".json", () -> {
            Path report = judge.writeReport();
            System.out.printf("[typecheck] Kubernetes %s: %s (%s)%n", version, judge.counts(), report);
        }));
        return tests.stream();
    }

    @AfterAll
    static void stop() {
        if (plane != null) {
            plane.close();
            plane = null;
        }
    }

    private static String summary(Set<String> fields) {
        return fields.isEmpty() ? "clean" : "warn " + fields;
    }

    /** The ValidatingAdmissionPolicy documents under {@code dir} (and its CRDs), renamed tc-&lt;n&gt; and at v1. */
    private static void collect(Path dir, Path root, String prefix, List<PolicyCase> cases, List<Path> crds) throws Exception {
        if (!Files.isDirectory(dir)) {
            return;
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dir)) {
            files = walk.filter(p -> p.toString().endsWith(".yaml") && !p.toString().endsWith(".expect.yaml")).sorted().toList();
        }
        for (Path file : files) {
            List<Document> docs;
            try {
                docs = Yaml.parse(file.toString(), Files.readString(file));
            } catch (Exception e) {
                continue; // not ours to judge: the structure suite reports unparsable files
            }
            int index = 0;
            for (Document d : docs) {
                JsonNode content = d.content();
                String kind = content.path("kind").asText();
                if (kind.equals("CustomResourceDefinition") && !crds.contains(file)) {
                    crds.add(file);
                }
                if (!kind.equals("ValidatingAdmissionPolicy") || !content.path("apiVersion").asText().startsWith("admissionregistration.k8s.io/")) {
                    index++;
                    continue;
                }
                ObjectNode object = content.deepCopy();
                object.put("apiVersion", "admissionregistration.k8s.io/v1");
                ObjectNode metadata = object.has("metadata") && object.get("metadata").isObject()
                        ? (ObjectNode) object.get("metadata") : object.putObject("metadata");
                metadata.put("name", "tc-" + cases.size());
                metadata.remove(List.of("namespace", "resourceVersion", "uid", "generation", "creationTimestamp", "managedFields"));
                object.remove("status");
                String id = prefix + root.relativize(file).toString().replace('\\', '/') + (docs.size() > 1 ? "#" + index : "");
                cases.add(new PolicyCase(id, object));
                index++;
            }
        }
    }

    /** Polls until each policy's status.observedGeneration reaches its generation (the controller has checked it). */
    private static Map<String, JsonNode> awaitTypeChecking(HttpClient http, Set<String> names, Duration atMost) throws Exception {
        Map<String, JsonNode> done = new LinkedHashMap<>();
        Instant deadline = Instant.now().plus(atMost);
        while (done.size() < names.size() && Instant.now().isBefore(deadline)) {
            HttpResponse<String> r = send(http, "GET", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies", null);
            for (JsonNode item : JSON.readTree(r.body()).path("items")) {
                String name = item.path("metadata").path("name").asText();
                if (names.contains(name) && item.path("status").path("observedGeneration").asLong(-1)
                        == item.path("metadata").path("generation").asLong()) {
                    done.put(name, item.path("status"));
                }
            }
            if (done.size() < names.size()) {
                Thread.sleep(500);
            }
        }
        return done;
    }

    private static HttpResponse<String> send(HttpClient http, String method, String path, JsonNode body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(plane.url() + path)).timeout(Duration.ofSeconds(60))
                .header("Accept", "application/json");
        if (body != null) {
            b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}

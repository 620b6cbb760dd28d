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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The structure differential suite (issue #19 item 1): every object of {@code ../shared/conformance} and
 * {@code ../shared/corpus} created on a real kube-apiserver with {@code dryRun=All} (strict field validation, as
 * kubectl sends it), compared with what {@code aps validate --kube-version <minor>} says of the same file, run
 * in-process through {@link ValidationRun}: its {@code api/*} errors. The server is the judge; a disagreement
 * that {@code src/test/resources/kube/known-divergences.yaml} does not list fails, and so does a listed one that
 * no longer disagrees. See docs/real-apiserver.md, "Differential suites", for what counts as agreement.
 */
@RealApiServer
class StructureDifferentialRealServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String GROUP = "admissionregistration.k8s.io";
    private static final Map<String, String> RESOURCES = Map.of(
            "ValidatingAdmissionPolicy", "validatingadmissionpolicies",
            "ValidatingAdmissionPolicyBinding", "validatingadmissionpolicybindings",
            "MutatingAdmissionPolicy", "mutatingadmissionpolicies",
            "MutatingAdmissionPolicyBinding", "mutatingadmissionpolicybindings",
            "ValidatingWebhookConfiguration", "validatingwebhookconfigurations",
            "MutatingWebhookConfiguration", "mutatingwebhookconfigurations");
    /** The API server's {@code metav1.CauseType} of a field error → our {@code api/<Type>} (docs/real-apiserver.md). */
    static final Map<String, String> CAUSE_TYPES = Map.ofEntries(
            Map.entry("FieldValueInvalid", "Invalid"), Map.entry("FieldValueRequired", "Required"),
            Map.entry("FieldValueNotSupported", "NotSupported"), Map.entry("FieldValueDuplicate", "Duplicate"),
            Map.entry("FieldValueForbidden", "Forbidden"), Map.entry("FieldValueTooMany", "TooMany"),
            Map.entry("FieldValueTooLong", "TooLong"), Map.entry("FieldValueNotFound", "NotFound"),
            Map.entry("FieldValueTypeInvalid", "TypeInvalid"), Map.entry("InternalError", "Internal"));
    private static final Pattern UNKNOWN_FIELD = Pattern.compile("unknown field \"([^\"]+)\"");
    private static final Pattern DUPLICATE_FIELD = Pattern.compile("duplicate field \"([^\"]+)\"");

    private static KubeControlPlane plane;
    private static final Tally TALLY = new Tally();
    private static Differential judge;

    /** One case's answer: accepted, refused with (field, type) causes, or its apiVersion not served. */
    record Verdict(String kind, Set<String> causes, String detail) {
        static Verdict accept() {
            return new Verdict("accept", Set.of(), "");
        }

        static Verdict notServed() {
            return new Verdict("not served", Set.of(), "");
        }

        static Verdict refuse(Set<String> causes, String detail) {
            return new Verdict("refuse", new TreeSet<>(causes), detail);
        }

        /** A 400 the server could not decode (e.g. caBundle not base64): refused, but no field is named. */
        static Verdict undecodable(String detail) {
            return new Verdict("refuse (undecodable, no field named)", Set.of(), detail);
        }

        /** Agreement: the same summary, or any refusal of ours where the server refused without naming a field. */
        boolean agreesWith(Verdict ours) {
            return kind.startsWith("refuse (undecodable") ? ours.kind.equals("refuse") : summary().equals(ours.summary());
        }

        /** Compared form, also what known-divergences.yaml records: "accept", "not served", "refuse [field Type, ...]". */
        String summary() {
            return kind.equals("refuse") ? "refuse " + causes : kind;
        }
    }

    static final class Tally {
        int caseData;
        final Map<String, Integer> serverVerdicts = new java.util.TreeMap<>();
    }

    @TestFactory
    Stream<DynamicTest> structure() throws Exception {
        if (SharedData.find("conformance").isEmpty() || SharedData.find("corpus").isEmpty()) {
            return Stream.of(SharedData.skippedSuite("conformance"), SharedData.skippedSuite("corpus"));
        }
        String version = KubeBinaries.version();
        KubeVersion minor = KubeVersion.parse(version);
        judge = Differential.of("structure", version);
        List<Path> files = new ArrayList<>();
        Path shared = SharedData.root();
        for (String folder : List.of("conformance", "corpus")) {
            try (Stream<Path> walk = Files.walk(SharedData.require(folder))) {
                walk.filter(p -> p.toString().endsWith(".yaml") && !p.toString().endsWith(".expect.yaml"))
                        .sorted().forEach(files::add);
            }
        }
        assertFalse(files.isEmpty(), "no cases under " + shared);
        plane = KubeControlPlane.start(everythingServable(version));
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(plane.sslContext(true))
                .connectTimeout(Duration.ofSeconds(5)).build();

        List<DynamicTest> tests = new ArrayList<>();
        for (Path file : files) {
            String id = shared.relativize(file).toString().replace('\\', '/');
            tests.add(DynamicTest.dynamicTest(id, file.toUri(), () -> runCase(id, file, http, minor, version)));
        }
        tests.add(DynamicTest.dynamicTest("listed divergences still diverge at " + version, () -> {
            List<String> stale = judge.staleEntries(version, id -> true);
            assertTrue(stale.isEmpty(), "known-divergences.yaml lists divergences that no longer diverge at " + version
                    + " (remove them, or narrow their versions): " + stale);
        }));
        tests.add(DynamicTest.dynamicTest("report target/kube-report-" + version + ".json", () -> writeReport(version)));
        return tests.stream();
    }

    @AfterAll
    static void stop() {
        if (plane != null) {
            plane.close();
            plane = null;
        }
    }

    /**
     * Everything the version can serve at all, as our validator assumes (an alpha or beta API is the admin's choice,
     * so {@code aps validate} accepts it): the v1beta1 and v1alpha1 group versions and, below 1.36, the
     * MutatingAdmissionPolicy gate ({@link KubeControlPlane#mutatingPolicyFlags}). No controller manager: dry runs only.
     */
    static KubeControlPlane.Options everythingServable(String version) {
        List<String> flags = KubeControlPlane.mutatingPolicyFlags(version).isEmpty()
                ? List.of("--runtime-config=" + GROUP + "/v1beta1=true," + GROUP + "/v1alpha1=true")
                : List.of();
        return new KubeControlPlane.Options(version, false, null, false, flags);
    }

    private static void runCase(String id, Path file, HttpClient http, KubeVersion minor, String version)
            throws Exception {
        List<Document> documents = Yaml.parse(file.toString(), Files.readString(file));
        JsonNode object = documents.stream().map(Document::content).filter(c -> c.isObject() && c.has("kind"))
                .findFirst().orElseThrow(() -> new AssertionError(id + ": no object"));
        Verdict server = server(http, (ObjectNode) object);
        Verdict ours = ours(file, minor);
        TALLY.serverVerdicts.merge(server.kind(), 1, Integer::sum);
        expectation(file, minor).filter(expected -> !expected.agreesWith(server) && !server.agreesWith(expected)).ifPresent(expected -> {
            // Not a divergence of ours: the case's .expect.yaml says otherwise than the server (case data to review).
            TALLY.caseData++;
            System.out.println("[structure] CASE-DATA " + id + " at " + version + ": .expect.yaml " + expected.summary()
                    + ", server " + server.summary());
        });
        String detail = (server.detail().isEmpty() ? "" : "server said: " + server.detail())
                + (ours.detail().isEmpty() ? "" : "; aps said: " + ours.detail());
        judge.judge(id, version, server.summary(), ours.summary(), server.agreesWith(ours), detail);
    }

    /** The real server's answer to {@code POST ...?dryRun=All&fieldValidation=Strict}. */
    private static Verdict server(HttpClient http, ObjectNode object) throws Exception {
        String apiVersion = object.path("apiVersion").asText();
        String resource = RESOURCES.get(object.path("kind").asText());
        if (resource == null || !apiVersion.startsWith(GROUP + "/")) {
            return Verdict.notServed();
        }
        URI uri = URI.create(plane.url() + "/apis/" + apiVersion + "/" + resource + "?dryRun=All&fieldValidation=Strict");
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(object))).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 201 || r.statusCode() == 200) {
            return Verdict.accept();
        }
        if (r.statusCode() == 404) {
            return Verdict.notServed();
        }
        JsonNode status = JSON.readTree(r.body());
        String message = status.path("message").asText();
        Set<String> causes = new TreeSet<>();
        for (JsonNode cause : status.path("details").path("causes")) {
            String reason = cause.path("reason").asText();
            causes.add(cause.path("field").asText() + " " + CAUSE_TYPES.getOrDefault(reason, reason));
        }
        if (causes.isEmpty()) {
            // A decoding error (400) has no causes; strict field validation names each unknown/duplicate field.
            Matcher unknown = UNKNOWN_FIELD.matcher(message);
            while (unknown.find()) {
                causes.add(unknown.group(1) + " Invalid");
            }
            Matcher duplicate = DUPLICATE_FIELD.matcher(message);
            while (duplicate.find()) {
                causes.add(duplicate.group(1) + " Invalid");
            }
        }
        String detail = r.statusCode() + " " + status.path("reason").asText() + ": "
                + (message.length() > 600 ? message.substring(0, 600) + "..." : message);
        return causes.isEmpty() ? Verdict.undecodable(detail) : Verdict.refuse(causes, detail);
    }

    /** A conformance case's {@code .expect.yaml} as a verdict (the corpus has none per file). */
    private static java.util.Optional<Verdict> expectation(Path file, KubeVersion version) throws Exception {
        Path expectFile = Path.of(file.toString().replaceFirst("\\.yaml$", ".expect.yaml"));
        if (!Files.exists(expectFile)) {
            return java.util.Optional.empty();
        }
        JsonNode expect = Yaml.parse(expectFile.toString(), Files.readString(expectFile)).get(0).content();
        // The cases describe 1.36 (and 1.37 unless "requires" names a newer minor): elsewhere they do not apply.
        int meantFor = 36;
        Matcher minors = Pattern.compile("\\b1\\.(\\d+)").matcher(expect.path("requires").asText(""));
        while (minors.find()) {
            meantFor = Math.max(meantFor, Integer.parseInt(minors.group(1)));
        }
        if (version.minor() < meantFor) {
            return java.util.Optional.empty();
        }
        if (!expect.path("verdict").asText().equals("reject")) {
            return java.util.Optional.of(Verdict.accept());
        }
        Set<String> causes = new TreeSet<>();
        expect.path("errors").forEach(e -> causes.add(e.path("field").asText() + " " + e.path("type").asText()));
        return java.util.Optional.of(causes.contains("apiVersion NotSupported") ? Verdict.notServed() : Verdict.refuse(causes, ""));
    }

    /** What {@code aps validate --kube-version <minor> <file>} says: its {@code api/*} errors. */
    private static Verdict ours(Path file, KubeVersion minor) {
        ValidationRun.Result result = ValidationRun.run(List.of(file), InputStream.nullInputStream(), minor,
                new KubernetesCelChecker());
        List<Finding> api = result.findings().stream().map(LocatedFinding::finding)
                .filter(f -> f.isError() && f.rule().startsWith("api/")).toList();
        if (api.stream().anyMatch(f -> f.rule().equals("api/NotSupported") && f.field().equals("apiVersion"))) {
            return Verdict.notServed(); // the server answers 404 before it validates anything
        }
        if (api.isEmpty()) {
            return Verdict.accept();
        }
        Set<String> causes = new TreeSet<>();
        api.forEach(f -> causes.add(f.field() + " " + f.rule().substring("api/".length())));
        return Verdict.refuse(causes, api.stream().map(f -> f.rule() + " " + f.field() + ": " + f.message()).toList().toString());
    }

    private static void writeReport(String version) {
        Path report = judge.writeReport();
        System.out.printf("[structure] Kubernetes %s: %s; server: %s; %d conformance expectations differ from the server (CASE-DATA) (%s)%n",
                version, judge.counts(), TALLY.serverVerdicts, TALLY.caseData, report);
    }
}

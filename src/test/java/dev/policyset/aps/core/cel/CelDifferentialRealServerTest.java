package dev.policyset.aps.core.cel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.policyset.aps.core.evaluate.PolicyExpressions;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.testing.SharedData;
import dev.policyset.aps.testing.kube.Differential;
import dev.policyset.aps.testing.kube.KubeBinaries;
import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.RealApiServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CEL differential suite (issue #19 item 2): every case of {@code ../shared/cel-eval} evaluated by a real
 * kube-apiserver inside an admission policy ({@link CelServerProbe}), and by our evaluator in-process on the same
 * inputs ({@link PolicyExpressions}, the path {@code aps test} evaluates expressions on) at the server's CEL
 * compatibility version. Compared: compile error, evaluation error, or the value (type and text; lists and maps as
 * equal or not to the case's expected value). The case's own expectation is not the judge, the server is: where
 * the server differs from the case, the suite prints {@code CASE-DATA} and goes on.
 *
 * <p>Two servers: the binary at its own version (CEL compatibility version minor−1) and, for the library version
 * gates, the same binary with {@code --emulated-version} at the oldest minor it can emulate (minor−3), whose CEL
 * compatibility version is the emulated minor itself (measured: 1.37.2 emulating 1.34 compiles the 1.34 lists
 * extension): a function introduced after it must be refused by both. Cases are named
 * {@code cel-eval/<file>/<case>}, on the emulated server {@code ... (emulated)}; known-divergences.yaml lists them
 * under {@code cel}.
 */
@RealApiServer
class CelDifferentialRealServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Cases per policy: the server records at most 50 failed validations of one request (observed at 1.37.2). */
    private static final int PER_POLICY = 48;
    private static final List<KubeControlPlane> PLANES = new ArrayList<>();
    private static Differential judge;
    private static int caseData;

    /** One cel-eval case. */
    record CelCase(String id, String file, String environment, String expression, Map<String, Object> vars, Map<String, Object> raw) {
        boolean mutation() {
            return environment.equals("mutation");
        }
    }

    /** Our answer or the server's, in the compared form. */
    record Outcome(String kind, String value, String message) {
        String summary() {
            return kind.equals("value") ? value : kind;
        }
    }

    @TestFactory
    Stream<DynamicNode> cel() throws Exception {
        Path dir = SharedData.find("cel-eval").orElse(null);
        if (dir == null) {
            return Stream.of(SharedData.skippedSuite("cel-eval"));
        }
        String version = KubeBinaries.version();
        KubeVersion binary = KubeVersion.parse(version);
        List<CelCase> cases = load(dir);
        assertTrue(cases.size() > 100, "too few cel-eval cases under " + dir);
        judge = Differential.of("cel", version);
        List<DynamicNode> nodes = new ArrayList<>();
        nodes.add(onServer(version, null, cases));
        nodes.add(onServer(version, new KubeVersion(binary.major(), binary.minor() - 3), cases));
        nodes.add(DynamicTest.dynamicTest("listed divergences still diverge at " + version, () -> {
            List<String> stale = judge.staleEntries(version, judge::judged);
            assertTrue(stale.isEmpty(), "known-divergences.yaml lists cel divergences that no longer diverge (remove them,"
                    + " or narrow their versions): " + stale);
        }));
        nodes.add(DynamicTest.dynamicTest("report target/kube-report-" + version + ".json", () -> {
            Path report = judge.writeReport();
            System.out.printf("[cel] Kubernetes %s: %s; %d server answers differ from the case's expectation (CASE-DATA)"
                    + " (%s)%n", version, judge.counts(), caseData, report);
        }));
        return nodes.stream();
    }

    @AfterAll
    static void stop() {
        PLANES.forEach(KubeControlPlane::close);
        PLANES.clear();
    }

    /** All cases on one server (the binary's own version, or emulating {@code emulated}). */
    private static DynamicContainer onServer(String version, KubeVersion emulated, List<CelCase> cases) throws Exception {
        KubeVersion serverMinor = emulated != null ? emulated : KubeVersion.parse(version);
        // A server compiles new expressions at compatibility minor-1; an emulated one (--emulated-version) at the
        // emulated minor itself: at 1.37.2 emulating 1.34 the cel-go lists extension (compatibility 1.34) compiles.
        KubeVersion compat = emulated != null ? emulated : new KubeVersion(serverMinor.major(), serverMinor.minor() - 1);
        String label = emulated == null ? version : version + " emulating " + emulated;
        String judgedAt = emulated == null ? version : emulated.toString();
        String suffix = emulated == null ? "" : " (emulated)";
        // MutatingAdmissionPolicy v1 is served from 1.36; an emulated older minor serves that minor's defaults.
        boolean mutationServed = serverMinor.minor() >= 36;
        Instant t0 = Instant.now();
        KubeControlPlane.Options options = new KubeControlPlane.Options(version, false, null, false, List.of());
        KubeControlPlane plane = KubeControlPlane.start(emulated == null ? options : options.emulating(emulated.toString()));
        PLANES.add(plane);
        // the binary's dispatcher decides how many failures a request records, whatever version it emulates
        CelServerProbe probe = new CelServerProbe(plane, emulated == null ? "n" : "e")
                .onePerRequest(KubeVersion.parse(version).minor() < 37);
        probe.install();
        List<CelServerProbe.Probe> probes = new ArrayList<>();
        for (CelCase c : cases) {
            if (runnable(c, mutationServed) == null) {
                probes.add(new CelServerProbe.Probe(c.id(), c.expression(), c.mutation(), c.vars(), c.raw().containsKey("result"), c.raw().get("result"),
                        (c.raw().getOrDefault("error", "") + " " + c.raw().getOrDefault("note", "")).contains("cost")));
            }
        }
        Map<String, CelServerProbe.Answer> answers = probe.ask(probes, PER_POLICY);
        long askedMs = Duration.between(t0, Instant.now()).toMillis();
        System.out.printf("[cel] %s: %d cases asked of the server in %d ms (start included)%n", label, probes.size(), askedMs);
        plane.close();
        PLANES.remove(plane);
        Path table = Path.of("target", "cel-differential-" + label.replace(' ', '-') + ".tsv");
        StringBuilder tsv = new StringBuilder("case\tserver\taps\tserver said\taps said\n");

        List<DynamicNode> tests = new ArrayList<>();
        for (CelCase c : cases) {
            String id = c.id() + suffix;
            tests.add(DynamicTest.dynamicTest(id, () -> {
                String why = runnable(c, mutationServed);
                if (why != null) {
                    judge.skip(id, "not reproducible on a server", why); // counted in the report's skipped
                }
                CelServerProbe.Answer answer = answers.get(c.id());
                assertTrue(answer != null, "the server gave no answer for " + c.id());
                Outcome server = new Outcome(answer.kind(), answer.value(), answer.message());
                Outcome ours = ours(c, answer, compat);
                expectation(c, compat).filter(e -> !matches(e, server)).ifPresent(e -> {
                    synchronized (CelDifferentialRealServerTest.class) {
                        caseData++;
                    }
                    System.out.println("[cel] CASE-DATA " + id + " at " + label + ": the case expects " + e + ", the server: "
                            + server.summary() + " (" + server.message() + ")");
                });
                synchronized (tsv) {
                    tsv.append(id).append('\t').append(server.summary()).append('\t').append(ours.summary()).append('\t')
                            .append(oneLine(server.message())).append('\t').append(oneLine(ours.message())).append('\n');
                }
                String detail = "expression: " + c.expression() + "; server said: " + server.message()
                        + (ours.message() == null || ours.message().isEmpty() ? "" : "; aps said: " + ours.message());
                if (server.kind().equals("harness")) {
                    throw new AssertionError("the harness could not read the server's answer for " + id + ": " + server.message());
                }
                judge.judge(id, judgedAt, server.summary(), ours.summary(), server.summary().equals(ours.summary()), detail);
            }));
        }
        tests.add(DynamicTest.dynamicTest("table " + table, () -> {
            Files.createDirectories(table.getParent());
            Files.writeString(table, tsv);
        }));
        return DynamicContainer.dynamicContainer("Kubernetes " + label + " (CEL compatibility " + compat + ")", tests);
    }

    /** Null when the case can run on the server; else why not. */
    private static String runnable(CelCase c, boolean mutationServed) {
        if (c.mutation() && !mutationServed) {
            return "MutatingAdmissionPolicy v1 is not served at this version";
        }
        return CelServerProbe.notReproducible(c.vars().get("authorizer"));
    }

    /**
     * Our evaluator on the inputs the server had: the probe object as the server returned it from the dry run, the
     * params object as stored, the request the probe made, and the case's authorizer stub (which the server's RBAC
     * was given, {@link CelServerProbe#rbacRules}).
     */
    private static Outcome ours(CelCase c, CelServerProbe.Answer a, KubeVersion compat) {
        CelEvaluator.Activation activation = new CelEvaluator.Activation(plain(a.object()), null, plain(a.params()),
                a.request(), null, CelEvalSuiteTest.stubAuthorizer(c.vars().get("authorizer")), null);
        CelEvaluator.Result r = c.mutation()
                ? PolicyExpressions.evaluate(CelChecker.PolicyType.MUTATING, compat, ExpressionKind.MUTATION_JSON_PATCH, c.expression(), activation)
                : PolicyExpressions.evaluate(CelChecker.PolicyType.VALIDATING, compat, ExpressionKind.VARIABLE, c.expression(), activation);
        if (r.compileError() != null) {
            return new Outcome("compile error", "", r.compileError());
        }
        if (r.error() != null) {
            return new Outcome("error", "", r.error());
        }
        Object v = r.value() instanceof dev.cel.common.values.NullValue ? null : r.value();
        if (c.mutation()) {
            return new Outcome("value", CelServerProbe.jsonValue(JSON.valueToTree(v)), String.valueOf(v));
        }
        String value = rendered(v, c);
        if (CelServerProbe.staticMessages(c.expression()) && !value.equals("bool true") && !value.equals("bool false")
                && !value.equals("string ")) {
            value = "other "; // static mode tells only true, false and '' apart (CelServerProbe.STATIC_PROBES)
        }
        return new Outcome("value", value, String.valueOf(v));
    }

    /** Our value as the server's messageExpression renders its own ({@link CelServerProbe#render}). */
    static String rendered(Object v, CelCase c) {
        if (v == null) {
            return "null ";
        }
        if (v instanceof Boolean b) {
            return "bool " + b;
        }
        if (v instanceof Long l) {
            return "int " + l;
        }
        if (v.getClass().getSimpleName().equals("UnsignedLong")) {
            return "uint " + v;
        }
        if (v instanceof Double d) {
            return "double " + d;
        }
        if (v instanceof String s) {
            return "string " + s.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r");
        }
        if (v instanceof List<?> || v instanceof Map<?, ?>) {
            boolean eq = c.raw().containsKey("result") && CelEvalSuiteTest.same(c.raw().get("result"), v);
            return (v instanceof List<?> ? "list " : "map ") + (eq ? "eq" : "ne");
        }
        if (v instanceof byte[] || v.getClass().getSimpleName().contains("ByteString")) {
            return "bytes ";
        }
        return "other ";
    }

    /** What the case says the server answers at {@code compat}, in the compared form; empty where it says nothing. */
    private static java.util.Optional<String> expectation(CelCase c, KubeVersion compat) {
        Object gate = c.raw().get("compileErrorBefore");
        if (gate != null && compat.compareTo(KubeVersion.parse(gate.toString())) < 0) {
            return java.util.Optional.of("compile error");
        }
        Object holds = c.raw().get("kubeVersion");
        if (holds != null && compat.compareTo(KubeVersion.parse(holds.toString())) < 0) {
            return java.util.Optional.empty();
        }
        if (c.raw().containsKey("compileError")) {
            return java.util.Optional.of("compile error [" + c.raw().get("compileError") + "]");
        }
        if (c.raw().containsKey("error")) {
            return java.util.Optional.of("error [" + c.raw().get("error") + "]");
        }
        Object want = c.raw().get("result");
        if (c.mutation()) {
            return java.util.Optional.of(CelServerProbe.jsonValue(JSON.valueToTree(want)));
        }
        if (want instanceof List<?> || want instanceof Map<?, ?>) {
            return java.util.Optional.of((want instanceof List<?> ? "list" : "map") + " eq");
        }
        return java.util.Optional.of(rendered(want instanceof Integer i ? Long.valueOf(i) : want, c));
    }

    private static boolean matches(String expected, Outcome server) {
        if (expected.startsWith("compile error") || expected.startsWith("error")) {
            String kind = expected.startsWith("compile error") ? "compile error" : "error";
            int open = expected.indexOf('[');
            return server.kind().equals(kind) && (open < 0 || server.message().contains(expected.substring(open + 1, expected.length() - 1)));
        }
        return expected.equals(server.summary());
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.replace('\n', ' ').replace('\t', ' ');
    }

    private static Object plain(JsonNode node) {
        return node == null ? null : JSON.convertValue(node, Object.class);
    }

    @SuppressWarnings("unchecked")
    private static List<CelCase> load(Path dir) throws Exception {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        List<CelCase> cases = new ArrayList<>();
        for (Path file : files) {
            Map<String, Object> doc;
            try (Reader r = Files.newBufferedReader(file)) {
                doc = CelEvalSuiteTest.yaml11().load(r);
            }
            String name = file.getFileName().toString().replace(".yaml", "");
            String fileEnv = (String) doc.getOrDefault("environment", "validation");
            for (Map<String, Object> c : (List<Map<String, Object>>) doc.get("cases")) {
                cases.add(new CelCase("cel-eval/" + name + "/" + c.get("name"), name, (String) c.getOrDefault("environment", fileEnv),
                        c.get("expr").toString(), java.util.Objects.requireNonNullElse((Map<String, Object>) c.get("vars"), Map.of()), c));
            }
        }
        return cases;
    }
}

package dev.policyset.aps.core.cel;

import dev.policyset.aps.core.cel.lib.CelAuthorizer;
import dev.policyset.aps.core.cel.lib.KubernetesLibraries;
import dev.policyset.aps.core.evaluate.PolicyExpressions;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.testing.SharedData;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.Constructor;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;
import org.yaml.snakeyaml.resolver.Resolver;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.Stream;

/**
 * The shared cel-eval cases ({@code ../shared/cel-eval/*.yaml}): every case compiled and evaluated in its
 * environment at its compatibility version, plus a compile-failure check below {@code compileErrorBefore}.
 * Prints the agreement per library at the end.
 *
 * <p>A case fails unless it agrees, with two visible exceptions: {@link #EXCLUDED} (cases we believe are
 * wrong, with the upstream code that shows it) and cases that need a Kubernetes library which
 * {@link KubernetesLibraries} does not have yet (skipped, saying which).
 */
class CelEvalSuiteTest {
    /** The compatibility version of a 1.36 server, the suite's default. */
    static final KubeVersion DEFAULT_VERSION = new KubeVersion(1, 35);

    /**
     * cel-go ext/strings.go indexOfOffset/lastIndexOfOffset return -1 for an offset at or past the end ("If the
     * offset exceeds the length, return -1 rather than error", cel-go #1052, since v0.22.0), and cel-go's own
     * ext/strings_test.go TestStrings at v0.26.0 (what Kubernetes 1.36 vendors) has
     * {@code 'tacocat'.indexOf('a', 30) == -1} and {@code 'tacocat'.lastIndexOf('a', 30) == -1}.
     */
    private static final String OFFSET_PAST_END = "cel-go returns -1 for an offset past the end since v0.22.0 (#1052);"
            + " ext/strings_test.go TestStrings: 'tacocat'.indexOf('a', 30) == -1";

    /**
     * The real kube-apiserver 1.37.2 prints {@code '%e'.format([2.71828])} as {@code 2.718280×10⁰⁰}: no narrow
     * no-break spaces around the sign, which the cases take from cel-go's own ext/strings_test.go (a newer
     * golang.org/x/text writes them). Measured by CelDifferentialRealServerTest (docs/real-apiserver.md).
     */
    private static final String SCIENTIFIC_AS_SERVED = "kube-apiserver 1.37.2 prints %e without the narrow no-break"
            + " spaces of cel-go's own test (CelDifferentialRealServerTest)";

    /**
     * Cases whose expectation we believe is wrong: "file/case" to the reason and the upstream evidence.
     */
    static final Map<String, String> EXCLUDED = Map.of(
            "strings/indexOf-offset-out-of-range", OFFSET_PAST_END,
            "strings/lastIndexOf-offset-past-end", OFFSET_PAST_END,
            "strings/format-scientific-default", SCIENTIFIC_AS_SERVED,
            "strings/format-scientific-precision", SCIENTIFIC_AS_SERVED);

    /**
     * Cases we agree with but do not pass yet: "file/case" to what is missing. Skipped (not failed) so the
     * build stays usable; each one is a bug to fix, listed in the report.
     */
    static final Map<String, String> KNOWN_GAPS = Map.of();

    /** Libraries of the other package, by file name; their cases skip while the library is missing. */
    private static final List<String> KUBERNETES_LIBRARIES =
            List.of("lists", "regex", "url", "ip", "cidr", "quantity", "semver", "format", "authz");

    /** Cases in one file that use another file's Kubernetes library. */
    private static final Map<String, String> USES_LIBRARY = Map.of("math/lists-max-instead", "lists");

    /** Per file: agreed, disagreed, skipped (missing library), excluded. */
    private static final Map<String, AtomicIntegerArray> TALLY = new ConcurrentHashMap<>();

    @TestFactory
    Stream<DynamicNode> celEval() throws IOException {
        Path dir = SharedData.find("cel-eval").orElse(null);
        if (dir == null) {
            return Stream.<DynamicNode>of(SharedData.skippedSuite("cel-eval"));
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        List<DynamicNode> containers = new ArrayList<>();
        for (Path file : files) {
            Map<String, Object> doc;
            try (Reader r = Files.newBufferedReader(file)) {
                doc = yaml11().load(r);
            }
            String library = (String) doc.get("library");
            String fileEnv = (String) doc.getOrDefault("environment", "validation");
            List<DynamicNode> tests = new ArrayList<>();
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> cases = (List<Map<String, Object>>) doc.get("cases");
            for (Map<String, Object> c : cases) {
                String name = (String) c.get("name");
                String id = file.getFileName().toString().replace(".yaml", "") + "/" + name;
                String uses = USES_LIBRARY.getOrDefault(id, library);
                tests.add(DynamicTest.dynamicTest(id, () -> run(library, uses, fileEnv, id, c)));
                if (c.get("compileErrorBefore") != null) {
                    tests.add(DynamicTest.dynamicTest(id + " (before " + c.get("compileErrorBefore") + ")",
                            () -> runBefore(library, library, fileEnv, id, c)));
                }
            }
            containers.add(DynamicContainer.dynamicContainer(file.getFileName().toString(), tests));
        }
        return containers.stream();
    }

    /**
     * The files are YAML 1.1 as PyYAML writes them: a float needs a dot, so {@code 1e-05} is a string
     * (SnakeYAML 2 would read it as a double).
     */
    static Yaml yaml11() {
        Resolver resolver = new Resolver() {
            @Override
            protected void addImplicitResolvers() {
                addImplicitResolver(Tag.BOOL, BOOL, "yYnNtTfFoO");
                addImplicitResolver(Tag.INT, INT, "-+0123456789");
                addImplicitResolver(Tag.FLOAT, java.util.regex.Pattern.compile(
                        "^(?:[-+]?(?:[0-9][0-9_]*)?\\.[0-9_]*(?:[eE][-+][0-9]+)?|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$"),
                        "-+0123456789.");
                addImplicitResolver(Tag.MERGE, MERGE, "<");
                addImplicitResolver(Tag.NULL, NULL, "~nN\0");
                addImplicitResolver(Tag.NULL, EMPTY, null);
            }
        };
        return new Yaml(new Constructor(new LoaderOptions()), new Representer(new DumperOptions()),
                new DumperOptions(), new LoaderOptions(), resolver);
    }

    private static AtomicIntegerArray tally(String library) {
        return TALLY.computeIfAbsent(library, k -> new AtomicIntegerArray(4));
    }

    private static void run(String library, String uses, String fileEnv, String id, Map<String, Object> c) {
        if (EXCLUDED.containsKey(id)) {
            tally(library).incrementAndGet(3);
            Assumptions.abort("excluded: " + EXCLUDED.get(id));
        }
        KubeVersion version = DEFAULT_VERSION;
        if (c.get("kubeVersion") != null) {
            KubeVersion v = KubeVersion.parse(c.get("kubeVersion").toString());
            version = v.compareTo(version) > 0 ? v : version;
        }
        String env = (String) c.getOrDefault("environment", fileEnv);
        CelEvaluator.Result result = evaluate(version, env, c);
        String failure = disagreement(c, result);
        record(library, uses, id, failure);
    }

    private static void runBefore(String library, String uses, String fileEnv, String id, Map<String, Object> c) {
        if (EXCLUDED.containsKey(id)) {
            tally(library).incrementAndGet(3);
            Assumptions.abort("excluded: " + EXCLUDED.get(id));
        }
        KubeVersion gate = KubeVersion.parse(c.get("compileErrorBefore").toString());
        KubeVersion before = new KubeVersion(gate.major(), gate.minor() - 1);
        String env = (String) c.getOrDefault("environment", fileEnv);
        CelEvaluator.Result result = evaluate(before, env, c);
        String failure = result.compileError() != null ? null
                : "expected a compile error at " + before + " but got " + describe(result);
        record(library, uses, id, failure);
    }

    private static void record(String library, String uses, String id, String failure) {
        if (failure == null && KNOWN_GAPS.containsKey(id)) {
            tally(library).incrementAndGet(1);
            Assertions.fail(id + " now agrees: remove it from KNOWN_GAPS");
        }
        if (failure == null) {
            tally(library).incrementAndGet(0);
            return;
        }
        if (KUBERNETES_LIBRARIES.contains(uses) && libraryMissing(uses)) {
            tally(library).incrementAndGet(2);
            Assumptions.abort("the Kubernetes '" + uses + "' library is not in KubernetesLibraries yet: " + failure);
        }
        if (KNOWN_GAPS.containsKey(id)) {
            tally(library).incrementAndGet(2);
            Assumptions.abort("known gap: " + KNOWN_GAPS.get(id) + ": " + failure);
        }
        tally(library).incrementAndGet(1);
        Assertions.fail(id + ": " + failure);
    }

    private static boolean libraryMissing(String library) {
        return KubernetesLibraries.forVersion(new KubeVersion(1, 37)).stream()
                .noneMatch(l -> l.name().toLowerCase(java.util.Locale.ROOT).contains(library));
    }

    /**
     * Through {@link PolicyExpressions}, the path {@code aps test} evaluates every policy expression on: a
     * validation of a ValidatingAdmissionPolicy with a paramKind, or an applyConfiguration mutation of a
     * MutatingAdmissionPolicy with a paramKind, at the case's CEL compatibility version.
     */
    private static CelEvaluator.Result evaluate(KubeVersion version, String env, Map<String, Object> c) {
        CelChecker.PolicyType type;
        ExpressionKind kind;
        switch (env) {
            case "mutation" -> {
                type = CelChecker.PolicyType.MUTATING;
                kind = ExpressionKind.MUTATION_APPLY_CONFIGURATION;
            }
            case "validation" -> {
                type = CelChecker.PolicyType.VALIDATING;
                kind = ExpressionKind.VALIDATION;
            }
            default -> throw new IllegalArgumentException("unknown environment " + env);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> vars = (Map<String, Object>) c.getOrDefault("vars", Map.of());
        @SuppressWarnings("unchecked")
        CelEvaluator.Activation activation = new CelEvaluator.Activation(vars.get("object"), vars.get("oldObject"),
                vars.get("params"), (Map<String, Object>) vars.get("request"), vars.get("namespaceObject"),
                stubAuthorizer(vars.get("authorizer")), null);
        return PolicyExpressions.evaluate(type, version, kind, c.get("expr").toString(), activation);
    }

    private static String disagreement(Map<String, Object> c, CelEvaluator.Result r) {
        if (c.containsKey("compileError")) {
            String want = c.get("compileError").toString();
            return r.compileError() != null && r.compileError().contains(want) ? null
                    : "expected compile error containing [" + want + "] but got " + describe(r);
        }
        if (c.containsKey("error")) {
            String want = c.get("error").toString();
            return r.error() != null && r.error().contains(want) ? null
                    : "expected evaluation error containing [" + want + "] but got " + describe(r);
        }
        Object want = c.get("result");
        if (!r.ok()) {
            return "expected " + show(want) + " but got " + describe(r);
        }
        return same(want, r.value()) ? null : "expected " + show(want) + " but got " + describe(r);
    }

    private static String describe(CelEvaluator.Result r) {
        if (r.compileError() != null) {
            return "compile error: " + r.compileError();
        }
        if (r.error() != null) {
            return "evaluation error: " + r.error();
        }
        return "value " + show(r.value());
    }

    private static String show(Object v) {
        return v == null ? "null" : v + " (" + v.getClass().getSimpleName() + ")";
    }

    /** YAML value vs CEL value with the README's rules: int vs double matters, maps are order-free. */
    static boolean same(Object want, Object got) {
        if (want == null) {
            return got == null;
        }
        if (want instanceof Integer || want instanceof Long || want instanceof java.math.BigInteger) {
            return got instanceof Long && ((Number) want).longValue() == (Long) got;
        }
        if (want instanceof Double d) {
            return got instanceof Double g && (d.equals(g) || d.doubleValue() == g.doubleValue());
        }
        if (want instanceof List<?> wl) {
            if (!(got instanceof List<?> gl) || wl.size() != gl.size()) {
                return false;
            }
            for (int i = 0; i < wl.size(); i++) {
                if (!same(wl.get(i), gl.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (want instanceof Map<?, ?> wm) {
            if (!(got instanceof Map<?, ?> gm) || wm.size() != gm.size()) {
                return false;
            }
            for (Map.Entry<?, ?> e : wm.entrySet()) {
                if (!gm.containsKey(e.getKey()) || !same(e.getValue(), gm.get(e.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        return Objects.equals(want, got);
    }

    /** The README's authorizer stub: first rule whose match attributes all equal the check's wins. */
    @SuppressWarnings("unchecked")
    static CelAuthorizer stubAuthorizer(Object spec) {
        if (!(spec instanceof Map)) {
            return null;
        }
        Map<String, Object> m = (Map<String, Object>) spec;
        List<Map<String, Object>> rules = (List<Map<String, Object>>) m.getOrDefault("rules", List.of());
        Map<String, Object> fallback = (Map<String, Object>) m.getOrDefault("default", Map.of("decision", "deny"));
        return attributes -> {
            Map<String, String> attrs = Map.of("user", attributes.user(), "path", attributes.path(),
                    "verb", attributes.verb(), "group", attributes.group(), "resource", attributes.resource(),
                    "subresource", attributes.subresource(), "namespace", attributes.namespace(),
                    "name", attributes.name());
            for (Map<String, Object> rule : rules) {
                Map<String, Object> match = (Map<String, Object>) rule.getOrDefault("match", Map.of());
                boolean all = match.entrySet().stream()
                        .allMatch(e -> Objects.equals(String.valueOf(e.getValue()), attrs.getOrDefault(e.getKey(), "")));
                if (all) {
                    return decision(rule);
                }
            }
            return decision(fallback);
        };
    }

    private static CelAuthorizer.Decision decision(Map<String, Object> d) {
        CelAuthorizer.Decision.Kind kind = switch (String.valueOf(d.getOrDefault("decision", "deny"))) {
            case "allow" -> CelAuthorizer.Decision.Kind.ALLOW;
            case "noOpinion" -> CelAuthorizer.Decision.Kind.NO_OPINION;
            default -> CelAuthorizer.Decision.Kind.DENY;
        };
        return new CelAuthorizer.Decision(kind, String.valueOf(d.getOrDefault("reason", "")),
                d.get("error") == null ? null : d.get("error").toString());
    }

    @AfterAll
    static void printAgreement() {
        StringBuilder sb = new StringBuilder("\ncel-eval agreement (agreed/total; skipped = library missing or known gap; excluded = case believed wrong)\n");
        int[] total = new int[4];
        new TreeMap<>(TALLY).forEach((lib, t) -> {
            int all = t.get(0) + t.get(1) + t.get(2) + t.get(3);
            sb.append(String.format("  %-15s %4d/%-4d  failed %3d  skipped %3d  excluded %2d%n",
                    lib, t.get(0), all, t.get(1), t.get(2), t.get(3)));
            for (int i = 0; i < 4; i++) {
                total[i] += t.get(i);
            }
        });
        int all = total[0] + total[1] + total[2] + total[3];
        sb.append(String.format("  %-15s %4d/%-4d  failed %3d  skipped %3d  excluded %2d%n",
                "TOTAL", total[0], all, total[1], total[2], total[3]));
        System.out.println(sb);
    }
}

package dev.policyset.aps.corpus;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.cel.CelChecker;
import dev.policyset.aps.core.cel.KubernetesCelChecker;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.validate.ValidationOptions;
import dev.policyset.aps.core.validate.ValidationSubject;
import dev.policyset.aps.core.validate.Validator;
import dev.policyset.aps.core.yaml.Yaml;
import dev.policyset.aps.testing.SharedData;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The admission-configuration corpus ({@code ../shared/corpus}, INDEX.md): 348 real published objects, each with
 * the corpus author's expectation (accept / reject / static-manifest only) and risk notes.
 *
 * <ul>
 *   <li>{@code accept…}: the object gets no {@code api/*} error. {@code reject…}: it gets at least one.
 *       {@code static-manifest only}: the REST API of 1.36 refuses the {@code .static.k8s.io} name suffix, so
 *       (validated at 1.36, as the CLI does by default) it gets an {@code api/*} error on {@code metadata.name}.</li>
 *   <li>Each {@code RISK:} note that a safety rule covers is flagged by that rule ({@link #RISK_RULES}).</li>
 * </ul>
 * Each file is validated on its own (file names repeat object names across upstream projects, and findings name
 * objects); the pairing rules are checked once over the whole corpus. Agreement counts are printed.
 */
class CorpusTest {
    /**
     * Risk-note categories → the rule that must flag them. {@code onlyIf}: the rule is expected only when the
     * file's notes also match it (APS102 judges idempotence; an ApplyConfiguration re-applied is harmless).
     */
    record RiskRule(String category, Pattern note, String rule, Optional<Pattern> onlyIf) {}

    static final List<RiskRule> RISK_RULES = List.of(
            new RiskRule("fail-closed on built-in resources, kube-system not excluded",
                    Pattern.compile("RISK: Fail \\+ core/built-in resources \\+ kube-system not excluded"), "APS201", Optional.empty()),
            new RiskRule("timeout high", Pattern.compile("RISK: timeoutSeconds \\d+ \\(high"), "APS301", Optional.empty()),
            new RiskRule("matches all resources", Pattern.compile("RISK: matches all resources"), "APS204", Optional.empty()),
            new RiskRule("reinvocation IfNeeded with a list append",
                    Pattern.compile("RISK: reinvocationPolicy IfNeeded"), "APS102", Optional.of(Pattern.compile("JSONPatch add to [^ ]*/-"))),
            new RiskRule("core group paired with non-core resources",
                    Pattern.compile("RISK: core group \"\" paired with non-core resources"), "APS206", Optional.empty()));

    /** Categories of RISK notes no safety rule covers (CEL runtime behaviour; the type checker's business). */
    static final List<String> NOT_COVERED = List.of(
            "runtime errors (field access without has(), null comparisons, params.items)",
            "constant-false validations", "nonexistent fields (type-checking warnings)",
            "paramKind/paramRef consistency", "DELETE without a null guard");


    /**
     * Rows whose INDEX expectation we believe is wrong, with the API server's reason. Each must still disagree
     * (so the list cannot go stale silently).
     */
    static final Map<String, String> ERRATA = betaValidatingPolicies(
            "vap/k8s-website--image-matches-namespace-environment.policy.example.com.yaml",
            "vap/kaptest--simple-policy--error-policy.yaml",
            "vap/kaptest--simple-policy--simple-policy.yaml",
            "vap/kaptest--vap-custom-resources--httpproxy-auth.yaml",
            "vap/kaptest--vap-standard-resources--deployment-check-deletable.yaml",
            "vap/kaptest--vap-standard-resources--deployment-check-immutable.yaml",
            "vap/kaptest--vap-standard-resources--deployment-replicas.yaml",
            "vap/kaptest--vap-with-userinfo--deployment-replicas.yaml");

    /**
     * ValidatingAdmissionPolicy v1beta1 is removed from 1.34 (k8s.io/api admissionregistration/v1beta1
     * zz_generated.prerelease-lifecycle.go: APILifecycleRemoved 1.34), so no flag enables it and the real 1.37.2
     * server answers 404 (StructureDifferentialRealServerTest); INDEX's "pre-GA apiVersions need the API enabled"
     * does not hold for these.
     */
    private static Map<String, String> betaValidatingPolicies(String... files) {
        Map<String, String> errata = new java.util.LinkedHashMap<>();
        for (String file : files) {
            errata.put(file, "admissionregistration.k8s.io/v1beta1 ValidatingAdmissionPolicy is not served from 1.34 (removed)");
        }
        return Map.copyOf(errata);
    }

    record Row(String file, String notes, String expect) {}

    record Result(Row row, List<Finding> findings) {
        boolean hasApiError() {
            return findings.stream().anyMatch(f -> f.isApiServerRule() && f.isError());
        }

        Set<String> rules() {
            return findings.stream().map(Finding::rule).collect(Collectors.toSet());
        }
    }

    private static Path corpus;
    private static List<Row> rows;
    private static final Map<String, ValidationSubject> SUBJECTS = new LinkedHashMap<>();
    private static final Map<String, Result> RESULTS = new LinkedHashMap<>();
    private static Validator validator;

    @BeforeAll
    static void validateEveryFile() throws Exception {
        corpus = SharedData.find("corpus").orElse(null);
        if (corpus == null) {
            return; // each test skips, saying why, and is counted as skipped
        }
        rows = readIndex(corpus.resolve("INDEX.md"));
        validator = new Validator(ValidationOptions.offline(KubeVersion.NEWEST), bestCelChecker());
        for (Row row : rows) {
            ValidationSubject subject = read(corpus.resolve(row.file()));
            SUBJECTS.put(row.file(), subject);
            RESULTS.put(row.file(), new Result(row, validator.validate(List.of(subject)).findings()));
        }
    }

    @Test
    void indexListsEveryFile() throws IOException {
        SharedData.require("corpus");
        assertFalse(rows.isEmpty());
        try (var walk = Files.walk(corpus)) {
            long files = walk.filter(p -> p.toString().endsWith(".yaml")).count();
            assertEquals(files, rows.size(), "every corpus file has an INDEX row");
        }
    }

    @Test
    void acceptedObjectsGetNoApiErrorsAndRejectedOnesDo() {
        SharedData.require("corpus");
        int accept = 0;
        int acceptAgree = 0;
        int reject = 0;
        int rejectAgree = 0;
        int statics = 0;
        int staticAgree = 0;
        List<String> disagreements = new ArrayList<>();
        for (Result r : RESULTS.values()) {
            String expect = r.row().expect();
            if (expect.startsWith("accept")) {
                accept++;
                if (!r.hasApiError()) {
                    acceptAgree++;
                } else {
                    disagreements.add("expected accept: " + r.row().file() + " -> " + apiErrors(r));
                }
            } else if (expect.startsWith("reject")) {
                reject++;
                if (r.hasApiError()) {
                    rejectAgree++;
                } else {
                    disagreements.add("expected reject (" + expect + "): " + r.row().file() + " -> no api/* error");
                }
            } else if (expect.startsWith("static-manifest only")) {
                // Valid as objects; the only thing the REST API may refuse is the reserved name suffix.
                statics++;
                List<String> other = apiErrors(r).stream().filter(e -> !e.startsWith("api/Invalid metadata.name:")).toList();
                if (other.isEmpty()) {
                    staticAgree++;
                } else {
                    disagreements.add("static-manifest object should be valid apart from its name: " + r.row().file() + " -> " + other);
                }
            } else {
                disagreements.add("unknown expect '" + expect + "' for " + r.row().file());
            }
        }
        System.out.printf("corpus api/*: accept %d/%d, reject %d/%d, static-manifest-only (valid apart from the name) %d/%d agree [CEL checker: %s]%n",
                acceptAgree, accept, rejectAgree, reject, staticAgree, statics, celCheckerName());
        disagreements.forEach(d -> System.out.println("  corpus disagreement: " + d));
        List<String> real = disagreements.stream()
                .filter(d -> ERRATA.keySet().stream().noneMatch(d::contains))
                .toList();
        ERRATA.forEach((file, why) -> System.out.println("  corpus erratum (INDEX says accept): " + file + ": " + why));
        ERRATA.keySet().forEach(file -> assertTrue(disagreements.stream().anyMatch(d -> d.contains(file)),
                () -> "erratum no longer disagrees, remove it: " + file));
        assertEquals(List.of(), real);
    }

    @Test
    void riskNotesAreFlaggedByTheRuleThatCoversThem() {
        SharedData.require("corpus");
        List<String> missed = new ArrayList<>();
        System.out.println("corpus RISK notes -> rule (noted / flagged / flagged without a note):");
        for (RiskRule rr : RISK_RULES) {
            int noted = 0;
            int flagged = 0;
            int extra = 0;
            for (Result r : RESULTS.values()) {
                boolean expected = rr.note().matcher(r.row().notes()).find()
                        && rr.onlyIf().map(p -> p.matcher(r.row().notes()).find()).orElse(true);
                boolean fired = r.rules().contains(rr.rule());
                if (expected) {
                    noted++;
                    if (fired) {
                        flagged++;
                    } else {
                        missed.add(rr.rule() + " missed on " + r.row().file());
                    }
                } else if (fired) {
                    extra++;
                }
            }
            System.out.printf("  %-7s %-62s %3d / %3d / %3d%n", rr.rule(), rr.category(), noted, flagged, extra);
        }
        System.out.println("  not covered by a safety rule: " + String.join("; ", NOT_COVERED));
        assertEquals(List.of(), missed);
    }

    @Test
    void wholeCorpusTogetherPairsBindingsWithPolicies() {
        SharedData.require("corpus");
        List<Finding> all = validator.validate(List.copyOf(SUBJECTS.values())).findings();
        Map<String, Long> byRule = all.stream().filter(f -> !f.isApiServerRule())
                .collect(Collectors.groupingBy(Finding::rule, java.util.TreeMap::new, Collectors.counting()));
        System.out.println("corpus as one input, safety findings per rule: " + byRule);
        // Bindings whose policy is in the corpus are paired across files; the corpus keeps each binding's policy
        // (INDEX: "policy in corpus: ..."), so unresolved bindings are the exception.
        long unresolved = byRule.getOrDefault("APS401", 0L);
        long bindings = SUBJECTS.values().stream().filter(s -> s.object().kind().name().endsWith("_BINDING")).count();
        System.out.printf("corpus bindings: %d, naming a policy that is not in the corpus: %d%n", bindings, unresolved);
        assertTrue(unresolved < bindings / 4, "most corpus bindings pair with a corpus policy");
    }

    private static List<String> apiErrors(Result r) {
        return r.findings().stream().filter(f -> f.isApiServerRule() && f.isError())
                .map(f -> f.rule() + " " + f.field() + ": " + abbreviate(f.message())).toList();
    }

    private static String abbreviate(String s) {
        return s.length() > 160 ? s.substring(0, 160) + "..." : s;
    }

    private static final Pattern ROW = Pattern.compile("^\\| \\[([^\\]]+)\\]\\(");

    static List<Row> readIndex(Path index) throws IOException {
        List<Row> out = new ArrayList<>();
        for (String line : Files.readAllLines(index, StandardCharsets.UTF_8)) {
            Matcher m = ROW.matcher(line);
            if (!m.find()) {
                continue;
            }
            String[] cells = line.strip().replaceAll("^\\||\\|$", "").split(" \\| ", -1);
            assertEquals(8, cells.length, () -> "INDEX row with unexpected columns: " + line);
            out.add(new Row(m.group(1), cells[5].strip(), cells[6].strip()));
        }
        return out;
    }

    static ValidationSubject read(Path file) throws Exception {
        var documents = Yaml.parse(file.toString(), Files.readString(file, StandardCharsets.UTF_8)).stream()
                .filter(d -> d.content().isObject()).toList();
        assertEquals(1, documents.size(), () -> file + ": one object per corpus file");
        var d = documents.get(0);
        AdmissionKind kind = AdmissionKind.fromKind(d.kind()).orElseThrow(() -> new AssertionError(file + ": kind " + d.kind()));
        return ValidationSubject.bare(new RenderedObject(kind, d.apiVersion(), d.name(), (ObjectNode) d.content(), ""));
    }

    // ---- the CEL checker ------------------------------------------------------------------------------------

    static CelChecker bestCelChecker() {
        return CEL;
    }

    private static final CelChecker CEL = new KubernetesCelChecker();

    private static String celCheckerName() {
        return KubernetesCelChecker.class.getSimpleName();
    }
}

package dev.policyset.aps.corpus;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.validate.ValidationOptions;
import dev.policyset.aps.core.validate.ValidationSubject;
import dev.policyset.aps.core.validate.safety.SafetyContext;
import dev.policyset.aps.core.validate.safety.SafetyRule;
import dev.policyset.aps.core.validate.safety.SafetyRules;
import dev.policyset.aps.testing.SharedData;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The reviewed golden list of safety findings over the public corpus ({@code ../shared/corpus}): one line per
 * finding, {@code file | rule | severity | object | field}, sorted. Any change in what the safety rules say about
 * real configurations is a visible diff of {@code src/test/resources/golden/safety/corpus-findings.txt}.
 *
 * <p>Each file is judged on its own (as CorpusTest does), except the pairing rules APS401/APS402, which are taken
 * from one run over the whole corpus (a binding and its policy live in different files) and listed under every
 * file that defines the object they name.
 *
 * <p>Regenerate after a reviewed change: {@code mvn -B -o test -Dtest=SafetyGoldenTest -Daps.shared.dir=/work/shared
 * -Daps.golden.update=true}, then read the diff (every new or changed {@code error} line is a claim that the real
 * configuration can cause the failure the rule names).
 */
class SafetyGoldenTest {
    static final Path GOLDEN = Path.of("src/test/resources/golden/safety/corpus-findings.txt");
    private static final Set<String> PAIRING = Set.of("APS401", "APS402");

    @Test
    void safetyFindingsOverTheCorpusMatchTheReviewedList() throws Exception {
        Path corpus = SharedData.require("corpus");
        ValidationOptions options = ValidationOptions.offline(KubeVersion.NEWEST);
        Map<String, ValidationSubject> subjects = new LinkedHashMap<>();
        for (CorpusTest.Row row : CorpusTest.readIndex(corpus.resolve("INDEX.md"))) {
            subjects.put(row.file(), CorpusTest.read(corpus.resolve(row.file())));
        }
        List<String> lines = new ArrayList<>();
        for (var e : subjects.entrySet()) {
            SafetyContext one = new SafetyContext(List.of(e.getValue()), options);
            for (SafetyRule rule : SafetyRules.all()) {
                if (!PAIRING.contains(rule.id())) {
                    rule.check(one).forEach(f -> lines.add(line(e.getKey(), f)));
                }
            }
        }
        SafetyContext whole = new SafetyContext(List.copyOf(subjects.values()), options);
        for (SafetyRule rule : SafetyRules.all()) {
            if (PAIRING.contains(rule.id())) {
                for (Finding f : rule.check(whole)) {
                    subjects.forEach((file, s) -> {
                        if (s.object().id().equals(f.object())) {
                            lines.add(line(file, f));
                        }
                    });
                }
            }
        }
        lines.sort(null);
        printTable(lines);
        String actual = String.join("\n", lines) + "\n";
        if (Boolean.getBoolean("aps.golden.update")) {
            Files.createDirectories(GOLDEN.getParent());
            Files.writeString(GOLDEN, actual, StandardCharsets.UTF_8);
            System.out.println("wrote " + GOLDEN + " (" + lines.size() + " findings)");
            return;
        }
        assertEquals(read(), actual, "safety findings over the corpus changed: review the diff, then regenerate with "
                + "-Daps.golden.update=true (see the class javadoc)");
    }

    private static String line(String file, Finding f) {
        return String.join(" | ", file, f.rule(), f.severity().toString().toLowerCase(java.util.Locale.ROOT), f.object(), f.field());
    }

    private static String read() throws IOException {
        return Files.exists(GOLDEN) ? Files.readString(GOLDEN, StandardCharsets.UTF_8) : "";
    }

    /** Findings by rule and severity, for the issue note's before/after table. */
    private static void printTable(List<String> lines) {
        Map<String, Map<String, Integer>> table = new TreeMap<>();
        for (String l : lines) {
            String[] c = l.split(" \\| ");
            table.computeIfAbsent(c[1], k -> new TreeMap<>()).merge(c[2], 1, Integer::sum);
        }
        System.out.println("corpus safety findings by rule and severity: " + table + " (total " + lines.size() + ")");
    }
}

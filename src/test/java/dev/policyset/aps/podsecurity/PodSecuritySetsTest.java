package dev.policyset.aps.podsecurity;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * policies/pod-security/ is what {@link PodSecuritySets} writes, and nothing else (a stale version directory fails
 * too). {@code mvn test -Dtest=PodSecuritySetsTest -Daps.regenerate=true} rewrites it.
 */
class PodSecuritySetsTest {
    static final Path DIR = Path.of("policies/pod-security");

    @Test
    void policiesDirectoryIsTheGeneratorsOutput() throws IOException {
        Map<Path, String> expected = PodSecuritySets.files();
        if (Boolean.getBoolean("aps.regenerate")) {
            for (Map.Entry<Path, String> e : expected.entrySet()) {
                Path file = DIR.resolve(e.getKey());
                Files.createDirectories(file.getParent());
                Files.writeString(file, e.getValue());
            }
        }
        List<String> stale = new ArrayList<>();
        for (Map.Entry<Path, String> e : expected.entrySet()) {
            Path file = DIR.resolve(e.getKey());
            if (!Files.exists(file) || !Files.readString(file).equals(e.getValue())) {
                stale.add(e.getKey().toString());
            }
        }
        assertEquals(List.of(), stale, "policies/pod-security/ differs from the generator (PodSecuritySets): run "
                + "mvn test -Dtest=PodSecuritySetsTest -Daps.regenerate=true and review the diff");
        List<String> unknown = new ArrayList<>();
        try (Stream<Path> files = Files.walk(DIR)) {
            files.filter(Files::isRegularFile).filter(f -> !f.startsWith(DIR.resolve("tests")))
                    .map(DIR::relativize).filter(f -> !expected.containsKey(f)).forEach(f -> unknown.add(f.toString()));
        }
        assertEquals(List.of(), unknown, "files in policies/pod-security/ the generator does not write (outside tests/)");
    }

    @Test
    void restrictedHoldsBaselinesChecksExceptThoseItOverrides() {
        for (int minor : PodSecuritySets.MINORS) {
            List<String> baseline = PodSecurityChecks.of(PodSecurityChecks.BASELINE, minor).stream()
                    .map(PodSecurityChecks.Check::id).toList();
            List<String> restricted = PodSecurityChecks.of(PodSecurityChecks.RESTRICTED, minor).stream()
                    .map(PodSecurityChecks.Check::id).toList();
            List<String> overridden = PodSecurityChecks.restricted().stream()
                    .filter(c -> c.overrides().isPresent() && c.at(minor).isPresent() && minor >= c.overridesFrom())
                    .map(c -> c.overrides().get()).toList();
            for (String id : baseline) {
                assertTrue(restricted.contains(id) != overridden.contains(id),
                        "1." + minor + ": baseline check " + id + " must be in restricted unless overridden");
            }
        }
        assertTrue(PodSecurityChecks.of(PodSecurityChecks.RESTRICTED, 35).stream().anyMatch(c -> c.id().equals("procMount_restricted")));
        assertTrue(PodSecurityChecks.of(PodSecurityChecks.RESTRICTED, 34).stream().anyMatch(c -> c.id().equals("procMount")),
                "before 1.35 restricted uses baseline's procMount (procMount_restricted is new in 1.35)");
    }
}

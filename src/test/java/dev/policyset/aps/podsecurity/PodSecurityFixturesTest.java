package dev.policyset.aps.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * policies/pod-security/ agrees with pod-security-admission itself on PSA's own fixtures: for every fixture of
 * {@code k8s.io/pod-security-admission/test/testdata} at every level and version the sets are written for, the set
 * of that level and version fails exactly the checks PSA's own {@code policy} package fails (test/psa/module runs it
 * on the same fixtures: verdicts.json), as a Pod CREATE, and at the newest version also as a Deployment holding the pod
 * as its template (PSA warns about workloads; autogen renders the policies for them) and through
 * {@code pods/ephemeralcontainers} (the set's one policy for that subresource: its messages must be PSA's). Pass fixtures: no check fails. Fail fixtures: the
 * check the fixture is named for, or the restricted check that overrides it, and any other PSA also reports (a
 * privileged container at restricted also lacks allowPrivilegeEscalation=false), and nothing else.
 *
 * <p>Messages are compared too and counted; from 1.35 they must be PSA's {@code "<reason> (<detail>)"} exactly, at
 * 1.34 the CEL environment has no {@code sort()}/{@code distinct()} and value lists keep container order
 * (PodSecurityChecks).
 *
 * <p>Fixtures and verdicts come from test/psa/fetch.sh (~/.cache/aps/psa/&lt;module version&gt;); without them this
 * test skips, and fails with {@code -Daps.psa.required=true} (CI).
 */
class PodSecurityFixturesTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /**
     * Reviewed verdict differences a ValidatingAdmissionPolicy cannot avoid, by {@code level/check}, with why. A
     * disagreement on a check listed here is counted, not failed. Empty: every check agrees on every fixture.
     */
    static final Map<String, String> KNOWN_DIFFERENCES = Map.of();

    private static Path dir;
    private static List<JsonNode> verdicts;

    @BeforeAll
    static void fixtures() throws IOException {
        dir = fetchedFixtures();
        verdicts = verdicts(dir);
    }

    /**
     * ~/.cache/aps/psa/&lt;module version&gt; (or {@code $APS_PSA_DIR/<version>}) as test/psa/fetch.sh leaves it;
     * the calling test is skipped without it, and fails with {@code -Daps.psa.required=true} (CI).
     */
    static Path fetchedFixtures() throws IOException {
        String version = moduleVersion();
        String base = System.getenv().getOrDefault("APS_PSA_DIR", System.getProperty("user.home") + "/.cache/aps/psa");
        Path at = Path.of(base, version);
        boolean present = Files.isRegularFile(at.resolve("verdicts.json")) && Files.isDirectory(at.resolve("testdata"));
        if (!present && Boolean.getBoolean("aps.psa.required")) {
            throw new IllegalStateException(at + " has no fixtures and verdicts and aps.psa.required is set (CI): run test/psa/fetch.sh");
        }
        assumeTrue(present, "pod-security-admission fixtures are not fetched (" + at + "): run test/psa/fetch.sh; "
                + "the agreement with PSA is not checked");
        return at;
    }

    /** PSA's verdict on each fixture (test/psa/module): level, version, kind, file, failed checks. */
    static List<JsonNode> verdicts(Path fixtures) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        new ObjectMapper().readTree(fixtures.resolve("verdicts.json").toFile()).path("verdicts").forEach(out::add);
        return out;
    }

    /** The k8s.io/pod-security-admission version test/psa/module/go.mod requires. */
    static String moduleVersion() throws IOException {
        Matcher m = Pattern.compile("k8s\\.io/pod-security-admission (v[0-9.]+)")
                .matcher(Files.readString(Path.of("test/psa/module/go.mod")));
        assertTrue(m.find(), "test/psa/module/go.mod requires no k8s.io/pod-security-admission version");
        return m.group(1);
    }

    /** Figures of one level and version. */
    private static final class Tally {
        int fixtures;
        int agree;
        int disagree;
        int known;
        int messagesEqual;
        int messages;
    }

    @Test
    void setsAgreeWithPodSecurityAdmissionOnItsOwnFixtures() throws Exception {
        Map<String, Tally> tallies = new TreeMap<>();
        List<String> unexpected = new ArrayList<>();
        List<String> messageDifferences = new ArrayList<>();
        Set<String> covered = new TreeSet<>();
        for (String level : PodSecuritySets.LEVELS) {
            for (int minor : PodSecuritySets.MINORS) {
                PodSecuritySetRunner runner = new PodSecuritySetRunner(level, minor);
                for (JsonNode v : verdicts) {
                    if (!v.path("level").asText().equals(level) || !v.path("version").asText().equals("1." + minor)) {
                        continue;
                    }
                    Map<String, String> expected = new LinkedHashMap<>();
                    v.path("failed").forEach(f -> expected.put(f.path("check").asText(),
                            f.path("reason").asText() + " (" + f.path("detail").asText() + ")"));
                    String file = v.path("file").asText();
                    assertNamedCheckFails(file, v.path("kind").asText(), expected.keySet(), level, minor);
                    covered.addAll(expected.keySet());
                    JsonNode pod = PodSecuritySetRunner.defaulted(YAML.readTree(dir.resolve("testdata").resolve(file).toFile()));
                    // the Deployment form at the newest version only: autogen's rewriting does not depend on the version,
                    // and each form compiles every expression again (the test's time is mostly compilation)
                    if (minor == PodSecuritySets.NEWEST) {
                        // pss-<level>-ephemeral-containers holds every check in one policy: its messages (PSA's own from
                        // 1.35) must be PSA's, as a set
                        Tally t = tallies.computeIfAbsent(level + " 1." + minor + " ephemeralcontainers", k -> new Tally());
                        t.fixtures++;
                        List<String> got = runner.updateEphemeralContainers((com.fasterxml.jackson.databind.node.ObjectNode) pod);
                        t.messages += expected.size();
                        t.messagesEqual += (int) expected.values().stream().filter(got::contains).count();
                        if (new TreeSet<>(got).equals(new TreeSet<>(expected.values())) && got.size() == expected.size()) {
                            t.agree++;
                        } else {
                            t.disagree++;
                            unexpected.add(file + " through pods/ephemeralcontainers: PSA " + expected.values() + ", the set " + got);
                        }
                    }
                    for (String form : minor == PodSecuritySets.NEWEST ? List.of("pod", "deployment") : List.of("pod")) {
                        PodSecuritySetRunner.Verdict got = form.equals("pod")
                                ? runner.createPod((com.fasterxml.jackson.databind.node.ObjectNode) pod)
                                : runner.createDeployment((com.fasterxml.jackson.databind.node.ObjectNode) pod);
                        Tally t = tallies.computeIfAbsent(level + " 1." + minor + " " + form, k -> new Tally());
                        t.fixtures++;
                        boolean same = got.failed().keySet().equals(expected.keySet()) && got.errors().isEmpty();
                        if (same) {
                            t.agree++;
                        } else {
                            Set<String> differing = new LinkedHashSet<>(got.failed().keySet());
                            differing.addAll(expected.keySet());
                            differing.removeIf(c -> got.failed().containsKey(c) == expected.containsKey(c));
                            boolean known = got.errors().isEmpty() && !differing.isEmpty()
                                    && differing.stream().allMatch(c -> KNOWN_DIFFERENCES.containsKey(level + "/" + c));
                            if (known) {
                                t.known++;
                            } else {
                                t.disagree++;
                                unexpected.add(file + " as a " + form + ": PSA fails " + expected.keySet() + ", the set fails "
                                        + got.failed().keySet() + (got.errors().isEmpty() ? "" : ", errors " + got.errors()));
                            }
                        }
                        if (form.equals("pod")) {
                            for (Map.Entry<String, String> e : expected.entrySet()) {
                                String message = got.failed().get(e.getKey());
                                if (message == null) {
                                    continue;
                                }
                                t.messages++;
                                if (message.equals(e.getValue())) {
                                    t.messagesEqual++;
                                } else if (minor >= 35) {
                                    messageDifferences.add(file + " " + e.getKey() + ":\n    PSA: " + e.getValue()
                                            + "\n    set: " + message);
                                }
                            }
                        }
                    }
                }
            }
        }
        System.out.println("pod-security sets vs pod-security-admission " + dir.getFileName() + " fixtures (verdicts; messages of Pods):");
        System.out.printf("  %-34s %8s %6s %9s %6s %9s%n", "level version form", "fixtures", "agree", "disagree", "known", "messages");
        tallies.forEach((k, t) -> System.out.printf("  %-34s %8d %6d %9d %6d %4d/%-4d%n", k, t.fixtures, t.agree, t.disagree,
                t.known, t.messagesEqual, t.messages));
        Set<String> notClaimed = new TreeSet<>();
        verdicts.forEach(v -> notClaimed.add(v.path("version").asText()));
        PodSecuritySets.MINORS.forEach(m -> notClaimed.remove("1." + m));
        System.out.println("  fixture versions not run (the sets are written for 1.34-1.37): " + notClaimed.size()
                + " (" + String.join(", ", notClaimed) + ")");

        assertEquals(List.of(), unexpected, "the pod-security sets disagree with pod-security-admission");
        assertEquals(List.of(), messageDifferences, "from 1.35 the messages must be PSA's");
        for (String level : PodSecuritySets.LEVELS) {
            for (int minor : PodSecuritySets.MINORS) {
                assertTrue(tallies.get(level + " 1." + minor + " pod").fixtures > 0, "no fixtures for " + level + " 1." + minor);
            }
        }
        Set<String> checks = new TreeSet<>();
        PodSecuritySets.LEVELS.forEach(l -> PodSecuritySets.MINORS.forEach(m -> PodSecurityChecks.of(l, m).forEach(c -> checks.add(c.id()))));
        checks.removeAll(covered);
        assertEquals(Set.of(), checks, "checks no fail fixture exercises");
    }

    /**
     * The fixture generator's contract, checked on PSA's own verdict so that a wrong verdicts.json cannot make this
     * test pass: a pass fixture fails nothing, a fail fixture fails the check it is named for, or the restricted
     * check overriding it at that version.
     */
    private static void assertNamedCheckFails(String file, String kind, Set<String> failed, String level, int minor) {
        if (kind.equals("pass")) {
            assertEquals(Set.of(), failed, file + ": PSA fails a pass fixture");
            return;
        }
        String named = file.substring(file.lastIndexOf('/') + 1).replaceAll("\\d*\\.yaml$", "");
        Set<String> acceptable = new TreeSet<>();
        for (PodSecurityChecks.Check c : PodSecurityChecks.baseline()) {
            if (c.id().equalsIgnoreCase(named)) {
                acceptable.add(c.id());
            }
        }
        for (PodSecurityChecks.Check c : PodSecurityChecks.restricted()) {
            if (c.id().equalsIgnoreCase(named) || (level.equals("restricted") && minor >= c.overridesFrom()
                    && c.overrides().map(named::equalsIgnoreCase).orElse(false))) {
                acceptable.add(c.id());
            }
        }
        assertTrue(failed.stream().anyMatch(acceptable::contains), file + ": PSA fails " + failed + ", not " + acceptable);
    }
}

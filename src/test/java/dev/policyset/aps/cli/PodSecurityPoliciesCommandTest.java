package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * policies/pod-security/ through the CLI as a platform engineer runs it (docs/pod-security.md): each version's sets
 * validate at their own Kubernetes version without an error or a warning, and the hand-written behaviour tests pass.
 * The agreement with pod-security-admission itself is PodSecurityFixturesTest.
 */
class PodSecurityPoliciesCommandTest {
    private static final List<String> VERSIONS = List.of("1.34", "1.35", "1.36", "1.37");

    @Test
    void everyVersionValidatesAtItsKubernetesVersionWithoutErrorOrWarning() throws Exception {
        for (String v : VERSIONS) {
            RenderCommandTest.Run run = RenderCommandTest.run("validate", "--kube-version", v, "--output", "json",
                    "policies/pod-security/v" + v + "/");
            JsonNode summary = new ObjectMapper().readTree(run.out()).path("summary");
            assertEquals(ExitCodes.OK, run.exit(), v + ": " + run.out() + run.err());
            assertEquals(0, summary.path("errors").asInt(-1), v + ": " + run.out());
            assertEquals(0, summary.path("warnings").asInt(-1), v + ": " + run.out());
        }
    }

    /** baseline.yaml is the newest version: a 1.34 server cannot compile its messages (sort(), distinct()), so pin v1.34. */
    @Test
    void theNewestFilesNeedTheNewestCelEnvironment() throws Exception {
        RenderCommandTest.Run newest = RenderCommandTest.run("validate", "--output", "json", "policies/pod-security/baseline.yaml");
        assertEquals(ExitCodes.OK, newest.exit(), newest.out() + newest.err());
        RenderCommandTest.Run old = RenderCommandTest.run("validate", "--kube-version", "1.34", "--output", "json",
                "policies/pod-security/baseline.yaml");
        assertEquals(ExitCodes.FINDINGS, old.exit(), "the 1.37 set uses sort() and distinct(), which 1.34 does not have");
        assertTrue(new ObjectMapper().readTree(old.out()).path("summary").path("errors").asInt() > 0, old.out());
    }

    @Test
    void handWrittenBehaviourTestsPass() {
        RenderCommandTest.Run run = RenderCommandTest.run("test", "policies/pod-security/tests/");
        assertEquals(ExitCodes.OK, run.exit(), run.out() + run.err());
        assertTrue(run.out().contains("0 failed"), run.out());
    }
}

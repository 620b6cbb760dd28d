package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.policyset.aps.cli.RenderCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code aps impact}'s mutating part over the samples, and docs/impact.md's example kept true. */
class MutatingImpactCommandTest {
    private static final String[] DEMO = {"impact", "--samples", "1", "--resources", "examples/impact/", "examples/mutating-impact/"};

    @Test
    void theDemoPoliciesShowEachOutcomeAndARefusalExitsOne() throws Exception {
        RenderCommandTest.Run r = run(append(DEMO, "--output", "json"));
        assertEquals(ExitCodes.FINDINGS, r.exit(), r.err());
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertEquals(8, json.path("objects").asInt());
        assertEquals(0, json.path("bindings").size(), "no validating policy among the demo's");
        List<String> rows = new ArrayList<>();
        for (JsonNode b : json.path("mutatingBindings")) {
            rows.add(b.path("policy").asText() + " matched " + b.path("matched").asInt() + " changed " + b.path("changed").asInt()
                    + " noop " + b.path("noop").asInt() + " refused " + b.path("refused").asInt() + " errors "
                    + b.path("errors").asInt() + " notIdempotent " + b.path("notIdempotent").asInt());
        }
        assertEquals(List.of(
                "default-team-label matched 3 changed 2 noop 1 refused 0 errors 0 notIdempotent 0",
                "pods-run-as-non-root matched 3 changed 0 noop 0 refused 3 errors 0 notIdempotent 0",
                "log-shipper-sidecar matched 1 changed 1 noop 0 refused 0 errors 0 notIdempotent 1",
                "rollout-deadline matched 2 changed 0 noop 0 refused 2 errors 2 notIdempotent 0"), rows);
        JsonNode refused = json.path("mutatingBindings").get(1).path("samples").get(0);
        assertEquals("refused", refused.path("outcome").asText());
        assertEquals("immutable", refused.path("reason").asText());
        JsonNode change = refused.path("changes").get(0);
        assertEquals("add", change.path("op").asText());
        assertEquals("/spec/securityContext", change.path("path").asText());
        assertTrue(change.path("value").path("runAsNonRoot").asBoolean());
        assertFalse(change.has("old"));
        JsonNode summary = json.path("summary");
        assertEquals(4, summary.path("mutatingBindings").asInt());
        assertEquals(2, summary.path("changing").asInt());
        assertEquals(2, summary.path("refusing").asInt());
        assertEquals(1, summary.path("notIdempotent").asInt());
        List<String> rules = new ArrayList<>();
        json.path("findings").forEach(f -> rules.add(f.path("rule").asText() + " " + f.path("severity").asText() + " "
                + f.path("object").asText() + " " + f.path("file").asText() + ":" + f.path("line").asInt()));
        assertEquals(List.of(
                "APS804 info MutatingAdmissionPolicyBinding/default-team-label examples/mutating-impact/policies.yaml:31",
                "APS802 warning MutatingAdmissionPolicyBinding/pods-run-as-non-root examples/mutating-impact/policies.yaml:53",
                "APS803 warning MutatingAdmissionPolicyBinding/log-shipper-sidecar examples/mutating-impact/policies.yaml:77",
                "APS804 info MutatingAdmissionPolicyBinding/log-shipper-sidecar examples/mutating-impact/policies.yaml:77",
                "APS802 warning MutatingAdmissionPolicyBinding/rollout-deadline examples/mutating-impact/policies.yaml:98"), rules);
    }

    @Test
    void theInstallableSamplesOnlyChangeObjectsAndExitZeroWithTheValidatingContractUnchanged() throws Exception {
        RenderCommandTest.Run r = run("impact", "--resources", "examples/impact/", "--output", "json", "config/samples/");
        assertEquals(ExitCodes.OK, r.exit(), r.err());
        JsonNode json = new ObjectMapper().readTree(r.out());
        List<String> keys = new ArrayList<>();
        json.path("bindings").get(0).fieldNames().forEachRemaining(keys::add);
        assertEquals(List.of("policy", "binding", "validationActions", "failurePolicy", "matched", "deniedUnderDeny", "denied",
                "warned", "audited", "errors", "samples"), keys);
        JsonNode pull = json.path("mutatingBindings").get(1);
        assertEquals("default-image-pull-policy", pull.path("policy").asText());
        assertEquals(3, pull.path("changed").asInt());
        assertEquals(0, pull.path("notIdempotent").asInt(), "the sample's filter(!has(...)) guard makes it idempotent");
        assertEquals("CREATE", pull.path("samples").get(0).path("operation").asText());
        assertEquals(0, json.path("summary").path("refusing").asInt());
    }

    @Test
    void aValidatingOnlyRunPrintsNoMutatingPart(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path vap = dir.resolve("vap.yaml");
        Files.writeString(vap, """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: any}
                spec:
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [""], apiVersions: [v1], operations: [UPDATE], resources: [pods]}
                  validations:
                  - expression: "true"
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: any}
                spec: {policyName: any, validationActions: [Deny]}
                """);
        RenderCommandTest.Run r = run("impact", "--resources", "examples/impact/", vap.toString());
        assertEquals(ExitCodes.OK, r.exit(), r.err());
        assertFalse(r.out().contains("Mutating"), r.out());
        assertTrue(r.out().endsWith("0 of 1 binding(s) would deny existing objects under Deny; 0 deny some now\n"), r.out());
    }

    /** The text block after {@code <!-- golden: MutatingImpactCommandTest -->} in docs/impact.md is the demo's output. */
    @Test
    void docsImpactShowsTheDemoOutputVerbatim() throws Exception {
        String doc = Files.readString(Path.of("docs/impact.md"));
        String marker = "<!-- golden: MutatingImpactCommandTest -->\n```text\n";
        int start = doc.indexOf(marker);
        assertTrue(start >= 0, "docs/impact.md lacks the marked example");
        int from = start + marker.length();
        String shown = doc.substring(from, doc.indexOf("```\n", from));
        RenderCommandTest.Run r = run(DEMO);
        assertEquals(ExitCodes.FINDINGS, r.exit(), r.err());
        assertEquals(r.out(), shown, "docs/impact.md's mutating example is stale: paste the output of aps "
                + String.join(" ", DEMO));
    }

    private static String[] append(String[] a, String... more) {
        String[] out = java.util.Arrays.copyOf(a, a.length + more.length);
        System.arraycopy(more, 0, out, a.length, more.length);
        return out;
    }
}

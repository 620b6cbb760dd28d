package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.policyset.aps.cli.RenderCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ImpactCommandTest {
    @Test
    void samplesAgainstTheExampleClusterNameTheViolatorsOfEachBinding() {
        RenderCommandTest.Run r = run("impact", "--resources", "examples/impact/", "config/samples/");
        assertEquals(ExitCodes.OK, r.exit(), r.err());
        String out = r.out();
        assertTrue(out.contains("on 8 existing object(s)"), out);
        assertTrue(out.contains("binding require-team-label-production [Warn, Audit], failurePolicy Fail\n"
                + "  matched 2; would be denied under Deny 1; now: denied 0, warned 1, audited 1; evaluation errors 0\n"
                + "  - Deployment shop/legacy-batch (UPDATE, violation): workloads must carry a 'team' label naming their owners"), out);
        assertTrue(out.contains("- Pod shop/node-exporter-x1 (UPDATE, violation): pods may not share the host's network"), out);
        assertTrue(out.contains("config/samples/baseline-security.yaml:74: info APS801 "
                + "ValidatingAdmissionPolicyBinding/require-team-label-production spec.validationActions: switching this "
                + "binding to Deny would deny 1 of the 2"), out);
        assertTrue(out.contains("3 of 3 binding(s) would deny existing objects under Deny; 0 deny some now"), out);
    }

    @Test
    void aDenyBindingThatDeniesExistingObjectsExitsOneWithAWarningInJson(@TempDir Path dir) throws Exception {
        Path policy = dir.resolve("policy.yaml");
        Files.writeString(policy, """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: no-host-network}
                spec:
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [pods]}
                  validations:
                  - expression: "!object.spec.?hostNetwork.orValue(false)"
                    message: no host network
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: no-host-network}
                spec:
                  policyName: no-host-network
                  validationActions: [Deny]
                """);
        RenderCommandTest.Run r = run("impact", "--resources", "examples/impact/cluster.yaml", "--output", "json",
                "--samples", "0", policy.toString());
        assertEquals(ExitCodes.FINDINGS, r.exit(), r.err());
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertEquals(8, json.path("objects").asInt());
        JsonNode b = json.path("bindings").get(0);
        assertEquals("no-host-network", b.path("binding").asText());
        assertEquals(3, b.path("matched").asInt());
        assertEquals(1, b.path("denied").asInt());
        assertEquals(0, b.path("samples").size());
        JsonNode f = json.path("findings").get(0);
        assertEquals("APS801", f.path("rule").asText());
        assertEquals("warning", f.path("severity").asText());
        assertEquals(policy.toString(), f.path("file").asText());
        assertEquals(1, json.path("summary").path("denying").asInt());
    }

    @Test
    void askingAsASystemUserLetsMatchConditionsExemptIt() {
        RenderCommandTest.Run r = run("impact", "--resources", "examples/impact/", "--user",
                "system:serviceaccount:kube-system:deployment-controller", "config/samples/");
        assertEquals(ExitCodes.OK, r.exit(), r.err());
        assertTrue(r.out().contains("binding require-team-label-production [Warn, Audit], failurePolicy Fail\n  matched 0;"), r.out());
    }

    @Test
    void unreadableResourcesAndNonObjectsAreReported(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("broken.yaml"), "items: [\n");
        Files.writeString(dir.resolve("nameless.yaml"), "apiVersion: v1\nkind: Pod\nmetadata: {namespace: a}\n");
        RenderCommandTest.Run r = run("impact", "--resources", dir.toString(), "config/samples/");
        assertEquals(ExitCodes.USAGE_OR_INPUT, r.exit(), r.out());
        assertTrue(r.err().contains("broken.yaml"), r.err());
        assertTrue(r.err().contains("nameless.yaml:1: not an existing object (no metadata.name)"), r.err());
    }

    @Test
    void resourcesAreRequired() {
        RenderCommandTest.Run r = run("impact", "config/samples/");
        assertEquals(ExitCodes.USAGE_OR_INPUT, r.exit());
        assertTrue(r.err().contains("--resources"), r.err());
    }

    @Test
    void openreportsOutputIsApplyableYamlWithTheFindingsOnStderr() throws Exception {
        RenderCommandTest.Run r = run("impact", "--resources", "examples/impact/cluster.yaml", "--output", "openreports",
                "config/samples/");
        assertEquals(ExitCodes.OK, r.exit(), r.err());
        List<String> kinds = new java.util.ArrayList<>();
        for (dev.policyset.aps.core.yaml.Document d : dev.policyset.aps.core.yaml.Yaml.parse("<stdout>", r.out())) {
            assertEquals("openreports.io/v1alpha1", d.content().path("apiVersion").asText());
            kinds.add(d.content().path("kind").asText() + " " + d.content().path("metadata").path("namespace").asText("-"));
        }
        assertEquals(List.of("ClusterReport -", "Report shop"), kinds);
        assertTrue(r.err().contains("APS801"), "the findings go to stderr: " + r.err());
        assertTrue(!r.out().contains("APS801"), r.out());
    }

    @Test
    void aBadReportFilterOrCapIsAUsageErrorNamingTheOption() {
        RenderCommandTest.Run filter = run("impact", "--resources", "examples/impact/", "--output", "openreports",
                "--report-results", "fail,denied", "config/samples/");
        assertEquals(ExitCodes.USAGE_OR_INPUT, filter.exit());
        assertTrue(filter.err().contains("--report-results fail,denied: result filter 'denied': expected some of "
                + "[fail, error, warn, pass, skip], comma-separated"), filter.err());
        RenderCommandTest.Run cap = run("impact", "--resources", "examples/impact/", "--output", "openreports",
                "--report-max-results", "0", "config/samples/");
        assertEquals(ExitCodes.USAGE_OR_INPUT, cap.exit());
        assertTrue(cap.err().contains("--report-max-results 0: expected 1 or more"), cap.err());
    }
}

package dev.policyset.aps.core.impact;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.model.KubeVersion;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.policyset.aps.core.impact.ImpactScanTest.binding;
import static dev.policyset.aps.core.impact.ImpactScanTest.configuration;
import static dev.policyset.aps.core.impact.ImpactScanTest.deployment;
import static dev.policyset.aps.core.impact.ImpactScanTest.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OpenReportsTest {
    private static final Instant NOW = Instant.parse("2026-12-06T01:00:00.5Z");
    private static final String REQUIRE_TEAM = """
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: require-team}
            spec:
              failurePolicy: Fail
              matchConstraints:
                resourceRules:
                - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
                - {apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [namespaces]}
              validations:
              - expression: "has(object.metadata.labels) && 'team' in object.metadata.labels"
                messageExpression: "object.kind + ' ' + object.metadata.name + ' has no team label'"
            """;

    private static ImpactReport scan() {
        ObjectNode shop = node("apiVersion: v1\nkind: Namespace\nmetadata: {name: shop, uid: 7d1c, labels: {team: x}}\n");
        ObjectNode batch = node("apiVersion: v1\nkind: Namespace\nmetadata: {name: batch}\n");
        return ImpactScan.scan(configuration(List.of(REQUIRE_TEAM, binding("staged", "require-team", "[Warn, Audit]", ""),
                        binding("enforced", "require-team", "[Deny]", ""))),
                List.of(shop, batch, deployment("shop", "web", "team: x"), deployment("shop", "db", null),
                        deployment("batch", "cron", null)),
                KubeVersion.NEWEST, new ImpactScan.Options(100, 10, null, true));
    }

    private static OpenReports.Options options(Set<String> filter, int max) {
        return new OpenReports.Options("aps-impact", filter, max, NOW, Map.of("admission.policyset.dev/set", "baseline"));
    }

    @Test
    void oneReportPerNamespaceWithResultsAndAClusterReportForClusterScopedObjects() {
        List<ObjectNode> reports = OpenReports.of(scan(), options(OpenReports.DEFAULT_FILTER, 100));
        assertEquals(List.of("ClusterReport /aps-impact", "Report batch/aps-impact", "Report shop/aps-impact"),
                reports.stream().map(r -> r.path("kind").asText() + " " + r.path("metadata").path("namespace").asText("")
                        + "/" + r.path("metadata").path("name").asText()).toList());

        JsonNode cluster = reports.get(0);
        // the Namespace batch has no team label: the enforced binding fails it (listed first), the staged one warns
        assertEquals(List.of("enforced fail Namespace batch", "staged warn Namespace batch"), describe(cluster));
        assertEquals("Namespace batch has no team label", cluster.path("results").get(0).path("message").asText());
        assertFalse(cluster.path("results").get(0).path("resources").get(0).has("namespace"));

        JsonNode shop = reports.get(2);
        assertEquals(List.of("enforced fail Deployment db", "staged warn Deployment db"), describe(shop),
                "fail before warn; the labelled web passes and is not listed");
        JsonNode fail = shop.path("results").get(0);
        assertEquals("require-team", fail.path("policy").asText());
        assertEquals("UPDATE", fail.path("properties").path("operation").asText());
        assertEquals("Deny", fail.path("properties").path("validationActions").asText());
        assertEquals(NOW.getEpochSecond(), fail.path("timestamp").path("seconds").asLong());
        assertEquals(500_000_000, fail.path("timestamp").path("nanos").asInt());
        assertEquals("{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"name\":\"db\",\"namespace\":\"shop\"}",
                fail.path("resources").get(0).toString());
        assertEquals("{\"pass\":0,\"fail\":1,\"warn\":1,\"error\":0,\"skip\":0}", shop.path("summary").toString());
        assertEquals("baseline", shop.path("metadata").path("labels").path("admission.policyset.dev/set").asText());
        assertEquals("[\"fail\",\"error\",\"warn\"]", shop.path("configuration").path("limits").path("statusFilter").toString());
        assertFalse(shop.path("metadata").has("annotations"), "nothing was cut");
    }

    @Test
    void passesAreListedOnlyWhenAskedForAndTheUidIsKept() {
        List<ObjectNode> reports = OpenReports.of(scan(), options(Set.of("pass"), 100));
        assertEquals(List.of("staged pass Namespace shop", "enforced pass Namespace shop"), describe(reports.get(0)));
        assertEquals("7d1c", reports.get(0).path("results").get(0).path("resources").get(0).path("uid").asText());
        assertEquals(2, reports.size(), "batch has no pass: no Report there");
        assertEquals(List.of("staged pass Deployment web", "enforced pass Deployment web"), describe(reports.get(1)));
    }

    @Test
    void theCapKeepsTheMostSevereAndSaysWhatItCut() {
        List<ObjectNode> reports = OpenReports.of(scan(), options(Set.of("fail", "warn", "pass"), 1));
        JsonNode shop = reports.get(2);
        assertEquals(List.of("enforced fail Deployment db"), describe(shop));
        assertEquals("3 (warn 1, pass 2; at most 1 per report)",
                shop.path("metadata").path("annotations").path(OpenReports.OMITTED_ANNOTATION).asText());
        assertEquals(1, shop.path("summary").path("fail").asInt());
        assertEquals(0, shop.path("summary").path("warn").asInt(), "the summary counts what the report lists");
        assertEquals(1, shop.path("configuration").path("limits").path("maxResults").asInt());
    }

    @Test
    void aCleanScanStillHasAnEmptyClusterReport() {
        ImpactReport clean = ImpactScan.scan(configuration(List.of(REQUIRE_TEAM, binding("enforced", "require-team", "[Deny]", ""))),
                List.of(deployment("shop", "web", "team: x")), KubeVersion.NEWEST, new ImpactScan.Options(100, 10, null, true));
        List<ObjectNode> reports = OpenReports.of(clean, options(OpenReports.DEFAULT_FILTER, 100));
        assertEquals(1, reports.size());
        assertEquals("ClusterReport", reports.get(0).path("kind").asText());
        assertEquals(0, reports.get(0).path("results").size());
    }

    @Test
    void aFilterOrCapOutsideTheApiIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> options(OpenReports.parseFilter("fail,denied"), 10));
        assertTrue(e.getMessage().contains("'denied'") && e.getMessage().contains("[fail, error, warn, pass, skip]"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> options(OpenReports.DEFAULT_FILTER, 0));
        assertThrows(IllegalArgumentException.class, () -> OpenReports.parseFilter(" , "));
    }

    private static List<String> describe(JsonNode report) {
        List<String> out = new java.util.ArrayList<>();
        for (JsonNode r : report.path("results")) {
            out.add(r.path("rule").asText() + " " + r.path("result").asText() + " "
                    + r.path("resources").get(0).path("kind").asText() + " " + r.path("resources").get(0).path("name").asText());
        }
        return out;
    }
}

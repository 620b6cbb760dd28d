package dev.policyset.aps.operator;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.api.v1alpha1.BindingImpactStatus;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.install.MonitoringQueries;
import dev.policyset.aps.operator.testing.ApsMockServer;
import dev.policyset.aps.operator.testing.Sets;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The impact scan against the mock server: existing Deployments read through the operator's informers, counts and
 * a sample in {@code status.impact}, the {@code aps_impact_violations} gauge, and the Deny gate both ways (held at
 * {@code [Warn, Audit]} while a violator exists, released to {@code [Deny]} by the first clean scan).
 */
@QuarkusTest
@TestProfile(ImpactScanReconcilerTest.ScanOn.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@QuarkusTestResource(value = ApsMockServer.class, restrictToAnnotatedClass = true)
class ImpactScanReconcilerTest {
    private static final Duration WAIT = Duration.ofSeconds(40);

    /** The scan on, every 2 s, over Namespaces and Deployments, written as policy reports too. */
    public static final class ScanOn implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("aps.impact.enabled", "true", "aps.impact.interval", "PT2S",
                    "aps.impact.kinds", "v1/Namespace,apps/v1/Deployment", "aps.impact.max-objects", "100",
                    "aps.reports.enabled", "true");
        }
    }

    private static final String GATED = """
            apiVersion: admission.policyset.dev/v1alpha1
            kind: AdmissionPolicySet
            metadata: {name: gated}
            spec:
              safety: {requireNoViolationsBeforeDeny: true}
              defaults: {validationActions: [Deny]}
              validatingPolicies:
              - name: gated-team
                policy:
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
                  validations:
                  - expression: "has(object.metadata.labels) && 'team' in object.metadata.labels"
                    messageExpression: "'deployment ' + object.metadata.name + ' has no team label'"
            """;

    @Inject
    KubernetesClient client;

    @Inject
    MeterRegistry registry;

    @io.quarkus.test.common.http.TestHTTPResource("/q/metrics")
    java.net.URL metricsUrl;

    @Test
    @Order(1)
    void aViolatorHoldsTheBindingAtWarnAuditAndIsReportedInStatusAndMetric() {
        client.resource(new NamespaceBuilder().withNewMetadata().withName("shop").endMetadata().build()).create();
        client.resource(deployment("legacy", null)).create();
        client.resource(deployment("cart", "payments")).create();
        client.resource(Sets.parse(GATED)).create();

        AdmissionPolicySet set = awaitSet(s -> row(s) != null && row(s).getViolations() == 1 && held(s, "True"));
        BindingImpactStatus row = row(set);
        assertEquals(2, row.getMatched());
        assertEquals(Boolean.TRUE, row.getComplete());
        assertEquals(List.of("Deployment shop/legacy: deployment legacy has no team label"), row.getSamples());
        assertTrue(condition(set).getMessage().startsWith("ValidatingAdmissionPolicyBinding/gated-team-binding asks for [Deny] "
                + "but"), condition(set).getMessage());
        await().atMost(WAIT).until(() -> actions("gated-team-binding"), a -> a.equals(List.of("Warn", "Audit")));
        assertEquals(1.0, gauge());

        GenericKubernetesResource report = await().atMost(WAIT).until(() -> client.genericKubernetesResources(
                PolicyReportWriter.REPORT).inNamespace("shop").withName("aps-gated").get(), java.util.Objects::nonNull);
        assertEquals("gated", report.getMetadata().getLabels().get("admission.policyset.dev/set"));
        List<Map<String, Object>> results = results(report);
        assertEquals(1, results.size(), results.toString());
        assertEquals("gated-team-binding", results.get(0).get("rule"));
        assertEquals("deployment legacy has no team label", results.get(0).get("message"));
        assertTrue(client.genericKubernetesResources(PolicyReportWriter.CLUSTER_REPORT).withName("aps-gated").get() != null,
                "the cluster report is written even with no cluster-scoped result");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> results(GenericKubernetesResource report) {
        return (List<Map<String, Object>>) report.getAdditionalProperties().get("results");
    }

    @Test
    @Order(2)
    void fixingTheViolatorReleasesDenyAtTheNextScan() {
        Deployment fixed = deployment("legacy", "batch");
        client.resource(fixed).update();
        AdmissionPolicySet set = awaitSet(s -> row(s) != null && row(s).getViolations() == 0 && held(s, "False"));
        assertEquals("AsExpected", condition(set).getReason());
        await().atMost(WAIT).until(() -> actions("gated-team-binding"), a -> a.equals(List.of("Deny")));
        await().atMost(WAIT).until(this::gauge, v -> v == 0.0);
        await().atMost(WAIT).until(() -> client.genericKubernetesResources(PolicyReportWriter.REPORT).inNamespace("shop")
                .withName("aps-gated").get() == null);
        assertTrue(client.genericKubernetesResources(PolicyReportWriter.CLUSTER_REPORT).withName("aps-gated").get() != null);
    }

    /**
     * The alerts and dashboards read only what the operator serves: the running operator (a set reconciled and
     * scanned, so the per-set series exist) is scraped at /q/metrics, and every metric name in config/prometheus
     * and config/grafana must be among the samples (Prometheus' own per-target series aside). A staged policy
     * (APS402) gives aps_findings a row: a gauge without rows has no sample.
     */
    @Test
    @Order(3)
    void everyMetricTheAlertsAndDashboardsReadIsExported() throws Exception {
        client.resource(Sets.parse("""
                apiVersion: admission.policyset.dev/v1alpha1
                kind: AdmissionPolicySet
                metadata: {name: staged}
                spec:
                  validatingPolicies:
                  - name: staged-team
                    bindings: []
                    policy:
                      matchConstraints:
                        resourceRules:
                        - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
                      validations:
                      - expression: "has(object.metadata.labels)"
                """)).create();
        await().atMost(WAIT).until(() -> registry.find("aps.set.ready").tag("set", "gated").gauge() != null
                && registry.find("aps.findings").tags("rule", "APS402").gauge() != null);
        java.net.http.HttpResponse<String> scrape = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(metricsUrl.toURI()).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(200, scrape.statusCode());
        java.util.Set<String> exported = MonitoringQueries.exposedNames(scrape.body());
        List<String> unknown = new java.util.ArrayList<>();
        for (MonitoringQueries.Query q : MonitoringQueries.shipped(java.nio.file.Path.of("").toAbsolutePath())) {
            for (String name : MonitoringQueries.metricNames(q.expr())) {
                if (!exported.contains(name) && !MonitoringQueries.PROMETHEUS_SYNTHETIC.contains(name)) {
                    unknown.add(q.source() + ": " + name);
                }
            }
        }
        assertEquals(List.of(), unknown, "metrics the operator does not export; it exports "
                + exported.stream().filter(n -> n.startsWith("aps_")).toList());
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private AdmissionPolicySet awaitSet(Predicate<AdmissionPolicySet> done) {
        return await().atMost(WAIT).until(() -> client.resources(AdmissionPolicySet.class).withName("gated").get(),
                s -> s != null && s.getStatus() != null && done.test(s));
    }

    private static BindingImpactStatus row(AdmissionPolicySet s) {
        return s.getStatus().getImpact() == null ? null : s.getStatus().getImpact().getBindings().stream()
                .filter(b -> b.getBinding().equals("gated-team-binding")).findFirst().orElse(null);
    }

    private static io.fabric8.kubernetes.api.model.Condition condition(AdmissionPolicySet s) {
        return s.getStatus().getConditions().stream().filter(c -> c.getType().equals("EnforcementHeld")).findFirst().orElse(null);
    }

    private static boolean held(AdmissionPolicySet s, String status) {
        return condition(s) != null && status.equals(condition(s).getStatus());
    }

    @SuppressWarnings("unchecked")
    private List<String> actions(String binding) {
        GenericKubernetesResource live = client.genericKubernetesResources(
                ManagedKinds.context(AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING, "v1")).withName(binding).get();
        if (live == null) {
            return List.of();
        }
        return (List<String>) ((Map<String, Object>) live.getAdditionalProperties().get("spec")).get("validationActions");
    }

    private double gauge() {
        Gauge g = registry.find("aps.impact.violations").tags("set", "gated", "binding", "gated-team-binding").gauge();
        return g == null ? -1 : g.value();
    }

    private static Deployment deployment(String name, String team) {
        DeploymentBuilder b = new DeploymentBuilder().withNewMetadata().withName(name).withNamespace("shop").endMetadata()
                .withNewSpec().withReplicas(1).endSpec();
        if (team != null) {
            b.editMetadata().addToLabels("team", team).endMetadata();
        }
        return b.build();
    }
}

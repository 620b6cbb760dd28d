package dev.policyset.aps.operator;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.operator.testing.Sets;
import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.OperatorInstall;
import dev.policyset.aps.testing.kube.PublishedCrds;
import dev.policyset.aps.testing.kube.RealApiServer;
import dev.policyset.aps.testing.kube.RealApiServerResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The operator writes policy reports on a real kube-apiserver, as its ServiceAccount with config/rbac plus the RBAC
 * of config/components/policy-reports (nothing else grants it access to reports), into the published OpenReports
 * CRDs (test/crds/fetch.sh): a violating Deployment shows up in its namespace's Report, and deleting the
 * set deletes its reports.
 */
@QuarkusTest
@TestProfile(PolicyReportsRealServerTest.ReportsOn.class)
@QuarkusTestResource(value = RealApiServerResource.class, restrictToAnnotatedClass = true)
@RealApiServer
class PolicyReportsRealServerTest {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String SET = """
            apiVersion: admission.policyset.dev/v1alpha1
            kind: AdmissionPolicySet
            metadata: {name: reported}
            spec:
              defaults: {validationActions: [Warn, Audit]}
              validatingPolicies:
              - name: reported-team
                policy:
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
                    namespaceSelector:
                      matchLabels: {kubernetes.io/metadata.name: reports-shop}
                  validations:
                  - expression: "has(object.metadata.labels) && 'team' in object.metadata.labels"
                    messageExpression: "'deployment ' + object.metadata.name + ' has no team label'"
            """;

    /** The scan on (every 2 s, Namespaces and Deployments) and written as reports. */
    public static final class ReportsOn implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("aps.impact.enabled", "true", "aps.impact.interval", "PT2S",
                    "aps.impact.kinds", "v1/Namespace,apps/v1/Deployment", "aps.reports.enabled", "true");
        }
    }

    @Test
    void aViolatorIsReportedInItsNamespaceAndTheReportsLeaveWithTheSet() throws Exception {
        KubeControlPlane plane = KubeControlPlane.shared();
        KubernetesClient admin = plane.admin();
        PublishedCrds.install(plane, "openreports", "v0.2.1", "openreports.io_reports.yaml",
                "openreports.io_clusterreports.yaml");
        Path overlay = Path.of("target/policy-reports-rbac");
        Files.createDirectories(overlay);
        Files.writeString(overlay.resolve("kustomization.yaml"), "apiVersion: kustomize.config.k8s.io/v1beta1\n"
                + "kind: Kustomization\nnamespace: " + OperatorInstall.NAMESPACE + "\n"
                + "components: [../../config/components/policy-reports]\n"
                + "resources: [../../config/default]\n");
        String rbac = OperatorInstall.kustomize(plane, overlay);
        for (HasMetadata o : admin.load(new ByteArrayInputStream(rbac.getBytes(StandardCharsets.UTF_8))).items()) {
            if (o.getMetadata().getName().endsWith("-reports")) {
                admin.resource(o).fieldManager("aps-test").forceConflicts().serverSideApply();
            }
        }

        admin.resource(new NamespaceBuilder().withNewMetadata().withName("reports-shop").endMetadata().build()).create();
        admin.resource(new DeploymentBuilder().withNewMetadata().withName("legacy").withNamespace("reports-shop").endMetadata()
                .withNewSpec().withNewSelector().addToMatchLabels("app", "legacy").endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", "legacy").endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage("registry.example/legacy:1").endContainer().endSpec()
                .endTemplate().endSpec().build()).create();
        admin.resource(Sets.parse(SET)).create();

        GenericKubernetesResource report = await().atMost(WAIT).until(() -> admin.genericKubernetesResources(
                PolicyReportWriter.REPORT).inNamespace("reports-shop").withName("aps-reported").get(), Objects::nonNull);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> results = (List<Map<String, Object>>) report.getAdditionalProperties().get("results");
        assertEquals(1, results.size(), results.toString());
        assertEquals("warn", results.get(0).get("result"), "[Warn, Audit] only warns");
        assertEquals("deployment legacy has no team label", results.get(0).get("message"));
        assertEquals("reported", report.getMetadata().getLabels().get("admission.policyset.dev/set"));

        admin.resources(AdmissionPolicySet.class).withName("reported").delete();
        await().atMost(WAIT).until(() -> admin.genericKubernetesResources(PolicyReportWriter.REPORT)
                .inNamespace("reports-shop").withName("aps-reported").get() == null
                && admin.genericKubernetesResources(PolicyReportWriter.CLUSTER_REPORT).withName("aps-reported").get() == null);
    }
}

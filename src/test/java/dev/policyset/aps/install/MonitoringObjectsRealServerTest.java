package dev.policyset.aps.install;

import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.OperatorInstall;
import dev.policyset.aps.testing.kube.PublishedCrds;
import dev.policyset.aps.testing.kube.RealApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * config/prometheus' ServiceMonitor and PrometheusRule (and config/grafana's ConfigMap) judged by the Prometheus
 * Operator's published CRDs (test/crds/fetch.sh) on a real kube-apiserver: each is created with a server-side dry
 * run and must come back unpruned, as the chart's metrics toggles render them too (HelmChartTest compares the two).
 * A rule with an invalid {@code for} is refused, so the check is live.
 */
@RealApiServer
class MonitoringObjectsRealServerTest {
    @Test
    void theMonitoringObjectsAreValidPrometheusOperatorObjects(KubeControlPlane plane) throws Exception {
        PublishedCrds.install(plane, "prometheus-operator", "v0.85.0", "monitoring.coreos.com_servicemonitors.yaml",
                "monitoring.coreos.com_prometheusrules.yaml");
        OperatorInstall.ensure(plane); // the namespace
        Path overlay = Path.of("target/monitoring-objects");
        Files.createDirectories(overlay);
        Files.writeString(overlay.resolve("kustomization.yaml"), "apiVersion: kustomize.config.k8s.io/v1beta1\n"
                + "kind: Kustomization\nnamespace: " + OperatorInstall.NAMESPACE + "\n"
                + "resources: [../../config/default]\n"
                + "components: [../../config/prometheus, ../../config/grafana]\n");
        KubernetesClient admin = plane.admin();
        int checked = 0;
        for (HasMetadata o : admin.load(new ByteArrayInputStream(OperatorInstall.kustomize(plane, overlay)
                .getBytes(StandardCharsets.UTF_8))).items()) {
            if (!List.of("ServiceMonitor", "PrometheusRule", "ConfigMap").contains(o.getKind())) {
                continue;
            }
            GenericKubernetesResource sent = (GenericKubernetesResource) (o instanceof GenericKubernetesResource g ? g
                    : io.fabric8.kubernetes.client.utils.Serialization.unmarshal(
                    io.fabric8.kubernetes.client.utils.Serialization.asJson(o), GenericKubernetesResource.class));
            GenericKubernetesResource stored = admin.resource(sent).dryRun().create();
            for (String field : List.of("spec", "data")) {
                assertEquals(ProjectFiles.JSON.valueToTree(sent.getAdditionalProperties().get(field)),
                        ProjectFiles.JSON.valueToTree(stored.getAdditionalProperties().get(field)),
                        o.getKind() + " ." + field + " as the server stores it differs (pruned or defaulted)");
            }
            checked++;
        }
        assertEquals(3, checked, "ServiceMonitor, PrometheusRule and the dashboard ConfigMap");
    }

    @Test
    void aRuleWithAnInvalidDurationIsRefused(KubeControlPlane plane) {
        PublishedCrds.install(plane, "prometheus-operator", "v0.85.0", "monitoring.coreos.com_servicemonitors.yaml",
                "monitoring.coreos.com_prometheusrules.yaml");
        GenericKubernetesResource bad = new GenericKubernetesResource();
        bad.setApiVersion("monitoring.coreos.com/v1");
        bad.setKind("PrometheusRule");
        bad.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("aps-bad").withNamespace("default").build());
        bad.setAdditionalProperties(Map.of("spec", Map.of("groups", List.of(Map.of("name", "g", "rules",
                List.of(Map.of("alert", "A", "expr", "up == 0", "for", "fifteen minutes")))))));
        KubernetesClientException refused = assertThrows(KubernetesClientException.class,
                () -> plane.admin().resource(bad).dryRun().create());
        assertEquals(422, refused.getCode());
        assertTrue(refused.getMessage().contains("for"), refused.getMessage());
    }
}

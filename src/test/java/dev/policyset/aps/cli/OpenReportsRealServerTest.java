package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.yaml.Yaml;
import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.PublishedCrds;
import dev.policyset.aps.testing.kube.RealApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code aps impact --output openreports} judged by the published OpenReports CRDs on a real kube-apiserver: the CRDs
 * that test/crds/fetch.sh fetched (a pinned upstream version, not committed) are installed, every report
 * the CLI prints for examples/impact is created, and the server must store each exactly as sent: its structural
 * schema validates enums, types and required fields, and prunes what the schema does not know, so a field the API
 * does not have shows up as a difference. A report with a result outside the API is refused (the check is live).
 */
@RealApiServer
class OpenReportsRealServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String VERSION = "v0.2.1";

    @BeforeAll
    static void installTheCrds() {
        PublishedCrds.install(KubeControlPlane.shared(), "openreports", VERSION, "openreports.io_reports.yaml",
                "openreports.io_clusterreports.yaml");
    }

    @Test
    void everyReportTheCliPrintsIsStoredAsSent() throws Exception {
        RenderCommandTest.Run run = RenderCommandTest.run("impact", "--resources", "examples/impact/cluster.yaml",
                "--output", "openreports", "--report-results", "fail,error,warn,pass", "--report-max-results", "2",
                "--report-name", "aps-real-server", "config/samples/");
        assertEquals(0, run.exit(), run.err());
        List<JsonNode> reports = new ArrayList<>();
        Yaml.parse("<stdout>", run.out()).forEach(d -> reports.add(d.content()));
        assertTrue(reports.size() >= 2, run.out());
        assertTrue(reports.stream().anyMatch(r -> r.path("metadata").has("annotations")),
                "a capped report (2 results at most) is among them: " + run.out());
        KubernetesClient admin = KubeControlPlane.shared().admin();
        // The plane is shared by the JVM's real-server tests: what this test creates goes again, so that a later
        // aps test --server run finds no namespace of ours (it refuses a fixture namespace with other content).
        List<HasMetadata> made = new ArrayList<>();
        try {
            for (JsonNode sent : reports) {
                String ns = sent.path("metadata").path("namespace").asText("");
                if (!ns.isEmpty() && admin.namespaces().withName(ns).get() == null) {
                    made.add(admin.resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build()).create());
                }
                GenericKubernetesResource created = admin.resource(JSON.treeToValue(sent, GenericKubernetesResource.class)).createOr(
                        existing -> existing.update());
                made.add(created);
                JsonNode stored = JSON.valueToTree(created);
                for (String field : List.of("source", "configuration", "summary", "results")) {
                    assertTrue(same(sent.path(field), stored.path(field)), kind(sent) + ": ." + field + " as stored differs:\nsent   "
                            + sent.path(field) + "\nstored " + stored.path(field));
                }
                assertEquals(sent.path("metadata").path("labels"), stored.path("metadata").path("labels"));
                assertEquals(sent.path("metadata").path("annotations"), stored.path("metadata").path("annotations"));
            }
        } finally {
            for (int i = made.size() - 1; i >= 0; i--) {
                admin.resource(made.get(i)).withGracePeriod(0).delete();
            }
        }
    }

    @Test
    void aResultOutsideTheApiIsRefused() throws Exception {
        ObjectNode bad = (ObjectNode) Yaml.parse("bad.yaml", """
                apiVersion: openreports.io/v1alpha1
                kind: ClusterReport
                metadata: {name: aps-bad-result}
                results:
                - {policy: p, rule: b, result: denied}
                """).get(0).content();
        KubernetesClient admin = KubeControlPlane.shared().admin();
        KubernetesClientException refused = assertThrows(KubernetesClientException.class,
                () -> admin.resource(JSON.treeToValue(bad, GenericKubernetesResource.class)).create());
        assertEquals(422, refused.getCode());
        assertTrue(refused.getMessage().contains("results[0].result"), refused.getMessage());
    }

    /** Equal, numbers by value (the YAML reader and the client's JSON may pick different number types). */
    private static boolean same(JsonNode a, JsonNode b) {
        return a.equals((x, y) -> x.isNumber() && y.isNumber()
                ? Double.compare(x.doubleValue(), y.doubleValue()) : (x.equals(y) ? 0 : 1), b);
    }

    private static String kind(JsonNode o) {
        return o.path("kind").asText() + " " + o.path("metadata").path("namespace").asText("") + "/"
                + o.path("metadata").path("name").asText();
    }


}

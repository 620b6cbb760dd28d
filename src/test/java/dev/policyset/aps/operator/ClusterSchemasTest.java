package dev.policyset.aps.operator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.cel.KubernetesCelChecker;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.ClusterView;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.model.LiveObject;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.schema.GroupVersionKind;
import dev.policyset.aps.core.schema.SchemaSource;
import dev.policyset.aps.core.validate.ValidationOptions;
import dev.policyset.aps.core.validate.ValidationSubject;
import dev.policyset.aps.core.validate.Validator;
import dev.policyset.aps.core.yaml.Yaml;
import io.fabric8.kubernetes.api.model.APIResourceBuilder;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The operator's schema source against the mock server serving a hand-written {@code /openapi/v3}. */
class ClusterSchemasTest {
    private KubernetesMockServer server;
    private KubernetesClient client;

    @BeforeEach
    void start() {
        server = new KubernetesMockServer(false);
        server.init();
        client = server.createClient();
    }

    @AfterEach
    void stop() {
        client.close();
        server.destroy();
    }

    private static String resource(String name) {
        try (InputStream in = ClusterSchemasTest.class.getResourceAsStream("/openapi/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private void serveWidgets(int times) {
        server.expect().get().withPath("/openapi/v3").andReturn(200, resource("index.json")).times(times);
        server.expect().get().withPath("/openapi/v3/apis/example.com/v1?hash=WIDGET1")
                .andReturn(200, resource("apis-example.com-v1.json")).once();
        server.expect().get().withPath("/apis/example.com/v1").andReturn(200, new APIResourceListBuilder()
                .withGroupVersion("example.com/v1")
                .addToResources(new APIResourceBuilder().withName("widgets").withKind("Widget").withNamespaced(true)
                        .withVerbs("get", "list").build())
                .build()).always();
    }

    @Test
    void readsTheGroupVersionDocumentOnFirstUseAndKeepsIt() {
        serveWidgets(1);
        ClusterSchemas schemas = new ClusterSchemas(client, Duration.ofMinutes(5));
        SchemaSource current = schemas.current();
        var widget = current.schema(new GroupVersionKind("example.com", "v1", "Widget")).orElseThrow();
        assertTrue(widget.property("spec").isRequired("size"));
        assertEquals("date-time", widget.property("spec").property("expires").format());
        assertTrue(widget.property("metadata").property("labels").isMap());
        assertEquals("Widget", current.resource("example.com", "v1", "widgets").orElseThrow().gvk().kind());
        // the document was fetched once (the expectation is "once"): asking again is answered from the cache
        assertTrue(current.schema(new GroupVersionKind("example.com", "v1", "Widget")).isPresent());
        assertSame(current, schemas.current(), "the index is not read again before the refresh interval");
        // what the cluster does not publish comes from the built-in model
        assertTrue(current.schema(new GroupVersionKind("apps", "v1", "Deployment")).isPresent());
        assertTrue(current.resource("apps", "v1", "deployments").isPresent());
    }

    @Test
    void aClusterWithoutOpenApiV3FallsBackToTheBuiltInModel() {
        ClusterSchemas schemas = new ClusterSchemas(client, Duration.ofMinutes(5));
        SchemaSource current = schemas.current();
        assertTrue(current.schema(new GroupVersionKind("example.com", "v1", "Widget")).isEmpty());
        assertTrue(current.schema(new GroupVersionKind("", "v1", "Pod")).isPresent());
    }

    @Test
    void aChangedIndexGivesANewSnapshot() throws InterruptedException {
        serveWidgets(1);
        server.expect().get().withPath("/openapi/v3").andReturn(200, resource("index.json")
                .replace("WIDGET1", "WIDGET2")).once();
        server.expect().get().withPath("/openapi/v3/apis/example.com/v1?hash=WIDGET2")
                .andReturn(200, resource("apis-example.com-v1.json").replace("\"owner\"", "\"team\"")).once();
        ClusterSchemas schemas = new ClusterSchemas(client, Duration.ofMillis(1));
        SchemaSource first = schemas.current();
        GroupVersionKind widget = new GroupVersionKind("example.com", "v1", "Widget");
        assertTrue(first.schema(widget).orElseThrow().property("spec").property("owner") != null);
        Thread.sleep(5);
        SchemaSource second = schemas.current();
        assertNotSame(first, second);
        assertTrue(second.schema(widget).orElseThrow().property("spec").property("team") != null);
    }

    @Test
    void theValidatorTypeChecksAgainstTheClustersSchemas() throws Exception {
        serveWidgets(1);
        SchemaSource current = new ClusterSchemas(client, Duration.ofMinutes(5)).current();
        String vap = """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: widget-size}
                spec:
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [widgets]}
                  validations:
                  - expression: object.spec.sise < 10
                """;
        var d = Yaml.parse("vap.yaml", vap).get(0);
        RenderedObject object = new RenderedObject(AdmissionKind.VALIDATING_ADMISSION_POLICY, d.apiVersion(), d.name(),
                (ObjectNode) d.content(), "");
        ClusterView view = new ClusterView() {
            @Override
            public KubeVersion kubeVersion() {
                return KubeVersion.NEWEST;
            }

            @Override
            public Optional<String> mutatingPolicyVersion() {
                return Optional.empty();
            }

            @Override
            public Optional<LiveObject> find(AdmissionKind kind, String name) {
                return Optional.empty();
            }

            @Override
            public List<LiveObject> labelled(String setName) {
                return List.of();
            }

            @Override
            public SchemaSource schemas() {
                return current;
            }
        };
        Collection<Finding> findings = new Validator(ValidationOptions.against(view), new KubernetesCelChecker())
                .validate(List.of(ValidationSubject.bare(object))).findings();
        List<Finding> aps602 = findings.stream().filter(f -> f.rule().equals("APS602")).toList();
        assertEquals(1, aps602.size(), findings.toString());
        assertTrue(aps602.get(0).message().startsWith("example.com/v1, Kind=Widget: ERROR: <input>:1:12: undefined field 'sise'"),
                aps602.get(0).message());
    }
}

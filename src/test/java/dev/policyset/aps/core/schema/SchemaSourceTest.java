package dev.policyset.aps.core.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SchemaSourceTest {
    private static final YAMLMapper YAML = new YAMLMapper();

    static JsonNode yaml(String text) {
        try {
            return YAML.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Test
    void builtInDeploymentFromTheFabric8Model() {
        BuiltinSchemas builtins = BuiltinSchemas.instance();
        Schema deployment = builtins.schema(new GroupVersionKind("apps", "v1", "Deployment")).orElseThrow();
        assertEquals("integer", deployment.property("spec").property("replicas").type());
        Schema labels = deployment.property("metadata").property("labels");
        assertTrue(labels.isMap());
        assertEquals("string", labels.additionalProperties().type());
        Schema containers = deployment.property("spec").property("template").property("spec").property("containers");
        assertTrue(containers.isArray());
        assertEquals("string", containers.items().property("image").type());
        assertTrue(containers.items().property("ports").items().property("targetPort") == null);
        assertTrue(deployment.isRequired("metadata"));
        assertTrue(deployment.isRequired("spec"), "a Go value type: always serialized");
        assertFalse(deployment.property("spec").isRequired("paused"));
        // IntOrString and Quantity
        Schema strategy = deployment.property("spec").property("strategy").property("rollingUpdate");
        assertTrue(strategy.property("maxSurge").intOrString());
        Schema limits = containers.items().property("resources").property("limits");
        assertEquals("string", limits.additionalProperties().type());
        assertSame(deployment, builtins.schema(new GroupVersionKind("apps", "v1", "Deployment")).orElseThrow());
    }

    @Test
    void builtInResourcesResolveRulesToKinds() {
        BuiltinSchemas builtins = BuiltinSchemas.instance();
        ResourceType pods = builtins.resource("", "v1", "pods").orElseThrow();
        assertEquals("Pod", pods.gvk().kind());
        assertTrue(pods.namespaced());
        assertFalse(builtins.resource("", "v1", "namespaces").orElseThrow().namespaced());
        assertEquals("Deployment", builtins.resource("apps", "v1", "deployments").orElseThrow().gvk().kind());
        assertTrue(builtins.resource("route.openshift.io", "v1", "routes").isEmpty(), "only the API server's own groups");
        assertTrue(builtins.resources().size() > 50, builtins.resources().size() + " kinds");
    }

    @Test
    void recursiveModelTypesEndInAny() {
        Schema crd = BuiltinSchemas.instance().schema(
                new GroupVersionKind("apiextensions.k8s.io", "v1", "CustomResourceDefinition")).orElseThrow();
        Schema props = crd.property("spec").property("versions").items().property("schema").property("openAPIV3Schema");
        assertEquals("object", props.type());
        assertEquals(Schema.ANY, props.property("not"), "JSONSchemaProps inside itself is not described again");
    }

    @Test
    void everyServedVersionOfACrd() {
        JsonNode crd = yaml("""
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: widgets.example.com}
                spec:
                  group: example.com
                  scope: Cluster
                  names: {kind: Widget, plural: widgets}
                  versions:
                  - name: v1
                    served: true
                    storage: true
                    schema:
                      openAPIV3Schema:
                        type: object
                        properties:
                          spec:
                            type: object
                            required: [size]
                            properties:
                              size: {type: integer}
                              mode: {type: string, default: fast}
                              ports:
                                type: array
                                x-kubernetes-list-type: map
                                x-kubernetes-list-map-keys: [name]
                                items: {type: object, properties: {name: {type: string}}}
                              extra: {type: object, x-kubernetes-preserve-unknown-fields: true}
                  - name: v1beta1
                    served: true
                    storage: false
                    schema:
                      openAPIV3Schema:
                        type: object
                        properties:
                          spec: {type: object, properties: {sizeInGb: {type: integer}}}
                  - name: v1alpha1
                    served: false
                    storage: false
                    schema: {openAPIV3Schema: {type: object}}
                """);
        CrdSchemas crds = CrdSchemas.of(List.of(crd, yaml("kind: ConfigMap\napiVersion: v1")));
        Schema v1 = crds.schema(new GroupVersionKind("example.com", "v1", "Widget")).orElseThrow();
        Schema spec = v1.property("spec");
        assertTrue(spec.isRequired("size"));
        assertTrue(spec.property("mode").hasDefault());
        assertEquals("map", spec.property("ports").listType());
        assertEquals(List.of("name"), spec.property("ports").listMapKeys());
        assertTrue(spec.property("extra").preserveUnknownFields());
        assertTrue(v1.property("metadata").property("labels").isMap(), "the full ObjectMeta, as the API server publishes it");
        assertEquals("integer", crds.schema(new GroupVersionKind("example.com", "v1beta1", "Widget")).orElseThrow()
                .property("spec").property("sizeInGb").type());
        assertTrue(crds.schema(new GroupVersionKind("example.com", "v1alpha1", "Widget")).isEmpty(), "not served");
        ResourceType widgets = crds.resource("example.com", "v1beta1", "widgets").orElseThrow();
        assertFalse(widgets.namespaced());
        assertEquals(2, crds.resources().size());
    }

    @Test
    void clusterOpenApiDocumentsWithReferences() {
        JsonNode document = yaml("""
                openapi: 3.0.0
                components:
                  schemas:
                    io.k8s.api.apps.v1.Deployment:
                      type: object
                      x-kubernetes-group-version-kind: [{group: apps, version: v1, kind: Deployment}]
                      properties:
                        metadata:
                          default: {}
                          allOf: [{$ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'}]
                        spec: {allOf: [{$ref: '#/components/schemas/io.k8s.api.apps.v1.DeploymentSpec'}]}
                    io.k8s.api.apps.v1.DeploymentSpec:
                      type: object
                      required: [selector, template]
                      properties:
                        replicas: {type: integer, format: int32}
                        selector: {type: object}
                        template: {type: object}
                    io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta:
                      type: object
                      properties:
                        labels: {type: object, additionalProperties: {type: string, default: ""}}
                        creationTimestamp: {$ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time'}
                    io.k8s.apimachinery.pkg.apis.meta.v1.Time: {type: string, format: date-time}
                    io.k8s.api.apps.v1.DeploymentList:
                      type: object
                      x-kubernetes-group-version-kind: [{group: apps, version: v1, kind: DeploymentList}]
                """);
        OpenApiDocuments docs = OpenApiDocuments.of(List.of(document),
                List.of(new ResourceType(new GroupVersionKind("apps", "v1", "Deployment"), "deployments", true)));
        assertEquals(1, docs.size());
        Schema d = docs.schema(new GroupVersionKind("apps", "v1", "Deployment")).orElseThrow();
        assertTrue(d.property("spec").isRequired("template"));
        assertTrue(d.property("metadata").hasDefault());
        assertEquals("date-time", d.property("metadata").property("creationTimestamp").format());
        assertEquals("Deployment", docs.resource("apps", "v1", "deployments").orElseThrow().gvk().kind());
    }

    @Test
    void firstSourceWins() {
        JsonNode crd = yaml("""
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                spec:
                  group: apps
                  names: {kind: Deployment, plural: deployments}
                  versions: [{name: v1, served: true, schema: {openAPIV3Schema: {type: object, properties: {x: {type: string}}}}}]
                """);
        SchemaSource both = SchemaSource.first(CrdSchemas.of(List.of(crd)), BuiltinSchemas.instance());
        assertTrue(both.schema(new GroupVersionKind("apps", "v1", "Deployment")).orElseThrow().property("x") != null);
        assertTrue(both.resource("", "v1", "pods").isPresent());
    }

    @Test
    void gvkPrintsAsTheApiServerDoes() {
        assertEquals("apps/v1, Kind=Deployment", GroupVersionKind.of("apps/v1", "Deployment").toString());
        assertEquals("/v1, Kind=Pod", GroupVersionKind.of("v1", "Pod").toString());
    }
}

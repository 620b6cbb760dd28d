package dev.policyset.aps.core.importer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What a kyverno-test values spec gives a converted case, as Kyverno's CLI reads it ({@code variables/variables.go}). */
class KyvernoValuesTest {
    private static KyvernoValues values(String yaml) throws Exception {
        JsonNode spec = new ObjectMapper(new YAMLFactory()).readTree(yaml);
        return KyvernoValues.of(spec);
    }

    @Test
    void aResourcesOwnOperationWinsOverTheGlobalOneForThatResourceOnly() throws Exception {
        KyvernoValues v = values("""
                globalValues: {request.operation: DELETE}
                policies:
                  - name: p
                    resources:
                      - name: bad
                        values: {request.operation: UPDATE}
                """);
        assertEquals(Optional.of("UPDATE"), v.operation("p", "bad"));
        assertEquals(Optional.of("DELETE"), v.operation("p", "good"));
        assertEquals(Optional.of("DELETE"), v.operation("other", "bad"));
        // the operation is a request's, not a context variable
        assertEquals(List.of(), v.contextValues("p", "bad"));
        assertEquals(Optional.empty(), KyvernoValues.none().operation("p", "bad"));
    }

    @Test
    void otherValuesAreContextVariablesNamedByWhereTheyAre() throws Exception {
        KyvernoValues v = values("""
                globalValues: {request.operation: UPDATE, env: prod}
                policies:
                  - name: p
                    resources:
                      - name: bad
                        values: {request.operation: UPDATE, request.object.spec.replicas: 3}
                    rules:
                      - name: r
                        values: {limit: 2}
                """);
        assertEquals(List.of("globalValues.env", "policies[p].resources[bad].values.request.object.spec.replicas",
                "policies[p].rules[r]"), v.contextValues("p", "bad"));
        assertEquals(List.of("globalValues.env"), v.contextValues("q", "bad"));
    }

    @Test
    void namespacesWinOverSelectorsOfTheSameNameAndSubresourcesMapAKind() throws Exception {
        KyvernoValues v = values("""
                namespaceSelector:
                  - {name: shop, labels: {env: dev}}
                  - {name: bar, labels: {env: prod}}
                namespaces:
                  - metadata: {name: shop, labels: {env: production}}
                subresources:
                  - parentResource: {name: deployments, group: apps, version: v1, kind: Deployment}
                    subresource: {name: deployments/scale, group: autoscaling, version: v1, kind: Scale}
                """);
        List<JsonNode> ns = v.namespaces();
        assertEquals(2, ns.size());
        assertEquals("production", ns.get(0).path("metadata").path("labels").path("env").asText());
        assertEquals("Namespace", ns.get(0).path("kind").asText());
        assertEquals("prod", ns.get(1).path("labels").path("env").asText());
        assertEquals(Optional.of(new KyvernoValues.Subresource("apps/v1/deployments", "scale")),
                v.subresourceOf("autoscaling/v1", "Scale"));
        assertEquals(Optional.empty(), v.subresourceOf("v1", "Scale"));
        assertEquals(Optional.empty(), v.subresourceOf("autoscaling/v1", "Deployment"));
    }
}

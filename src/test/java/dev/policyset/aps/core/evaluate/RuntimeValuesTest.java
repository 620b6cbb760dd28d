package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.cel.CelChecker;
import dev.policyset.aps.core.cel.CelEvaluator;
import dev.policyset.aps.core.cel.ExpressionKind;
import dev.policyset.aps.core.cel.RuntimeMap;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.yaml.Yaml;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Objects converted once, straight from JSON, into read-only runtime maps ({@link RuntimeMap}) evaluate exactly as
 * the Jackson-then-{@code toCel} conversion they replace, and are shared, not copied, by what reads them.
 */
class RuntimeValuesTest {
    private static final String OBJECT = """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: web, namespace: shop, labels: {team: a, tier: web}, annotations: {note: null}}
            spec:
              replicas: 3
              big: 18446744073709551615
              ratio: 0.5
              paused: false
              template: {spec: {containers: [{name: main, image: registry.example.com/web:1}, {name: proxy, image: proxy:2}]}}
            """;

    private static ObjectNode object() throws Exception {
        return (ObjectNode) Yaml.parse("t", OBJECT).get(0).content();
    }

    @Test
    void theDirectConversionEqualsJacksonThenToCel() throws Exception {
        ObjectNode o = object();
        Object direct = Activations.cel(o);
        Object viaJackson = CelEvaluator.toCel(Activations.plain(o));
        assertEquals(viaJackson, direct);
        assertInstanceOf(RuntimeMap.class, direct);
        Map<?, ?> spec = (Map<?, ?>) ((Map<?, ?>) direct).get("spec");
        assertEquals(3L, spec.get("replicas"), "integers are Long");
        assertEquals(0.5, spec.get("ratio"));
        assertInstanceOf(Double.class, spec.get("big"), "past 64 bits a double, as toCel makes it");
        assertEquals(dev.cel.common.values.NullValue.NULL_VALUE,
                ((Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) direct).get("metadata")).get("annotations")).get("note"));
    }

    @Test
    void expressionsOverRuntimeMapsAnswerAsOverPlainMaps() throws Exception {
        ObjectNode o = object();
        Map<String, Object> request = Map.of("operation", "UPDATE");
        Object converted = Activations.cel(o);
        Object plain = Activations.plain(o); // what the activation held before: toCel'd per evaluation
        for (String e : List.of(
                "object.metadata.labels == {'team': 'a', 'tier': 'web'}",
                "'team' in object.metadata.labels && !('owner' in object.metadata.labels)",
                "has(object.spec.replicas) && !has(object.spec.minReadySeconds)",
                "type(object.metadata) == map && size(object.spec.template.spec.containers) == 2",
                "object.spec.template.spec.containers.all(c, c.image.contains(':'))",
                "object.spec.template.spec.containers.map(c, c.name) == ['main', 'proxy']",
                "object.spec.template.spec.containers + [] == object.spec.template.spec.containers",
                "object.metadata.?labels.?owner.orValue('none') == 'none'",
                "object.metadata.annotations.note == null",
                "object.spec.missing == 1")) {
            CelEvaluator.Result a = PolicyExpressions.evaluate(CelChecker.PolicyType.VALIDATING, new KubeVersion(1, 35),
                    ExpressionKind.VALIDATION, e, new CelEvaluator.Activation(converted, converted, null, request, null, null, null));
            CelEvaluator.Result b = PolicyExpressions.evaluate(CelChecker.PolicyType.VALIDATING, new KubeVersion(1, 35),
                    ExpressionKind.VALIDATION, e, new CelEvaluator.Activation(plain, plain, null, request, null, null, null));
            assertEquals(b.value(), a.value(), e);
            assertEquals(b.error(), a.error(), e);
            assertEquals(b.cost(), a.cost(), e);
        }
    }

    @Test
    void aMissingFieldIsStillNoSuchKey() throws Exception {
        Object converted = Activations.cel(object());
        CelEvaluator.Result r = PolicyExpressions.evaluate(CelChecker.PolicyType.VALIDATING, new KubeVersion(1, 35),
                ExpressionKind.VALIDATION, "object.spec.missing == 1",
                new CelEvaluator.Activation(converted, converted, null, Map.of(), null, null, null));
        assertEquals("no such key: missing", r.error());
    }

    @Test
    void aResultMapIsTheCallersOwnAndAVariableKeepsTheRuntimeValue() throws Exception {
        Object converted = Activations.cel(object());
        Map<String, String> vars = new LinkedHashMap<>();
        vars.put("containers", "object.spec.template.spec.containers");
        PolicyExpressions p = new PolicyExpressions(CelChecker.PolicyType.VALIDATING, false, new KubeVersion(1, 36), vars);
        PolicyExpressions.Run run = p.context(new CelEvaluator.Activation(converted, converted, null, Map.of(), null, null,
                null)).run();
        CelEvaluator.Result labels = run.evaluate(ExpressionKind.VARIABLE, "object.metadata.labels");
        Map<?, ?> own = (Map<?, ?>) labels.value();
        assertEquals(Map.of("team", "a", "tier", "web"), own);
        assertTrue(!(own instanceof RuntimeMap), "a caller gets a map of its own, as before");
        CelEvaluator.Result containers = run.evaluate(ExpressionKind.VALIDATION, "variables.containers.size() == 2");
        assertEquals(true, containers.value());
        CelEvaluator.Result list = run.evaluate(ExpressionKind.VARIABLE, "object.spec.template.spec.containers");
        List<?> runtime = (List<?>) list.celValue();
        assertInstanceOf(RuntimeMap.class, runtime.get(0), "the variable's elements are the object's maps, not copies");
        assertNotSame(list.value(), list.celValue());
    }

    @Test
    void oneObjectIsConvertedOnceForEveryBindingThatReadsIt() throws Exception {
        ObjectNode o = object();
        RequestValues values = new RequestValues();
        assertSame(values.of(o), values.of(o));
        JsonNode other = o.deepCopy();
        assertNotSame(values.of(o), values.of(other), "by identity: another tree is converted on its own");
        assertEquals(values.of(o), values.of(other));
    }
}

package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cel.common.values.NullValue;
import dev.policyset.aps.core.cel.CelEvaluator;
import dev.policyset.aps.core.cel.RuntimeMap;
import dev.policyset.aps.core.yaml.Yaml;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The CEL variables of one policy invocation ({@code cel.OptionalVariableBindings} and the request). */
final class Activations {
    private Activations() {}

    static CelEvaluator.Activation of(AdmissionRequest r, JsonNode param, JsonNode namespaceObject, Fixtures fixtures) {
        Object object = cel(r.object());
        // an UPDATE that leaves the object as it is (the impact scan's) converts it once
        Object oldObject = r.oldObject() == r.object() ? object : cel(r.oldObject());
        return new CelEvaluator.Activation(object, oldObject, cel(param), request(r),
                cel(namespaceObject), fixtures.authorizer(), null);
    }

    /** As {@link #of(AdmissionRequest, JsonNode, JsonNode, Fixtures)}, with what {@code values} converted already. */
    static CelEvaluator.Activation of(AdmissionRequest r, JsonNode param, RequestValues values, Fixtures fixtures) {
        Object object = values.of(r.object());
        Object oldObject = values.of(r.oldObject());
        return new CelEvaluator.Activation(object, oldObject, values.of(param), values.request(r),
                values.namespaceObject(r, fixtures), fixtures.authorizer(), null);
    }

    /** {@code request} as runtime values. */
    @SuppressWarnings("unchecked") // toCel of a Map<String, Object> keeps its String keys
    static Map<String, Object> request(AdmissionRequest r) {
        return (Map<String, Object>) (Map<?, ?>) CelEvaluator.toCel(r.toCel());
    }

    /**
     * A JSON tree as cel-java's runtime values ({@link CelEvaluator#toCel} of what Jackson would convert it to,
     * without the intermediate maps): objects as {@link RuntimeMap}s, integers as Long (Double past 64 bits),
     * decimals as Double, null as NullValue; null for an absent node.
     */
    static Object cel(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return null;
        }
        if (node.isNull()) {
            return NullValue.NULL_VALUE;
        }
        if (node.isObject()) {
            Map<Object, Object> entries = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                entries.put(e.getKey(), cel(e.getValue()));
            }
            return RuntimeMap.ofJson(entries);
        }
        if (node.isArray()) {
            List<Object> items = new ArrayList<>(node.size());
            node.forEach(n -> items.add(cel(n)));
            return items;
        }
        if (node.isTextual()) {
            return node.textValue();
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isIntegralNumber() && node.canConvertToLong()) {
            return node.longValue();
        }
        // big integers, decimals, binary, POJOs: as Jackson and toCel convert them
        return CelEvaluator.toCel(plain(node));
    }

    static Object plain(JsonNode node) {
        return node == null || node.isNull() || node.isMissingNode() ? null : Yaml.mapper().convertValue(node, Object.class);
    }

    /** {@code dispatcher.go}: the namespace object, except for cluster-scoped requests and Namespace objects. */
    static JsonNode namespaceObject(AdmissionRequest r, Fixtures fixtures) {
        if (r.namespace().isEmpty() || r.isNamespace()) {
            return null;
        }
        return fixtures.namespace(r.namespace());
    }

    static String describe(JsonNode param) {
        if (param == null) {
            return "";
        }
        String ns = param.path("metadata").path("namespace").asText("");
        return " param " + (ns.isEmpty() ? "" : ns + "/") + param.path("metadata").path("name").asText("");
    }
}

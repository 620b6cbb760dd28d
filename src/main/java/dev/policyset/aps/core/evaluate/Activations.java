package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.cel.CelEvaluator;
import dev.policyset.aps.core.yaml.Yaml;

/** The CEL variables of one policy invocation ({@code cel.OptionalVariableBindings} and the request). */
final class Activations {
    private Activations() {}

    static CelEvaluator.Activation of(AdmissionRequest r, JsonNode param, JsonNode namespaceObject, Fixtures fixtures) {
        Object object = plain(r.object());
        // an UPDATE that leaves the object as it is (the impact scan's) converts it once
        Object oldObject = r.oldObject() == r.object() ? object : plain(r.oldObject());
        return new CelEvaluator.Activation(object, oldObject, plain(param), r.toCel(),
                plain(namespaceObject), fixtures.authorizer(), null);
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

package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The CEL values of one object's requests (and the interception model's view of each), converted once and shared
 * by every policy, binding and param that evaluates them: converting a JSON tree costs about as much as evaluating a simple rule over it, so converting it
 * per binding (as each activation used to) multiplied the cost of an impact scan by its bindings. The values are
 * read-only ({@link dev.policyset.aps.core.cel.RuntimeMap}), so sharing them is safe. Not thread-safe: one per
 * object (impact scan) or request ({@code aps test}).
 */
final class RequestValues {
    private final Map<JsonNode, Object> trees = new IdentityHashMap<>();
    private final Map<AdmissionRequest, Map<String, Object>> requests = new IdentityHashMap<>();
    private final Map<String, Object> namespaces = new HashMap<>();
    private final Map<AdmissionRequest, dev.policyset.aps.core.intercept.AdmissionRequest> views = new IdentityHashMap<>();

    /** The tree's values (by identity: the same node is converted once); null for an absent node. */
    Object of(JsonNode node) {
        if (node == null) {
            return null;
        }
        Object known = trees.get(node);
        if (known == null) {
            known = Activations.cel(node);
            trees.put(node, known);
        }
        return known;
    }

    /** {@code request}: the AdmissionRequest fields. */
    Map<String, Object> request(AdmissionRequest r) {
        return requests.computeIfAbsent(r, Activations::request);
    }

    /** {@code namespaceObject} of the request (by namespace name: the fixtures give the same one each time). */
    Object namespaceObject(AdmissionRequest r, Fixtures fixtures) {
        if (r.namespace().isEmpty() || r.isNamespace()) {
            return null;
        }
        return namespaces.computeIfAbsent(r.namespace(), n -> Activations.cel(Activations.namespaceObject(r, fixtures)));
    }

    /** The interception model's view of the request (namespace labels from the fixtures). */
    dev.policyset.aps.core.intercept.AdmissionRequest view(AdmissionRequest r, Fixtures fixtures) {
        return views.computeIfAbsent(r, x -> Interception.request(x, fixtures));
    }
}

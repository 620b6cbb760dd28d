package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The params a binding evaluates its policy with: {@code k8s.io/apiserver/pkg/admission/plugin/policy/generic/
 * policy_dispatcher.go: CollectParams}, over the fixtures instead of an informer.
 */
final class ParamResolver {
    /** The params, or a configuration error ({@code failed to configure binding: ...} upstream). */
    record Params(List<ObjectNode> params, String error) {
        static Params of(List<ObjectNode> params) {
            return new Params(params, null);
        }
    }

    private ParamResolver() {}

    /**
     * @param paramKind the policy's {@code spec.paramKind} (missing: no params)
     * @param paramRef  the binding's {@code spec.paramRef} (missing: evaluated with a null param)
     * @param namespace the request's namespace
     */
    static Params collect(JsonNode paramKind, JsonNode paramRef, String namespace, Fixtures fixtures) {
        if (paramKind == null || paramKind.isMissingNode() || paramKind.isNull()) {
            return Params.of(Collections.singletonList(null));
        }
        if (paramRef == null || paramRef.isMissingNode() || paramRef.isNull()) {
            return Params.of(Collections.singletonList(null));
        }
        String apiVersion = paramKind.path("apiVersion").asText("");
        String kind = paramKind.path("kind").asText("");
        boolean clusterScoped = KindResources.isClusterScoped(apiVersion, kind, fixtures.paramsOf(apiVersion, kind, null));
        String refNamespace = paramRef.path("namespace").asText("");
        String paramsNamespace = null;
        if (!clusterScoped) {
            paramsNamespace = !refNamespace.isEmpty() ? refNamespace : namespace;
            if (paramsNamespace.isEmpty()) {
                return new Params(null, "cannot use namespaced paramRef in policy binding that matches cluster-scoped resources");
            }
        } else if (!refNamespace.isEmpty()) {
            return new Params(null, "paramRef.namespace must not be provided for a cluster-scoped `paramKind`");
        }
        List<ObjectNode> params;
        String name = paramRef.path("name").asText("");
        JsonNode selector = paramRef.get("selector");
        if (!name.isEmpty()) {
            if (selector != null && !selector.isNull()) {
                return new Params(null, "paramRef.name and paramRef.selector are mutually exclusive");
            }
            params = new ArrayList<>();
            fixtures.paramsOf(apiVersion, kind, paramsNamespace).stream()
                    .filter(p -> p.path("metadata").path("name").asText("").equals(name)).findFirst()
                    .ifPresent(params::add);
        } else if (selector != null && !selector.isNull()) {
            params = new ArrayList<>();
            for (ObjectNode p : fixtures.paramsOf(apiVersion, kind, paramsNamespace)) {
                if (Interception.labelsMatch(selector, labels(p))) {
                    params.add(p);
                }
            }
        } else {
            return new Params(null, "one of name or selector must be provided");
        }
        if (params.isEmpty() && "Deny".equals(paramRef.path("parameterNotFoundAction").asText(""))) {
            return new Params(null, "no params found for policy binding with `Deny` parameterNotFoundAction");
        }
        return Params.of(params);
    }

    static java.util.Map<String, String> labels(JsonNode object) {
        java.util.Map<String, String> labels = new java.util.LinkedHashMap<>();
        if (object != null) {
            object.path("metadata").path("labels").fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
        }
        return labels;
    }
}

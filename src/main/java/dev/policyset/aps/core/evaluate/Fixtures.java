package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.cel.lib.CelAuthorizer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the cluster would hold, for one test file: namespaces (with their labels), param objects, and the
 * authorizer's answers. Params are indexed by kind and namespace: an impact scan asks for them once per object and
 * binding, and a cluster's ConfigMaps (a common paramKind) number in the thousands.
 */
public final class Fixtures {
    /** The label the API server puts on every namespace ({@code kubernetes.io/metadata.name}), immutable. */
    public static final String NAME_LABEL = "kubernetes.io/metadata.name";

    private final Map<String, ObjectNode> namespaces;
    private final List<ObjectNode> params;
    private final CelAuthorizer authorizer;
    /** Not a namespace name: the key of every param of a kind, in order. */
    private static final String ANY_NAMESPACE = "*";
    /** apiVersion, kind → namespace → params, in their order; built on first use. */
    private volatile Map<String, Map<String, List<ObjectNode>>> paramIndex;

    /**
     * @param namespaces by name
     * @param params     objects that paramRefs can select (any kind; matched on apiVersion/kind, namespace, name, labels)
     */
    public Fixtures(Map<String, ObjectNode> namespaces, List<ObjectNode> params, CelAuthorizer authorizer) {
        this.namespaces = Map.copyOf(namespaces);
        this.params = List.copyOf(params);
        this.authorizer = authorizer == null ? StubAuthorizer.DENY_ALL : authorizer;
    }

    public Map<String, ObjectNode> namespaces() {
        return namespaces;
    }

    public List<ObjectNode> params() {
        return params;
    }

    public CelAuthorizer authorizer() {
        return authorizer;
    }

    public static Fixtures none() {
        return new Fixtures(Map.of(), List.of(), null);
    }

    /**
     * The namespace object of a request. A namespace the fixtures do not list is taken as existing with only
     * the label the API server always sets: a test that cares about labels declares the namespace.
     */
    public ObjectNode namespace(String name) {
        ObjectNode declared = namespaces.get(name);
        ObjectNode ns = declared != null ? declared.deepCopy() : bare(name);
        ObjectNode meta = ns.with("metadata");
        meta.put("name", name);
        meta.with("labels").put(NAME_LABEL, name);
        return ns;
    }

    /** Whether the fixtures list this namespace. */
    public boolean declares(String namespace) {
        return namespaces.containsKey(namespace);
    }

    private static ObjectNode bare(String name) {
        ObjectNode ns = JsonNodeFactory.instance.objectNode();
        ns.put("apiVersion", "v1");
        ns.put("kind", "Namespace");
        ns.putObject("metadata").put("name", name);
        return ns;
    }

    /** The labels of a namespace (with the name label), for namespaceSelectors. */
    public Map<String, String> namespaceLabels(String name) {
        Map<String, String> labels = new LinkedHashMap<>();
        namespace(name).path("metadata").path("labels").fields()
                .forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
        return labels;
    }

    Optional<ObjectNode> param(String apiVersion, String kind, String namespace, String name) {
        return paramsOf(apiVersion, kind, namespace).stream()
                .filter(p -> p.path("metadata").path("name").asText("").equals(name)).findFirst();
    }

    /** The param objects of one kind in one namespace ({@code null}: any namespace, for cluster-scoped kinds). */
    List<ObjectNode> paramsOf(String apiVersion, String kind, String namespace) {
        Map<String, List<ObjectNode>> byNamespace = index().getOrDefault(apiVersion + " " + kind, Map.of());
        return byNamespace.getOrDefault(namespace == null ? ANY_NAMESPACE : namespace, List.of());
    }

    private Map<String, Map<String, List<ObjectNode>>> index() {
        Map<String, Map<String, List<ObjectNode>>> index = paramIndex;
        if (index == null) {
            index = new HashMap<>();
            for (ObjectNode p : params) {
                Map<String, List<ObjectNode>> byNamespace = index.computeIfAbsent(
                        p.path("apiVersion").asText("") + " " + p.path("kind").asText(""), k -> new HashMap<>());
                byNamespace.computeIfAbsent(ANY_NAMESPACE, k -> new ArrayList<>()).add(p);
                byNamespace.computeIfAbsent(p.path("metadata").path("namespace").asText(""), k -> new ArrayList<>()).add(p);
            }
            paramIndex = index;
        }
        return index;
    }
}

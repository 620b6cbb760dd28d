package dev.policyset.aps.core.importer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.evaluate.KindResources;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.policyset.aps.core.importer.SetDocuments.JSON;

/**
 * A kyverno-test.yaml's values ({@code cli.kyverno.io/v1alpha1} ValuesSpec: the Test's inline {@code values}, else its
 * {@code variables} file, as {@code cmd/cli/kubectl-kyverno/variables/new.go} reads them), as far as a PolicyTest can
 * say them: {@code namespaceSelector} and {@code namespaces} are namespace fixtures (a Namespace object wins over a
 * selector of the same name, as in {@code variables.go: Namespace}); {@code globalValues["request.operation"]} is
 * the cases' operation; {@code subresources} map a kind to its parent's subresource. Every other value is a
 * variable of the JMESPath context Kyverno builds for a ClusterPolicy rule ({@code ComputeVariables}), which a
 * PolicyTest has no place for; Kyverno's CEL engines (ValidatingPolicy, MutatingPolicy) do not read them.
 */
final class KyvernoValues {
    static final String OPERATION = "request.operation";

    private final JsonNode spec;

    private KyvernoValues(JsonNode spec) {
        this.spec = spec;
    }

    static KyvernoValues none() {
        return new KyvernoValues(JSON.objectNode());
    }

    static KyvernoValues of(JsonNode spec) {
        return new KyvernoValues(spec == null || !spec.isObject() ? JSON.objectNode() : spec);
    }

    /** The namespaces the values declare, as namespace fixtures ({@code {name, labels}} or the Namespace object). */
    List<JsonNode> namespaces() {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        for (JsonNode s : spec.path("namespaceSelector")) {
            ObjectNode n = JSON.objectNode().put("name", s.path("name").asText(""));
            if (s.path("labels").isObject()) {
                n.set("labels", s.get("labels").deepCopy());
            }
            out.put(s.path("name").asText(""), n);
        }
        for (JsonNode n : spec.path("namespaces")) {
            ObjectNode copy = n.deepCopy();
            copy.put("apiVersion", "v1").put("kind", "Namespace");
            out.put(n.path("metadata").path("name").asText(""), copy);
        }
        out.remove("");
        return new ArrayList<>(out.values());
    }

    /** {@code globalValues["request.operation"]}, when given: the operation Kyverno's CEL engines simulate. */
    Optional<String> operation() {
        return text(spec.path("globalValues").path(OPERATION));
    }

    /**
     * The operation of a ClusterPolicy rule's request for this resource: the policy's {@code request.operation} for
     * the resource, else the global one ({@code ComputeVariables} lays the first over the second, and
     * {@code makePolicyContext} makes the request's operation from the result).
     */
    Optional<String> operation(String policy, String resource) {
        for (JsonNode r : resourceValues(policy, resource)) {
            Optional<String> op = text(r.path(OPERATION));
            if (op.isPresent()) {
                return op;
            }
        }
        return operation();
    }

    private static Optional<String> text(JsonNode n) {
        return n.isTextual() && !n.asText().isEmpty() ? Optional.of(n.asText()) : Optional.empty();
    }

    private List<JsonNode> resourceValues(String policy, String resource) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode p : spec.path("policies")) {
            if (policy.equals(p.path("name").asText())) {
                p.path("resources").forEach(r -> {
                    if (resource.equals(r.path("name").asText()) && r.path("values").isObject()) {
                        out.add(r.get("values"));
                    }
                });
            }
        }
        return out;
    }

    /**
     * The request's {@code group/version/resource} and subresource for an object of this apiVersion and kind, when a
     * {@code subresources} entry names its kind (and group and version, empty meaning the core group and any version).
     */
    Optional<Subresource> subresourceOf(String apiVersion, String kind) {
        String group = KindResources.groupOf(apiVersion);
        String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
        for (JsonNode s : spec.path("subresources")) {
            JsonNode sub = s.path("subresource");
            JsonNode parent = s.path("parentResource");
            String name = sub.path("name").asText("");
            if (!kind.equals(sub.path("kind").asText()) || !group.equals(sub.path("group").asText(""))
                    || !sub.path("version").asText(version).equals(version) || !name.contains("/")) {
                continue;
            }
            String parentGroup = parent.path("group").asText("");
            String resource = (parentGroup.isEmpty() ? "" : parentGroup + "/") + parent.path("version").asText(version) + "/"
                    + name.substring(0, name.indexOf('/'));
            return Optional.of(new Subresource(resource, name.substring(name.indexOf('/') + 1)));
        }
        return Optional.empty();
    }

    record Subresource(String resource, String subResource) {}

    /**
     * The values Kyverno puts in a ClusterPolicy rule's JMESPath context for this policy and resource: global values
     * and the policy's values for the resource other than the operation, and its rules' values, each by where it is.
     */
    List<String> contextValues(String policy, String resource) {
        List<String> out = new ArrayList<>();
        spec.path("globalValues").fieldNames().forEachRemaining(k -> {
            if (!k.equals(OPERATION)) {
                out.add("globalValues." + k);
            }
        });
        for (JsonNode v : resourceValues(policy, resource)) {
            v.fieldNames().forEachRemaining(k -> {
                if (!k.equals(OPERATION)) {
                    out.add("policies[" + policy + "].resources[" + resource + "].values." + k);
                }
            });
        }
        for (JsonNode p : spec.path("policies")) {
            if (!policy.equals(p.path("name").asText())) {
                continue;
            }
            for (JsonNode r : p.path("rules")) {
                if (!r.path("values").isEmpty() || !r.path("foreachValues").isEmpty()) {
                    out.add("policies[" + policy + "].rules[" + r.path("name").asText("") + "]");
                }
            }
        }
        return out;
    }
}

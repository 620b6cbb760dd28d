package dev.policyset.aps.install;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The JSON Schema (draft 2020-12) of an AdmissionPolicySet document, for editors (yaml-language-server, IntelliJ),
 * derived from the CRD's structural OpenAPI schema in crds/. It adds what the API server knows but the CRD
 * schema leaves implicit: {@code apiVersion} and {@code kind} constants, {@code metadata} (the API server's
 * ObjectMeta, cluster-scoped: a name, no namespace), and {@code additionalProperties: false} on every object with
 * declared properties, because the API server prunes unknown fields of a structural schema (and refuses them
 * with {@code --validate=strict}): an editor should underline a misspelt field the cluster would silently drop.
 * {@code x-kubernetes-validations} (CEL rules) have no JSON Schema counterpart and are left out; the operator and
 * {@code aps validate} check them. {@code nullable} becomes a "null" alternative of the type.
 */
final class EditorSchema {
    static final String FILE = "schemas/admissionpolicyset.json";
    static final String ID = "https://github.com/policyset/admission-policy-operator/raw/main/" + FILE;

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private EditorSchema() {}

    /** The schema file's text (stable: a change in crds/ changes it, nothing else does). */
    static String fromCrd(JsonNode crd) {
        JsonNode version = crd.path("spec").path("versions").get(0);
        String group = crd.path("spec").path("group").asText();
        String kind = crd.path("spec").path("names").path("kind").asText();
        ObjectNode root = F.objectNode();
        root.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        root.put("$id", ID);
        root.put("title", kind);
        root.put("description", "An " + kind + " (" + group + "/" + version.path("name").asText()
                + "). Generated from crds/ by `make manifests`; do not edit.");
        root.put("type", "object");
        ArrayNode required = root.putArray("required");
        required.add("apiVersion").add("kind").add("metadata");
        ObjectNode properties = root.putObject("properties");
        properties.putObject("apiVersion").put("const", group + "/" + version.path("name").asText());
        properties.putObject("kind").put("const", kind);
        properties.set("metadata", metadata());
        JsonNode crdProperties = version.path("schema").path("openAPIV3Schema").path("properties");
        for (Map.Entry<String, JsonNode> p : crdProperties.properties()) {
            properties.set(p.getKey(), convert(p.getValue()));
        }
        root.put("additionalProperties", false);
        try {
            return ProjectFiles.JSON.writeValueAsString(root) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** ObjectMeta as a user writes it for a cluster-scoped object (k8s.io/apimachinery/pkg/apis/meta/v1 ObjectMeta). */
    private static ObjectNode metadata() {
        ObjectNode meta = F.objectNode();
        meta.put("type", "object");
        meta.putArray("required").add("name");
        ObjectNode p = meta.putObject("properties");
        p.putObject("name").put("type", "string").put("maxLength", 253)
                .put("pattern", "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
                .put("description", "The set's name (a DNS subdomain); cluster-scoped, so no namespace.");
        p.putObject("labels").put("type", "object").putObject("additionalProperties").put("type", "string");
        p.putObject("annotations").put("type", "object").putObject("additionalProperties").put("type", "string");
        // Everything else the API server fills in or a tool adds (uid, resourceVersion, finalizers, ...).
        return meta;
    }

    private static JsonNode convert(JsonNode openApi) {
        ObjectNode out = F.objectNode();
        for (Map.Entry<String, JsonNode> field : openApi.properties()) {
            String key = field.getKey();
            JsonNode value = field.getValue();
            switch (key) {
                case "properties" -> {
                    ObjectNode props = out.putObject("properties");
                    value.properties().forEach(e -> props.set(e.getKey(), convert(e.getValue())));
                }
                case "items", "additionalProperties" -> out.set(key, value.isObject() ? convert(value) : value);
                case "nullable", "x-kubernetes-validations" -> { }
                default -> {
                    if (!key.startsWith("x-kubernetes-")) {
                        out.set(key, value.deepCopy());
                    }
                }
            }
        }
        if (openApi.path("nullable").asBoolean(false) && out.has("type")) {
            out.set("type", F.arrayNode().add(out.get("type").asText()).add("null"));
        }
        if (out.has("properties") && !out.has("additionalProperties")
                && !openApi.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
            out.put("additionalProperties", false);
        }
        return out;
    }
}

package dev.policyset.aps.core.impact;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/**
 * The objects of a directory of manifests or of {@code kubectl get -o yaml} dumps: each document as it is, and the
 * items of a list ({@code kind: List}, or a typed {@code DeploymentList}, whose items may leave out apiVersion and
 * kind: they are the list's, without the {@code List} suffix).
 */
public final class ExistingObjects {
    /**
     * @param objects  the objects, in input order
     * @param problems one line per document or item that is not an object (no apiVersion, kind or name)
     */
    public record Read(List<ObjectNode> objects, List<String> problems) {}

    private ExistingObjects() {}

    /** @param documents the documents, each named for problems by {@code where} at the same index */
    public static Read read(List<JsonNode> documents, List<String> where) {
        List<ObjectNode> objects = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < documents.size(); i++) {
            JsonNode d = documents.get(i);
            String at = where.get(i);
            if (d == null || d.isNull() || d.isMissingNode()) {
                continue;
            }
            if (!(d instanceof ObjectNode o)) {
                problems.add(at + ": not an object");
                continue;
            }
            String kind = o.path("kind").asText("");
            if (kind.endsWith("List") && o.path("items").isArray()) {
                String itemKind = kind.equals("List") ? "" : kind.substring(0, kind.length() - "List".length());
                String itemApiVersion = o.path("apiVersion").asText("");
                JsonNode items = o.get("items");
                for (int j = 0; j < items.size(); j++) {
                    add(items.get(j), itemApiVersion, itemKind, at + " items[" + j + "]", objects, problems);
                }
            } else {
                add(o, "", "", at, objects, problems);
            }
        }
        return new Read(objects, problems);
    }

    private static void add(JsonNode node, String defaultApiVersion, String defaultKind, String at,
                            List<ObjectNode> objects, List<String> problems) {
        if (!(node instanceof ObjectNode o)) {
            problems.add(at + ": not an object");
            return;
        }
        if (o.path("apiVersion").asText("").isEmpty() && !defaultApiVersion.isEmpty() && !defaultKind.isEmpty()) {
            o.put("apiVersion", defaultApiVersion);
        }
        if (o.path("kind").asText("").isEmpty() && !defaultKind.isEmpty()) {
            o.put("kind", defaultKind);
        }
        List<String> missing = new ArrayList<>();
        for (String field : List.of("apiVersion", "kind")) {
            if (o.path(field).asText("").isEmpty()) {
                missing.add(field);
            }
        }
        if (o.path("metadata").path("name").asText("").isEmpty()) {
            missing.add("metadata.name");
        }
        if (!missing.isEmpty()) {
            problems.add(at + ": not an existing object (no " + String.join(", ", missing)
                    + "); give objects as the API server returns them (kubectl get -o yaml)");
            return;
        }
        objects.add(o);
    }
}

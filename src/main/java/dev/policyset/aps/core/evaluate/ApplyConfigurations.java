package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.intercept.KubeResources;
import dev.policyset.aps.core.schema.Schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The merge of an {@code applyConfiguration} into the object: {@code mutating/patch/smd.go:
 * ApplyStructuredMergeDiff} (structured-merge-diff {@code TypedValue.Merge}) with the list and map semantics of
 * the object's schema, which offline comes from a table of the built-in types' list types, not from OpenAPI.
 *
 * <ul>
 *   <li>maps and structs merge field by field; scalars are replaced;</li>
 *   <li>{@code x-kubernetes-list-type: map} lists merge item by item on their keys (containers by name, ports by
 *       containerPort and protocol, ...), new items appended;</li>
 *   <li>{@code set} lists ({@code finalizers}) take the union;</li>
 *   <li>atomic lists and structs may not appear in an apply configuration at all: upstream's {@code
 *       validatePatch} refuses them with {@code may not mutate atomic arrays, maps or structs: <paths>}. Lists the
 *       table does not know are taken as atomic, as for objects without a schema (a custom resource whose CRD the
 *       test does not load).</li>
 * </ul>
 *
 * <p>With the object's schema ({@link #merge(ObjectNode, ObjectNode, Schema)}: a custom resource whose CRD the
 * test loads), the types come from it instead, as the API server's type converter builds them from the CRD
 * ({@code x-kubernetes-list-type}, {@code x-kubernetes-list-map-keys}, {@code x-kubernetes-map-type}; an array
 * without a list type is atomic). Upstream's {@code findAtomics} descends only into declared properties and list
 * items; a field the schema does not declare is refused unless the schema preserves unknown fields, where
 * structured-merge-diff deduces it (objects merge field by field, lists are replaced).
 */
final class ApplyConfigurations {
    /** Built-in {@code listType=map} lists by field name, with their keys. */
    private static final Map<String, List<String>> MAP_LISTS = Map.ofEntries(
            Map.entry("containers", List.of("name")),
            Map.entry("initContainers", List.of("name")),
            Map.entry("ephemeralContainers", List.of("name")),
            Map.entry("env", List.of("name")),
            Map.entry("volumes", List.of("name")),
            Map.entry("volumeMounts", List.of("mountPath")),
            Map.entry("volumeDevices", List.of("devicePath")),
            Map.entry("imagePullSecrets", List.of("name")),
            Map.entry("hostAliases", List.of("ip")),
            Map.entry("ownerReferences", List.of("uid")),
            Map.entry("conditions", List.of("type")),
            Map.entry("topologySpreadConstraints", List.of("topologyKey", "whenUnsatisfiable")),
            Map.entry("resourceClaims", List.of("name")),
            Map.entry("schedulingGates", List.of("name")),
            Map.entry("resizePolicy", List.of("resourceName")),
            Map.entry("ports", List.of("port", "protocol")));
    /** Built-in {@code listType=set} lists by field name. */
    private static final Set<String> SET_LISTS = Set.of("finalizers");
    /** Built-in atomic structs ({@code structType=atomic}: label selectors of workloads). */
    private static final Set<String> ATOMIC_STRUCTS = Set.of("selector");

    /** {@code smd.go: ApplyStructuredMergeDiff} when the type converter refuses the patch. */
    static final String UNDECLARED_PREFIX = "error applying patch: failed to convert patch object to typed object: ";

    private ApplyConfigurations() {}

    /** The merged object, or the error the API server gives (then nothing is changed). */
    record Merged(ObjectNode object, String error) {}

    static Merged merge(ObjectNode live, ObjectNode patch, String group) {
        boolean builtin = KubeResources.isBuiltinGroup(group);
        List<String> atomics = new ArrayList<>();
        findAtomics("", patch, builtin, atomics);
        if (!atomics.isEmpty()) {
            return new Merged(null, "error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, "
                    + "maps or structs: " + String.join(", ", atomics));
        }
        ObjectNode out = live.deepCopy();
        mergeObject(out, patch, builtin);
        return new Merged(out, null);
    }

    /** The merge with the object's schema (a custom resource's, from its CRD). */
    static Merged merge(ObjectNode live, ObjectNode patch, Schema schema) {
        List<String> atomics = new ArrayList<>();
        List<String> undeclared = new ArrayList<>();
        findAtomics("", patch, schema, atomics, undeclared);
        if (!undeclared.isEmpty()) {
            // structured-merge-diff's ObjectToTyped validation (typed/validate.go: field not declared in schema)
            return new Merged(null, UNDECLARED_PREFIX
                    + String.join(", ", undeclared.stream().map(p -> p + ": field not declared in schema").toList()));
        }
        if (!atomics.isEmpty()) {
            return new Merged(null, "error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, "
                    + "maps or structs: " + String.join(", ", atomics));
        }
        ObjectNode out = live.deepCopy();
        mergeObject(out, patch, schema);
        return new Merged(out, null);
    }

    /** {@code smd.go: findAtomics} over a schema: atomic maps, structs and lists among the declared fields. */
    private static void findAtomics(String path, JsonNode patch, Schema schema, List<String> atomics,
                                    List<String> undeclared) {
        if (patch.isObject()) {
            if (schema.mapType().equals("atomic")) {
                atomics.add(path);
            }
            patch.fields().forEachRemaining(f -> {
                String p = path + "." + f.getKey();
                Schema field = schema.property(f.getKey());
                if (field != null) {
                    findAtomics(p, f.getValue(), field, atomics, undeclared);
                } else if (schema.additionalProperties() == null && !deduced(schema)) {
                    undeclared.add(p);
                }
            });
        } else if (patch.isArray()) {
            if (!schema.listType().equals("map") && !schema.listType().equals("set")) {
                atomics.add(path);
            }
            Schema items = schema.items() == null ? Schema.ANY : schema.items();
            for (int i = 0; i < patch.size(); i++) {
                findAtomics(path + "[" + i + "]", patch.get(i), items, atomics, undeclared);
            }
        }
    }

    /** A schema that keeps what it does not declare: structured-merge-diff deduces the type of the rest. */
    private static boolean deduced(Schema schema) {
        return schema.preserveUnknownFields() || schema.type().isEmpty();
    }

    private static void mergeObject(ObjectNode live, JsonNode patch, Schema schema) {
        patch.fields().forEachRemaining(f -> {
            String name = f.getKey();
            JsonNode value = f.getValue();
            JsonNode current = live.get(name);
            Schema field = schema.property(name) != null ? schema.property(name)
                    : schema.additionalProperties() != null ? schema.additionalProperties() : Schema.ANY;
            if (value.isObject() && current != null && current.isObject() && !field.mapType().equals("atomic")) {
                mergeObject((ObjectNode) current, value, field);
            } else if (value.isArray() && current != null && current.isArray() && field.listType().equals("map")) {
                Schema items = field.items() == null ? Schema.ANY : field.items();
                for (JsonNode item : value) {
                    ObjectNode match = collapse((ArrayNode) current, item, (a, b) -> sameKeyValues(a, b, field.listMapKeys()));
                    if (match != null && item.isObject()) {
                        mergeObject(match, item, items);
                    } else {
                        ((ArrayNode) current).add(item.deepCopy());
                    }
                }
            } else if (value.isArray() && current != null && current.isArray() && field.listType().equals("set")) {
                value.forEach(v -> {
                    if (!contains(current, v)) {
                        ((ArrayNode) current).add(v);
                    }
                });
            } else {
                live.set(name, value.deepCopy());
            }
        });
    }

    /**
     * The live item the patch item merges into: the first with its keys. Later live items with the same keys are
     * removed, as structured-merge-diff collapses duplicate keys that an apply configuration sets (measured on
     * kube-apiserver 1.37.2: env {@code [A=1, A=2, B]} with {@code A=z} applied gives {@code [A=z, B]}); duplicates
     * the patch does not set are kept as they are.
     */
    private static ObjectNode collapse(ArrayNode live, JsonNode item, java.util.function.BiPredicate<JsonNode, JsonNode> sameKeys) {
        ObjectNode match = null;
        for (int i = 0; i < live.size(); i++) {
            JsonNode existing = live.get(i);
            if (existing.isObject() && sameKeys.test(existing, item)) {
                if (match == null) {
                    match = (ObjectNode) existing;
                } else {
                    live.remove(i--);
                }
            }
        }
        return match;
    }

    /** Key fields compared as values; a key field left out matches only another left out. */
    private static boolean sameKeyValues(JsonNode a, JsonNode b, List<String> keys) {
        for (String k : keys) {
            if (!a.path(k).equals(b.path(k))) {
                return false;
            }
        }
        return true;
    }

    private static void findAtomics(String path, JsonNode patch, boolean builtin, List<String> atomics) {
        if (patch.isObject()) {
            patch.fields().forEachRemaining(f -> {
                String p = path + "." + f.getKey();
                JsonNode v = f.getValue();
                if (v.isArray()) {
                    if (!builtin || (!MAP_LISTS.containsKey(f.getKey()) && !SET_LISTS.contains(f.getKey()))) {
                        atomics.add(p);
                    } else {
                        for (int i = 0; i < v.size(); i++) {
                            findAtomics(p + "[" + i + "]", v.get(i), builtin, atomics);
                        }
                    }
                } else if (v.isObject()) {
                    if (builtin && ATOMIC_STRUCTS.contains(f.getKey()) && !path.isEmpty()) {
                        atomics.add(p);
                    } else {
                        findAtomics(p, v, builtin, atomics);
                    }
                }
            });
        }
    }

    private static void mergeObject(ObjectNode live, JsonNode patch, boolean builtin) {
        patch.fields().forEachRemaining(f -> {
            String name = f.getKey();
            JsonNode value = f.getValue();
            JsonNode current = live.get(name);
            if (value.isObject() && current != null && current.isObject()) {
                mergeObject((ObjectNode) current, value, builtin);
            } else if (value.isArray() && current != null && current.isArray() && MAP_LISTS.containsKey(name)) {
                mergeMapList((ArrayNode) current, (ArrayNode) value, keys(name, value, current), builtin);
            } else if (value.isArray() && current != null && current.isArray() && SET_LISTS.contains(name)) {
                value.forEach(v -> {
                    if (!contains(current, v)) {
                        ((ArrayNode) current).add(v);
                    }
                });
            } else {
                live.set(name, value.deepCopy());
            }
        });
    }

    /** Container ports are keyed by containerPort and protocol, service ports by port and protocol. */
    private static List<String> keys(String field, JsonNode patch, JsonNode live) {
        if (field.equals("ports") && (has(patch, "containerPort") || has(live, "containerPort"))) {
            return List.of("containerPort", "protocol");
        }
        return MAP_LISTS.get(field);
    }

    private static boolean has(JsonNode list, String field) {
        for (JsonNode x : list) {
            if (x.has(field)) {
                return true;
            }
        }
        return false;
    }

    private static void mergeMapList(ArrayNode live, ArrayNode patch, List<String> keys, boolean builtin) {
        for (JsonNode item : patch) {
            ObjectNode match = collapse(live, item, (a, b) -> sameKeys(a, b, keys));
            if (match != null && item.isObject()) {
                mergeObject(match, item, builtin);
            } else {
                live.add(item.deepCopy());
            }
        }
    }

    private static boolean sameKeys(JsonNode a, JsonNode b, List<String> keys) {
        for (String k : keys) {
            // protocol is defaulted to TCP before admission; an apply configuration may leave it out
            String x = a.path(k).asText(k.equals("protocol") ? "TCP" : "");
            String y = b.path(k).asText(k.equals("protocol") ? "TCP" : "");
            if (!x.equals(y)) {
                return false;
            }
        }
        return true;
    }

    private static boolean contains(JsonNode list, JsonNode v) {
        for (JsonNode x : list) {
            if (x.equals(v)) {
                return true;
            }
        }
        return false;
    }
}

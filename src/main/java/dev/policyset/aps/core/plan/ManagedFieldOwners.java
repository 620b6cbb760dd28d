package dev.policyset.aps.core.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.policyset.aps.core.model.LiveObject;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Who else owns what the set renders, read from the live object's {@code metadata.managedFields}: the fields the
 * set renders that another field manager owns and the operator's manager does not (after a forced apply of
 * someone else the field is theirs alone). Paths are in the API server's own notation
 * ({@code .webhooks[name="x"].failurePolicy}), the one its 409 Conflict uses.
 */
public final class ManagedFieldOwners {
    /** The field manager of everything the operator applies (the operator's ClusterObjects uses it). */
    public static final String FIELD_MANAGER = "admission-policy-operator";

    private static final ObjectMapper JSON = new ObjectMapper();

    private ManagedFieldOwners() {}

    /** Other managers → the rendered fields each owns alone, in managedFields order; empty when none or unreadable. */
    public static Map<String, List<String>> others(LiveObject live, JsonNode desired) {
        Set<String> ours = new LinkedHashSet<>();
        Map<String, Set<String>> theirs = new LinkedHashMap<>();
        for (JsonNode entry : live.object().path("metadata").path("managedFields")) {
            String manager = entry.path("manager").asText("");
            List<String> owned = new ArrayList<>();
            walk(entry.path("fieldsV1"), desired, "", owned);
            if (FIELD_MANAGER.equals(manager)) {
                ours.addAll(owned);
            } else if (!owned.isEmpty()) {
                theirs.computeIfAbsent(manager, m -> new LinkedHashSet<>()).addAll(owned);
            }
        }
        Map<String, List<String>> out = new LinkedHashMap<>();
        theirs.forEach((manager, fields) -> {
            List<String> alone = fields.stream().filter(f -> !ours.contains(f)).toList();
            if (!alone.isEmpty()) {
                out.put(manager, alone);
            }
        });
        return out;
    }

    /** The leaves of a fieldsV1 tree that also exist in the desired object, with their paths. */
    private static void walk(JsonNode fields, JsonNode desired, String path, List<String> out) {
        Iterator<Map.Entry<String, JsonNode>> it = fields.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = e.getKey();
            JsonNode sub = e.getValue();
            if (key.startsWith("f:") && desired.isObject() && desired.has(key.substring(2))) {
                follow(sub, desired.get(key.substring(2)), path + "." + key.substring(2), out);
            } else if (key.startsWith("k:") && desired.isArray()) {
                JsonNode k = parse(key.substring(2));
                for (JsonNode element : desired) {
                    if (k != null && k.isObject() && matches(element, k)) {
                        follow(sub, element, path + "[" + keyText(k) + "]", out);
                    }
                }
            } else if (key.startsWith("v:") && desired.isArray()) {
                JsonNode v = parse(key.substring(2));
                for (JsonNode element : desired) {
                    if (element.equals(v)) {
                        out.add(path + "[" + element + "]");
                    }
                }
            } else if (key.startsWith("i:") && desired.isArray()) {
                int i = Integer.parseInt(key.substring(2).trim());
                if (i < desired.size()) {
                    follow(sub, desired.get(i), path + "[" + i + "]", out);
                }
            }
        }
    }

    /** A leaf ({@code {}}, or only {@code "."}: owned as a whole) is a field; anything else is walked into. */
    private static void follow(JsonNode sub, JsonNode desired, String path, List<String> out) {
        boolean leaf = sub.isEmpty() || (sub.size() == 1 && sub.has("."));
        if (leaf) {
            out.add(path);
        } else {
            walk(sub, desired, path, out);
        }
    }

    private static boolean matches(JsonNode element, JsonNode key) {
        Iterator<Map.Entry<String, JsonNode>> it = key.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> f = it.next();
            if (!f.getValue().equals(element.get(f.getKey()))) {
                return false;
            }
        }
        return true;
    }

    private static String keyText(JsonNode key) {
        List<String> parts = new ArrayList<>();
        key.fields().forEachRemaining(f -> parts.add(f.getKey() + "=" + f.getValue()));
        return String.join(",", parts);
    }

    private static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}

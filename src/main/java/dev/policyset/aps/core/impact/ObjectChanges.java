package dev.policyset.aps.core.impact;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What a mutation changed, field by field: a JSON Patch (RFC 6902) from the object before to the object after, each
 * operation with the value it replaces or removes ({@code old}, a member RFC 6902 says appliers ignore), so the list
 * is both readable and applicable. Lists that only grew at the end (an appended sidecar) are additions at their new
 * indexes; any other change to a list of a different length replaces the whole list.
 */
public final class ObjectChanges {
    /** Changes named per sample at most; the sample counts the rest. */
    public static final int MAX_PER_SAMPLE = 20;

    private static final Pattern PLAIN_KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /**
     * One operation.
     *
     * @param op    {@code add}, {@code replace} or {@code remove}
     * @param path  a JSON Pointer ({@code /spec/containers/0/imagePullPolicy})
     * @param old   the value replaced or removed; null for {@code add}
     * @param value the value added or put in place; null for {@code remove}
     */
    public record Change(String op, String path, JsonNode old, JsonNode value) {
        /** One line for people: {@code spec.containers[0].imagePullPolicy: (unset) → "IfNotPresent"}. */
        public String describe() {
            return fieldPath(path) + ": " + (old == null ? "(unset)" : show(old)) + " → "
                    + (value == null ? "(removed)" : show(value));
        }
    }

    private ObjectChanges() {}

    public static List<Change> between(JsonNode before, JsonNode after) {
        List<Change> out = new ArrayList<>();
        walk("", before, after, out);
        return out;
    }

    private static void walk(String path, JsonNode before, JsonNode after, List<Change> out) {
        if (before.equals(after)) {
            return;
        }
        if (before.isObject() && after.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = before.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                String p = path + "/" + escape(f.getKey());
                JsonNode now = after.get(f.getKey());
                if (now == null) {
                    out.add(new Change("remove", p, f.getValue(), null));
                } else {
                    walk(p, f.getValue(), now, out);
                }
            }
            after.fields().forEachRemaining(f -> {
                if (!before.has(f.getKey())) {
                    out.add(new Change("add", path + "/" + escape(f.getKey()), null, f.getValue()));
                }
            });
            return;
        }
        if (before.isArray() && after.isArray()) {
            if (before.size() == after.size()) {
                for (int i = 0; i < before.size(); i++) {
                    walk(path + "/" + i, before.get(i), after.get(i), out);
                }
                return;
            }
            if (after.size() > before.size() && prefix(before, after)) {
                for (int i = before.size(); i < after.size(); i++) {
                    out.add(new Change("add", path + "/" + i, null, after.get(i)));
                }
                return;
            }
        }
        out.add(new Change("replace", path.isEmpty() ? "" : path, before, after));
    }

    private static boolean prefix(JsonNode shorter, JsonNode longer) {
        for (int i = 0; i < shorter.size(); i++) {
            if (!shorter.get(i).equals(longer.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** RFC 6901: {@code ~} and {@code /} in a key. */
    private static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }

    /**
     * A JSON Pointer as Kubernetes field paths read ({@code spec.containers[0].image}); keys that are not plain
     * names in brackets ({@code metadata.labels["app.kubernetes.io/name"]}).
     */
    static String fieldPath(String pointer) {
        if (pointer.isEmpty()) {
            return "(object)";
        }
        StringBuilder b = new StringBuilder();
        for (String raw : pointer.substring(1).split("/", -1)) {
            String key = raw.replace("~1", "/").replace("~0", "~");
            if (key.matches("\\d+")) {
                b.append('[').append(key).append(']');
            } else if (PLAIN_KEY.matcher(key).matches()) {
                b.append(b.length() == 0 ? "" : ".").append(key);
            } else {
                b.append("[\"").append(key).append("\"]");
            }
        }
        return b.toString();
    }

    private static String show(JsonNode n) {
        String s = n.toString();
        return s.length() > 120 ? s.substring(0, 117) + "..." : s;
    }
}

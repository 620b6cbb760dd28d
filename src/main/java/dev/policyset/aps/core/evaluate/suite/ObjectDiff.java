package dev.policyset.aps.core.evaluate.suite;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Field-by-field differences between an expected and an actual object, with Kubernetes-style paths. */
public final class ObjectDiff {
    private ObjectDiff() {}

    /** Every difference; {@code partial}: fields of {@code actual} that {@code expected} does not name are fine. */
    public static List<String> diff(JsonNode expected, JsonNode actual, boolean partial) {
        List<String> out = new ArrayList<>();
        walk("", expected, actual, partial, out);
        return out;
    }

    private static void walk(String path, JsonNode want, JsonNode got, boolean partial, List<String> out) {
        String at = path.isEmpty() ? "(object)" : path;
        if (got == null || got.isMissingNode()) {
            out.add(at + ": expected " + show(want) + ", got nothing");
            return;
        }
        if (want.isObject() && got.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = want.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                walk(path.isEmpty() ? f.getKey() : path + "." + f.getKey(), f.getValue(), got.get(f.getKey()), partial, out);
            }
            if (!partial) {
                got.fieldNames().forEachRemaining(name -> {
                    if (!want.has(name)) {
                        out.add((path.isEmpty() ? name : path + "." + name) + ": not expected, got " + show(got.get(name)));
                    }
                });
            }
            return;
        }
        if (want.isArray() && got.isArray()) {
            if (want.size() != got.size() && !partial) {
                out.add(at + ": expected " + want.size() + " items, got " + got.size() + ": " + show(got));
                return;
            }
            if (want.size() > got.size()) {
                out.add(at + ": expected at least " + want.size() + " items, got " + got.size() + ": " + show(got));
                return;
            }
            for (int i = 0; i < want.size(); i++) {
                walk(path + "[" + i + "]", want.get(i), got.get(i), partial, out);
            }
            return;
        }
        if (!same(want, got)) {
            out.add(at + ": expected " + show(want) + ", got " + show(got));
        }
    }

    /** Numbers compare by value (YAML 5 and JSON 5.0 are the same quantity to the API server's JSON). */
    private static boolean same(JsonNode want, JsonNode got) {
        if (want.isNumber() && got.isNumber()) {
            return want.decimalValue().compareTo(got.decimalValue()) == 0;
        }
        return want.equals(got);
    }

    static String show(JsonNode n) {
        String s = n == null ? "nothing" : n.toString();
        return s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }
}

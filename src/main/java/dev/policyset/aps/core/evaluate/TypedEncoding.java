package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.schema.Schema;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The object as the API server hands it to a JSON patch: {@code json_patch.go} encodes the typed (Go) object, in
 * which a field of struct type is always present ({@code encoding/json} does not omit structs, {@code omitempty}
 * or not): a Deployment's {@code spec.template.metadata}, a container's {@code resources}, {@code status}. So
 * {@code add /spec/template/metadata/labels} or {@code add /spec/containers/0/resources/limits} applies on the
 * server to an object whose request left those structs out. The struct fields come from the built-in schema's
 * always-present fields that are objects with declared properties ({@code ModelReflection.ALWAYS_PRESENT}, value
 * types and defaults). The other way round, an empty map or list that the request spelled out ({@code data: {}})
 * is gone from the encoding: the request was decoded into the Go object, and {@code omitempty} (on every map and list
 * field that is not always present) leaves it out, so on the server {@code remove /data/x} finds no {@code /data}
 * ("doc is missing path") and {@code add /data/x} needs the parent first. Measured on kube-apiserver 1.37.2 (the
 * behaviour differential suite's remove-missing case). Those fields stay out of the result, as the server stores none.
 *
 * <p>The structs this adds are taken out again after the patch while they are still empty: the server's object
 * has them too, but showing them would only make every expected object in a test spell them out.
 */
final class TypedEncoding {
    private TypedEncoding() {}

    /**
     * Applies {@code patch} to the typed encoding of {@code object}; the result without the structs that were only
     * added for the encoding and are still empty.
     */
    static JsonPatches.Patched apply(ObjectNode object, Schema schema, Function<ObjectNode, JsonPatches.Patched> patch) {
        ObjectNode encoded = object.deepCopy();
        List<String> added = new ArrayList<>();
        fill(encoded, schema, "", added);
        JsonPatches.Patched p = patch.apply(encoded);
        if (p.object() == encoded) {
            return new JsonPatches.Patched(object, null); // a failed test: the object is left as it was
        }
        if (p.error() != null) {
            return p;
        }
        for (int i = added.size() - 1; i >= 0; i--) {
            String path = added.get(i);
            int slash = path.lastIndexOf('/');
            JsonNode parent = p.object().at(path.substring(0, slash));
            String name = path.substring(slash + 1).replace("~1", "/").replace("~0", "~");
            if (parent instanceof ObjectNode po && po.path(name).isObject() && po.get(name).isEmpty()) {
                po.remove(name);
            }
        }
        return p;
    }

    private static void fill(JsonNode node, Schema schema, String path, List<String> added) {
        if (schema == null) {
            return;
        }
        if (node.isArray() && schema.items() != null) {
            for (int i = 0; i < node.size(); i++) {
                fill(node.get(i), schema.items(), path + "/" + i, added);
            }
        } else if (node instanceof ObjectNode o && isStruct(schema)) {
            schema.properties().forEach((name, field) -> {
                String child = path + "/" + name.replace("~", "~0").replace("/", "~1");
                if (isOmittedWhenEmpty(o.get(name), field) && !schema.isRequired(name)) {
                    o.remove(name);
                }
                if (!o.has(name) && schema.isRequired(name) && isStruct(field)) {
                    o.putObject(name);
                    added.add(child);
                }
                if (o.get(name) != null) {
                    fill(o.get(name), field, child, added);
                }
            });
        }
    }

    private static boolean isOmittedWhenEmpty(JsonNode value, Schema field) {
        return value != null && value.isEmpty() && ((value.isObject() && field.isMap()) || (value.isArray() && field.isArray()));
    }

    private static boolean isStruct(Schema s) {
        return s.isObject() && !s.isMap() && !s.properties().isEmpty();
    }
}

package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * RFC 6902 JSON Patch with the semantics of the library the API server applies patches with,
 * {@code gopkg.in/evanphx/json-patch.v4} (v4.13.0, {@code patch.go}): a MutatingAdmissionPolicy's JSONPatch
 * ({@code mutating/patch/json_patch.go}) and a mutating webhook's {@code response.patch}
 * ({@code webhook/mutating/dispatcher.go}) both go through {@code Patch.Apply}. Where that library departs from
 * the RFC, this follows the library, because the server does:
 * <ul>
 *   <li>{@code replace} of a missing object member adds it (only the parent must exist; {@code partialDoc.get}
 *       never fails); {@code remove} of a missing member fails;</li>
 *   <li>a member whose value is JSON {@code null} counts as absent when walking a path, and a {@code test} of an
 *       absent member against {@code null} (or without a value) passes;</li>
 *   <li>negative array indices count from the end ({@code SupportNegativeIndices} is true); {@code add} at
 *       index {@code len} appends, {@code -} appends;</li>
 *   <li>{@code copy} of an absent member copies {@code null}; the growth by copies is limited
 *       ({@code AccumulatedCopySizeLimit}, set by the API server to {@code JSONPatchMaxCopyBytes}, 3 MiB);</li>
 *   <li>scalars compare as their JSON text ({@code 1} and {@code 1.0} differ), objects and arrays structurally.</li>
 * </ul>
 * Error texts are the library's, so a message here is the one the API server prints after its own prefix.
 * Known difference: a {@code test} of an array that holds {@code null} panics upstream; here nulls compare equal.
 */
final class JsonPatchV4 {
    /** {@code genericapiserver.NewConfig: JSONPatchMaxCopyBytes = int64(3 * 1024 * 1024)}. */
    static final long SERVER_COPY_SIZE_LIMIT = 3L * 1024 * 1024;

    /** The document after the patch; {@code testFailed} marks an {@code ErrTestFailed} error. */
    record Result(JsonNode document, String error, boolean testFailed) {
        static Result ok(JsonNode document) {
            return new Result(document, null, false);
        }
    }

    private static final Pattern ATOI = Pattern.compile("[+-]?[0-9]+");
    private static final BigInteger INT64_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger INT64_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private final long copySizeLimit;
    private JsonNode doc;
    private long copied;

    private JsonPatchV4(JsonNode doc, long copySizeLimit) {
        this.doc = doc;
        this.copySizeLimit = copySizeLimit;
    }

    /** The patch applied to a copy of {@code document} with the API server's copy limit. */
    static Result apply(JsonNode document, ArrayNode patch) {
        return apply(document, patch, SERVER_COPY_SIZE_LIMIT);
    }

    /** @param copySizeLimit bytes the copies may add in total; 0 is unlimited (the library's default) */
    static Result apply(JsonNode document, ArrayNode patch, long copySizeLimit) {
        JsonPatchV4 p = new JsonPatchV4(document.deepCopy(), copySizeLimit);
        for (JsonNode op : patch) {
            if (!op.isObject()) {
                // DecodePatch: json.Unmarshal into []map[string]*json.RawMessage
                return new Result(null, "json: cannot unmarshal " + goType(op)
                        + " into Go value of type jsonpatch.Operation", false);
            }
            Failure f = p.run((ObjectNode) op);
            if (f != null) {
                return new Result(null, f.getMessage(), f.testFailed);
            }
        }
        return Result.ok(p.doc);
    }

    /** An error of the library; {@code testFailed} is {@code errors.Is(err, ErrTestFailed)}. */
    private static final class Failure extends Exception {
        final boolean testFailed;

        Failure(String message) {
            this(message, false);
        }

        Failure(String message, boolean testFailed) {
            super(message, null, false, false);
            this.testFailed = testFailed;
        }

        /** {@code fmt.Errorf(prefix + ": %w", this)}. */
        Failure wrap(String prefix) {
            return new Failure(prefix + ": " + getMessage(), testFailed);
        }
    }

    private static final String MISSING = "missing value";
    private static final String INVALID_INDEX = "invalid index referenced";

    private Failure run(ObjectNode op) {
        try {
            switch (kind(op)) {
                case "add" -> add(op);
                case "remove" -> remove(op);
                case "replace" -> replace(op);
                case "move" -> move(op);
                case "test" -> test(op);
                case "copy" -> copy(op);
                default -> throw new Failure("Unexpected kind: " + kind(op));
            }
            return null;
        } catch (Failure f) {
            return f;
        }
    }

    /** {@code Operation.Kind}: "unknown" unless {@code op} is a string. */
    private static String kind(ObjectNode op) {
        JsonNode k = op.get("op");
        return k != null && k.isTextual() ? k.asText() : "unknown";
    }

    /** {@code Operation.Path}/{@code From}: absent or null is ErrMissing, another type an unmarshal error. */
    private static String field(ObjectNode op, String name) throws Failure {
        JsonNode v = op.get(name);
        if (v == null || v.isNull()) {
            throw new Failure(name.equals("path") ? "operation missing path field: " + MISSING
                    : "operation, missing from field: " + MISSING);
        }
        if (!v.isTextual()) {
            throw new Failure("json: cannot unmarshal " + goType(v) + " into Go value of type string");
        }
        return v.asText();
    }

    /** {@code Operation.value}: absent is Go's nil node, {@code null} a node without raw bytes; both add null. */
    private static JsonNode value(ObjectNode op) {
        JsonNode v = op.get("value");
        return v == null ? null : v;
    }

    private void add(ObjectNode op) throws Failure {
        String path;
        try {
            path = field(op, "path");
        } catch (Failure f) {
            throw new Failure("add operation failed to decode path: " + MISSING);
        }
        Target t = find(path);
        if (t == null) {
            throw new Failure("add operation does not apply: doc is missing path: \"" + path + "\": " + MISSING);
        }
        try {
            t.add(orNull(value(op)));
        } catch (Failure f) {
            throw f.wrap("error in add for path: '" + path + "'");
        }
    }

    private void remove(ObjectNode op) throws Failure {
        String path;
        try {
            path = field(op, "path");
        } catch (Failure f) {
            throw new Failure("remove operation failed to decode path: " + MISSING);
        }
        Target t = find(path);
        if (t == null) {
            throw new Failure("remove operation does not apply: doc is missing path: \"" + path + "\": " + MISSING);
        }
        try {
            t.remove();
        } catch (Failure f) {
            throw f.wrap("error in remove for path: '" + path + "'");
        }
    }

    private void replace(ObjectNode op) throws Failure {
        String path;
        try {
            path = field(op, "path");
        } catch (Failure f) {
            throw f.wrap("replace operation failed to decode path");
        }
        if (path.isEmpty()) {
            JsonNode v = value(op);
            if (v == null || !(v.isObject() || v.isArray())) {
                // upstream wraps a nil error here, hence Go's %!w(<nil>)
                throw new Failure("replace operation value must be object or array: %!w(<nil>)");
            }
            doc = v.deepCopy();
            return;
        }
        Target t = find(path);
        if (t == null) {
            throw new Failure("replace operation does not apply: doc is missing path: " + path + ": " + MISSING);
        }
        try {
            t.get();
        } catch (Failure f) {
            throw new Failure("replace operation does not apply: doc is missing key: " + path + ": " + MISSING);
        }
        t.set(orNull(value(op)));
    }

    private void move(ObjectNode op) throws Failure {
        String from;
        try {
            from = field(op, "from");
        } catch (Failure f) {
            throw f.wrap("move operation failed to decode from");
        }
        Target source = find(from);
        if (source == null) {
            throw new Failure("move operation does not apply: doc is missing from path: " + from + ": " + MISSING);
        }
        JsonNode val;
        try {
            val = source.get();
            source.remove();
        } catch (Failure f) {
            throw f.wrap("error in move for path: '" + source.key + "'");
        }
        String path;
        try {
            path = field(op, "path");
        } catch (Failure f) {
            throw f.wrap("move operation failed to decode path");
        }
        Target t = find(path);
        if (t == null) {
            throw new Failure("move operation does not apply: doc is missing destination path: " + path + ": " + MISSING);
        }
        try {
            t.add(orNull(val));
        } catch (Failure f) {
            throw f.wrap("error in move for path: '" + path + "'");
        }
    }

    private void test(ObjectNode op) throws Failure {
        String path;
        try {
            path = field(op, "path");
        } catch (Failure f) {
            throw f.wrap("test operation failed to decode path");
        }
        JsonNode expected = value(op);
        if (path.isEmpty()) {
            if (expected != null && equal(doc, expected)) {
                return;
            }
            throw failedTest(path);
        }
        Target t = find(path);
        if (t == null) {
            throw new Failure("test operation does not apply: is missing path: " + path + ": " + MISSING);
        }
        JsonNode val;
        try {
            val = t.get();
        } catch (Failure f) {
            throw f.wrap("error in test for path: '" + path + "'");
        }
        if (val == null) {
            if (expected == null || expected.isNull()) {
                return;
            }
            throw failedTest(path);
        }
        if (expected != null && equal(val, expected)) {
            return;
        }
        throw failedTest(path);
    }

    private static Failure failedTest(String path) {
        return new Failure("testing value " + path + " failed: test failed", true);
    }

    private void copy(ObjectNode op) throws Failure {
        String from;
        try {
            from = field(op, "from");
        } catch (Failure f) {
            throw f.wrap("copy operation failed to decode from");
        }
        Target source = find(from);
        if (source == null) {
            throw new Failure("copy operation does not apply: doc is missing from path: " + from + ": " + MISSING);
        }
        JsonNode val;
        try {
            val = source.get();
        } catch (Failure f) {
            throw f.wrap("error in copy for from: '" + from + "'");
        }
        String path;
        try {
            path = field(op, "path");
        } catch (Failure f) {
            throw new Failure("copy operation failed to decode path: " + MISSING);
        }
        Target t = find(path);
        if (t == null) {
            throw new Failure("copy operation does not apply: doc is missing destination path: " + path + ": " + MISSING);
        }
        JsonNode copy = val == null ? NullNode.instance : val.deepCopy();
        // deepCopy of a nil node adds nothing to the size
        copied += val == null ? 0 : goJsonLength(val);
        if (copySizeLimit > 0 && copied > copySizeLimit) {
            throw new Failure("Unable to complete the copy, the accumulated size increase of copy is " + copied
                    + ", exceeding the limit " + copySizeLimit);
        }
        try {
            t.add(copy);
        } catch (Failure f) {
            throw f.wrap("error while adding value during copy");
        }
    }

    private static JsonNode orNull(JsonNode v) {
        return v == null ? NullNode.instance : v.deepCopy();
    }

    /**
     * {@code findObject}: the container of the path's last token and that token, decoded; null when the path has
     * no token or a step on the way is absent, {@code null}, a scalar or a bad index.
     */
    private Target find(String path) {
        String[] split = path.split("/", -1);
        if (split.length < 2) {
            return null;
        }
        JsonNode container = doc;
        for (int i = 1; i < split.length - 1; i++) {
            JsonNode next;
            try {
                next = new Target(container, decode(split[i])).get();
            } catch (Failure f) {
                return null;
            }
            if (next == null || !(next.isObject() || next.isArray())) {
                return null;
            }
            container = next;
        }
        return new Target(container, decode(split[split.length - 1]));
    }

    /** RFC 6901 §4: {@code ~1} then {@code ~0} ({@code decodePatchKey}). */
    private static String decode(String token) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c == '~' && i + 1 < token.length() && (token.charAt(i + 1) == '0' || token.charAt(i + 1) == '1')) {
                out.append(token.charAt(i + 1) == '0' ? '~' : '/');
                i++;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** A member of an object ({@code partialDoc}) or an element of an array ({@code partialArray}). */
    private static final class Target {
        final JsonNode container;
        final String key;

        Target(JsonNode container, String key) {
            this.container = container;
            this.key = key;
        }

        /** The value, or null when absent or JSON null (Go's nil node). */
        JsonNode get() throws Failure {
            if (container instanceof ObjectNode o) {
                JsonNode v = o.get(key);
                return v == null || v.isNull() ? null : v;
            }
            ArrayNode a = (ArrayNode) container;
            long idx = atoi(key);
            idx = negative(idx, a.size());
            if (idx >= a.size()) {
                throw invalidIndex(idx);
            }
            JsonNode v = a.get((int) idx);
            return v.isNull() ? null : v;
        }

        void set(JsonNode value) throws Failure {
            if (container instanceof ObjectNode o) {
                o.set(key, value);
                return;
            }
            ArrayNode a = (ArrayNode) container;
            // only reached after get() succeeded, so the index is in range
            a.set((int) negative(atoi(key), a.size()), value);
        }

        void add(JsonNode value) throws Failure {
            if (container instanceof ObjectNode o) {
                o.set(key, value);
                return;
            }
            ArrayNode a = (ArrayNode) container;
            if (key.equals("-")) {
                a.add(value);
                return;
            }
            long idx;
            try {
                idx = atoi(key);
            } catch (Failure f) {
                throw f.wrap("value was not a proper array index: '" + key + "'");
            }
            int size = a.size() + 1;
            if (idx >= size) {
                throw invalidIndex(idx);
            }
            a.insert((int) negative(idx, size), value);
        }

        void remove() throws Failure {
            if (container instanceof ObjectNode o) {
                if (!o.has(key)) {
                    throw new Failure("Unable to remove nonexistent key: " + key + ": " + MISSING);
                }
                o.remove(key);
                return;
            }
            ArrayNode a = (ArrayNode) container;
            long idx = atoi(key);
            if (idx >= a.size()) {
                throw invalidIndex(idx);
            }
            a.remove((int) negative(idx, a.size()));
        }

        private static long negative(long idx, int size) throws Failure {
            if (idx < 0) {
                if (idx < -size) {
                    throw invalidIndex(idx);
                }
                return idx + size;
            }
            return idx;
        }

        private static Failure invalidIndex(long idx) {
            return new Failure("Unable to access invalid index: " + idx + ": " + INVALID_INDEX);
        }
    }

    /** Go's {@code strconv.Atoi} on a 64-bit platform, with its error texts. */
    private static long atoi(String s) throws Failure {
        if (!ATOI.matcher(s).matches()) {
            throw new Failure("strconv.Atoi: parsing \"" + s + "\": invalid syntax");
        }
        BigInteger v = new BigInteger(s.startsWith("+") ? s.substring(1) : s);
        if (v.compareTo(INT64_MIN) < 0 || v.compareTo(INT64_MAX) > 0) {
            throw new Failure("strconv.Atoi: parsing \"" + s + "\": value out of range");
        }
        return v.longValue();
    }

    /** {@code lazyNode.equal}; a test value that is JSON null equals no present value. */
    static boolean equal(JsonNode a, JsonNode b) {
        if (a.isObject()) {
            if (!b.isObject() || a.size() != b.size()) {
                return false;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode other = b.get(e.getKey());
                if (other == null) {
                    return false;
                }
                if (e.getValue().isNull() != other.isNull()) {
                    return false;
                }
                if (!e.getValue().isNull() && !equal(e.getValue(), other)) {
                    return false;
                }
            }
            return true;
        }
        if (a.isArray()) {
            if (!b.isArray() || a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                if (a.get(i).isNull() != b.get(i).isNull()) {
                    return false;
                }
                if (!a.get(i).isNull() && !equal(a.get(i), b.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (b.isObject() || b.isArray() || b.isNull()) {
            return false;
        }
        // compacted bytes: the JSON texts of two scalars
        return a.toString().equals(b.toString());
    }

    /** The length of Go's {@code json.Marshal} of the value (HTML characters escaped as {@code \\u003c}). */
    private static long goJsonLength(JsonNode v) {
        String s = v.toString();
        long extra = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '<' || c == '>' || c == '&') {
                extra += 5;
            }
        }
        return s.getBytes(StandardCharsets.UTF_8).length + extra;
    }

    private static String goType(JsonNode v) {
        if (v.isTextual()) {
            return "string";
        }
        if (v.isNumber()) {
            return "number";
        }
        if (v.isBoolean()) {
            return "bool";
        }
        if (v.isArray()) {
            return "array";
        }
        if (v.isObject()) {
            return "object";
        }
        return "null";
    }
}

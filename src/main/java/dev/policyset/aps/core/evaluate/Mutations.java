package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import dev.cel.common.values.NullValue;
import dev.policyset.aps.core.cel.CelEvaluator;
import dev.policyset.aps.core.cel.ExpressionKind;
import dev.policyset.aps.core.cel.ObjectValue;
import dev.policyset.aps.core.schema.Schema;
import dev.policyset.aps.core.schema.UnknownFields;
import dev.policyset.aps.core.yaml.Yaml;

import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One {@code spec.mutations[i]} applied to the object: evaluate, then merge or patch. Each mutation is its own
 * {@code ForInput} with a whole {@code celconfig.RuntimeCELCostBudget} ({@code mutating/dispatcher.go: dispatchOne}
 * calls {@code patcher.Patch(ctx, request, celconfig.RuntimeCELCostBudget)}) and its own variable cache, so a
 * variable that reads {@code object} sees the object the previous mutation produced.
 */
final class Mutations {
    /**
     * The object after the mutation, or the error (then the object is unchanged). {@code internal}: the error is a
     * {@code StatusError} (500 InternalError), which the dispatcher returns at once, whatever the failurePolicy.
     */
    record Result(ObjectNode object, String error, boolean internal) {
        Result(ObjectNode object, String error) {
            this(object, error, false);
        }
    }

    private Mutations() {}

    /**
     * @param schema  the object's schema when the test loads its CRD, else null (the built-in table applies)
     * @param builtin the built-in kind's schema, else null: the fields the API server's typed decoding knows
     */
    static Result apply(JsonNode mutation, ObjectNode object, String group, Schema schema, Schema builtin,
                        PolicyExpressions.Context context) {
        String type = mutation.path("patchType").asText("");
        if (type.equals("ApplyConfiguration")) {
            Expressions r = evaluate(context, ExpressionKind.MUTATION_APPLY_CONFIGURATION,
                    mutation.path("applyConfiguration").path("expression").asText(""));
            if (r.failed()) {
                return new Result(null, r.error());
            }
            String mismatch = r.value() instanceof ObjectValue o ? typeMismatch(List.of(o)) : null;
            if (mismatch != null) {
                return new Result(null, mismatch);
            }
            JsonNode patch = Yaml.mapper().valueToTree(plain(r.value()));
            if (!patch.isObject()) {
                return new Result(null, "unsupported return type from ApplyConfiguration expression");
            }
            if (schema == null && builtin != null) {
                List<String> undeclared = UnknownFields.in(patch, builtin).stream()
                        .map(f -> "." + f.path() + ": field not declared in schema").toList();
                if (!undeclared.isEmpty()) {
                    // smd.go: typeConverter.ObjectToTyped(patch) validates against the kind's OpenAPI schema
                    return new Result(null, ApplyConfigurations.UNDECLARED_PREFIX + String.join(", ", undeclared));
                }
            }
            ApplyConfigurations.Merged merged = schema != null
                    ? ApplyConfigurations.merge(object, (ObjectNode) patch, schema)
                    : ApplyConfigurations.merge(object, (ObjectNode) patch, group);
            return new Result(merged.object(), merged.error());
        }
        if (type.equals("JSONPatch")) {
            Expressions r = evaluate(context, ExpressionKind.MUTATION_JSON_PATCH,
                    mutation.path("jsonPatch").path("expression").asText(""));
            if (r.failed()) {
                return new Result(null, r.error());
            }
            List<ObjectValue> values = new ArrayList<>();
            if (r.value() instanceof List<?> ops) {
                ops.forEach(op -> {
                    if (op instanceof Map<?, ?> m && m.get("value") instanceof ObjectValue o) {
                        values.add(o);
                    }
                });
            }
            String mismatch = typeMismatch(values);
            if (mismatch != null) {
                return new Result(null, mismatch);
            }
            Object ops = r.value();
            JsonPatches.Patched patched = builtin == null ? JsonPatches.apply(object, ops)
                    : TypedEncoding.apply(object, builtin, encoded -> JsonPatches.apply(encoded, ops));
            if (patched.error() == null && builtin != null) {
                String strict = strictDecodingError(object, patched.object(), builtin);
                if (strict != null) {
                    return new Result(null, strict, true);
                }
            }
            return new Result(patched.object(), patched.error());
        }
        return new Result(null, "unsupported patchType '" + type + "'");
    }

    /**
     * A mutation's expression with a fresh budget of its own (each mutation is its own ForInput run upstream). An
     * expression that does not compile, or whose type is not the mutation's ({@code plugin/cel/compile.go}: {@code
     * must evaluate to Object but got Object.spec}), fails every request it is evaluated for: the patchers return
     * {@code errors.Join(CompilationErrors()...)} before evaluating ({@code json_patch.go}, {@code smd.go}), the
     * error's text without the {@code compilation error:} prefix validations get.
     */
    private static Expressions evaluate(PolicyExpressions.Context context, ExpressionKind kind, String expression) {
        String compileError = context.compileError(kind, expression);
        if (compileError != null) {
            return new Expressions(null, compileError);
        }
        Expressions.ForInput evaluated = Expressions.forInput(context, kind, expression, CelEvaluator.CostBudget.perPolicy());
        return evaluated.outOfBudget() ? new Expressions(null, evaluated.error()) : evaluated.results().get(0);
    }

    /**
     * {@code json_patch.go}: the patched JSON is decoded into the kind's Go type by a strict serializer, and an
     * unknown field fails the request as an internal error ({@code apierrors.NewInternalError}: {@code Internal error
     * occurred: strict decoding error: unknown field "spec.replicaz"}, HTTP 500 whatever the failurePolicy, as
     * {@code dispatcher.go} returns a StatusError at once; measured on kube-apiserver 1.37.2). Only fields the patch added count: the request's own object was decoded by the same
     * server, so a field the model here does not know but the object already had is one the server knows.
     */
    private static String strictDecodingError(ObjectNode before, ObjectNode after, Schema builtin) {
        Set<String> known = new HashSet<>();
        UnknownFields.in(before, builtin).forEach(f -> known.add(f.path()));
        List<String> unknown = UnknownFields.in(after, builtin).stream().map(UnknownFields.UnknownField::path)
                .filter(p -> !known.contains(p)).map(p -> "unknown field \"" + p + "\"").toList();
        return unknown.isEmpty() ? null : "Internal error occurred: strict decoding error: " + String.join(", ", unknown);
    }

    /**
     * {@code CheckTypeNamesMatchFieldPathNames} on an apply configuration or each JSONPatch value built with an
     * initializer ({@code smd.go}, {@code json_patch.go}): {@code type mismatch: <errors joined by newlines>}.
     */
    private static String typeMismatch(List<ObjectValue> values) {
        List<String> errors = new ArrayList<>();
        values.forEach(v -> errors.addAll(v.typeNameMismatches()));
        return errors.isEmpty() ? null : "type mismatch: " + String.join("\n", errors);
    }

    /** A CEL result as JSON-able Java: maps, lists, strings, numbers, booleans, null; bytes as base64. */
    static Object plain(Object v) {
        if (v == null || v instanceof NullValue) {
            return null;
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, x) -> out.put(String.valueOf(k), plain(x)));
            return out;
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            l.forEach(x -> out.add(plain(x)));
            return out;
        }
        if (v instanceof ByteString b) {
            return Base64.getEncoder().encodeToString(b.toByteArray());
        }
        if (v instanceof String || v instanceof Number || v instanceof Boolean) {
            return v;
        }
        return v.toString();
    }
}

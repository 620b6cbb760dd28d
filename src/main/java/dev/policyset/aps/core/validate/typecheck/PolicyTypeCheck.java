package dev.policyset.aps.core.validate.typecheck;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cel.common.types.CelType;
import dev.policyset.aps.core.cel.CelChecker;
import dev.policyset.aps.core.cel.ExpressionKind;
import dev.policyset.aps.core.cel.KubernetesCelChecker;
import dev.policyset.aps.core.cel.KubernetesCelEnvironment;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.schema.GroupVersionKind;
import dev.policyset.aps.core.schema.ResourceType;
import dev.policyset.aps.core.schema.Schema;
import dev.policyset.aps.core.schema.SchemaSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every CEL expression of one ValidatingAdmissionPolicy or MutatingAdmissionPolicy compiled with {@code object},
 * {@code oldObject} and {@code params} typed from the schemas of the kinds it matches and of its paramKind, once per
 * matched kind: the API server's type checker ({@code plugin/policy/validating/typechecking.go: TypeChecker.Check},
 * which checks validations and messageExpressions; this also checks variables, matchConditions, auditAnnotations and
 * MAP mutations, all in the same composition environment as upstream's {@code CompileAndStoreVariables}).
 *
 * <p>Each expression is also compiled untyped (as at create time): one that does not compile there is an
 * {@code api/Invalid} finding already and is not reported again.
 */
public final class PolicyTypeCheck {
    private static final KubernetesCelChecker CHECKER = new KubernetesCelChecker();

    /** One expression: its field, kind, text, and the variable it declares (null for other kinds). */
    public record Expression(String field, ExpressionKind kind, String expression, String variable) {
    }

    /**
     * The typed compile of the expressions against one matched kind, and what the type checker finds in each (by
     * field; absent when fine): the API server's error lines that can happen for this kind ({@link KindNarrowing}),
     * or a result-type error. For a kind a wildcard matched, only the expressions no earlier wildcard kind accepted
     * are compiled (a wildcard finding needs every kind to fail; once one accepts, the rest need not be checked).
     */
    public record KindResult(GroupVersionKind gvk, boolean wildcard, Map<String, KubernetesCelEnvironment.Compiled> compiled,
                             Map<String, Schema> schemas, Map<String, List<String>> problems) {
    }

    /**
     * @param untyped   the create-time compile of each expression (by field)
     * @param kinds     one result per matched kind that has a schema
     * @param unknown   matched kinds no schema source knows (checked as {@code dyn}, not reported)
     * @param wildcardKinds how many kinds the wildcards matched (with a schema)
     * @param paramsKind the paramKind, when there is one; {@code paramsTyped} whether its schema was found
     */
    public record Result(List<Expression> expressions, Map<String, KubernetesCelEnvironment.Compiled> untyped,
                         List<KindResult> kinds, List<GroupVersionKind> unknown, GroupVersionKind paramsKind,
                         boolean paramsTyped, int wildcardKinds) {
    }

    private PolicyTypeCheck() {
    }

    /** Identity-keyed: one result per (manifest, schema source, version), shared by APS602 and APS603. */
    private record Key(JsonNode manifest, SchemaSource schemas, KubeVersion version) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.manifest == manifest && k.schemas == schemas && k.version.equals(version);
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(manifest) * 31 + System.identityHashCode(schemas);
        }
    }

    private static final Map<Key, Optional<Result>> RESULTS = dev.policyset.aps.core.util.BoundedMaps.leastRecentlyUsed(256);

    /** The check of a policy; empty for other kinds. */
    public static Optional<Result> of(AdmissionKind kind, JsonNode manifest, SchemaSource schemas, KubeVersion version) {
        if (kind != AdmissionKind.VALIDATING_ADMISSION_POLICY && kind != AdmissionKind.MUTATING_ADMISSION_POLICY) {
            return Optional.empty();
        }
        Key key = new Key(manifest, schemas, version);
        Optional<Result> known = RESULTS.get(key);
        if (known != null) {
            return known;
        }
        Optional<Result> result = Optional.of(check(kind, manifest, schemas, version));
        RESULTS.put(key, result);
        return result;
    }

    private static Result check(AdmissionKind kind, JsonNode manifest, SchemaSource schemas, KubeVersion version) {
        JsonNode spec = manifest.path("spec");
        CelChecker.PolicyType type = kind == AdmissionKind.VALIDATING_ADMISSION_POLICY
                ? CelChecker.PolicyType.VALIDATING : CelChecker.PolicyType.MUTATING;
        boolean hasParams = spec.hasNonNull("paramKind");
        List<Expression> expressions = expressions(kind, spec);

        KubernetesCelChecker.KubeScope untypedScope = CHECKER.newTypedScope(type, hasParams, version, null);
        Map<String, KubernetesCelEnvironment.Compiled> untyped = compileAll(untypedScope, expressions, null);

        GroupVersionKind paramsKind = null;
        SchemaCelTypes.Typed paramsTypes = null;
        if (hasParams) {
            String apiVersion = spec.path("paramKind").path("apiVersion").asText("");
            String paramKindName = spec.path("paramKind").path("kind").asText("");
            if (!apiVersion.isEmpty() && !paramKindName.isEmpty()) {
                paramsKind = GroupVersionKind.of(apiVersion, paramKindName);
                Optional<Schema> schema = schemas.schema(paramsKind);
                if (schema.isPresent()) {
                    paramsTypes = SchemaCelTypes.of(schema.get(), "params." + paramKindName);
                }
            }
        }
        List<KindResult> kinds = new ArrayList<>();
        List<GroupVersionKind> unknown = new ArrayList<>();
        // expressions no wildcard kind has accepted yet (those that do not compile untyped are api/Invalid already)
        java.util.Set<String> pending = new java.util.LinkedHashSet<>();
        untyped.forEach((field, c) -> {
            if (c.ok()) {
                pending.add(field);
            }
        });
        int wildcardKinds = 0;
        List<MatchedKinds.Matched> matched = MatchedKinds.of(spec.path("matchConstraints"), schemas);
        boolean multiKind = matched.size() > 1;
        for (MatchedKinds.Matched m : matched) {
            Optional<Schema> schema = schemas.schema(m.gvk());
            if (schema.isEmpty()) {
                unknown.add(m.gvk());
                continue;
            }
            if (m.wildcard()) {
                wildcardKinds++;
                if (pending.isEmpty()) {
                    continue;
                }
            }
            ResourceType resource = m.resource();
            SchemaCelTypes.Typed objectTypes = SchemaCelTypes.of(schema.get(), m.gvk().kind());
            KubernetesCelEnvironment.RootTypes roots = roots(objectTypes, paramsTypes);
            Map<String, KubernetesCelEnvironment.Compiled> compiled = compileAll(
                    CHECKER.newTypedScope(type, hasParams, version, roots), expressions, m.wildcard() ? pending : null);
            Map<String, List<String>> problems = new LinkedHashMap<>();
            for (Expression e : expressions) {
                KubernetesCelEnvironment.Compiled u = untyped.get(e.field());
                KubernetesCelEnvironment.Compiled t = compiled.get(e.field());
                if (u == null || !u.ok() || t == null) {
                    continue;
                }
                List<String> found = problems(e, u, t, untypedScope.environment(e.kind()), resource, schema.get(), multiKind);
                if (!found.isEmpty()) {
                    problems.put(e.field(), found);
                } else if (m.wildcard()) {
                    pending.remove(e.field());
                }
            }
            Map<String, Schema> typeSchemas = new HashMap<>(objectTypes.schemas());
            if (paramsTypes != null) {
                typeSchemas.putAll(paramsTypes.schemas());
            }
            kinds.add(new KindResult(m.gvk(), m.wildcard(), compiled, typeSchemas, problems));
        }
        return new Result(expressions, untyped, kinds, unknown, paramsKind, paramsTypes != null, wildcardKinds);
    }

    /** The type checker's complaints about one typed compile that can happen for the kind; empty when fine. */
    private static List<String> problems(Expression e, KubernetesCelEnvironment.Compiled untyped,
                                         KubernetesCelEnvironment.Compiled typed, KubernetesCelEnvironment untypedEnv,
                                         ResourceType kind, Schema schema, boolean multiKind) {
        if (!typed.ok()) {
            String message = typed.error();
            message = message.startsWith("compilation failed: ") ? message.substring("compilation failed: ".length()) : message;
            List<String> remaining;
            try {
                remaining = new KindNarrowing(untyped, untypedEnv, kind, schema, message, multiKind).remaining();
            } catch (RuntimeException ex) {
                remaining = List.of(message.lines().findFirst().orElse(message));
            }
            return remaining.stream().filter(line -> !StructuralTyping.nominalOnly(line)).toList();
        }
        if (typed.resultType().kind() == dev.cel.common.types.CelKind.DYN) {
            return List.of();
        }
        return KubernetesCelChecker.resultTypeError(e.kind(), typed.resultType()).map(List::of).orElse(List.of());
    }

    /** One RootTypes per (object types, params types) pair, so that environments are cached across policies. */
    private static final Map<SchemaCelTypes.Typed, Map<Object, KubernetesCelEnvironment.RootTypes>> ROOTS =
            Collections.synchronizedMap(new IdentityHashMap<>());
    private static final Object NO_PARAMS = new Object();

    private static KubernetesCelEnvironment.RootTypes roots(SchemaCelTypes.Typed object, SchemaCelTypes.Typed params) {
        Map<Object, KubernetesCelEnvironment.RootTypes> byParams = ROOTS.computeIfAbsent(object,
                o -> Collections.synchronizedMap(new IdentityHashMap<>()));
        return byParams.computeIfAbsent(params == null ? NO_PARAMS : params, p -> {
            List<CelType> types = new ArrayList<>(object.structs());
            if (params != null) {
                types.addAll(params.structs());
            }
            return new KubernetesCelEnvironment.RootTypes(object.root(), params == null ? null : params.root(), types);
        });
    }

    /** Compiles in order; with {@code only}, just those fields (and every variable, which later ones need). */
    private static Map<String, KubernetesCelEnvironment.Compiled> compileAll(KubernetesCelChecker.KubeScope scope,
                                                                          List<Expression> expressions,
                                                                          java.util.Set<String> only) {
        Map<String, KubernetesCelEnvironment.Compiled> out = new LinkedHashMap<>();
        for (Expression e : expressions) {
            if (only != null && e.variable() == null && !only.contains(e.field())) {
                continue;
            }
            KubernetesCelEnvironment.Compiled compiled;
            try {
                compiled = scope.compile(e.kind(), e.expression());
            } catch (RuntimeException ex) {
                continue; // cel/Unchecked reports checker failures
            }
            out.put(e.field(), compiled);
            if (e.variable() != null && !e.variable().isEmpty()) {
                scope.declareVariable(e.variable(), e.expression());
            }
        }
        return out;
    }

    /** Every expression of a policy, in the order the API server compiles them (variables first). */
    static List<Expression> expressions(AdmissionKind kind, JsonNode spec) {
        List<Expression> out = new ArrayList<>();
        JsonNode vars = spec.path("variables");
        for (int i = 0; i < vars.size(); i++) {
            add(out, "spec.variables[" + i + "].expression", ExpressionKind.VARIABLE, vars.get(i).path("expression"),
                    vars.get(i).path("name").asText(""));
        }
        JsonNode conditions = spec.path("matchConditions");
        for (int i = 0; i < conditions.size(); i++) {
            add(out, "spec.matchConditions[" + i + "].expression", ExpressionKind.MATCH_CONDITION,
                    conditions.get(i).path("expression"), null);
        }
        if (kind == AdmissionKind.VALIDATING_ADMISSION_POLICY) {
            JsonNode validations = spec.path("validations");
            for (int i = 0; i < validations.size(); i++) {
                add(out, "spec.validations[" + i + "].expression", ExpressionKind.VALIDATION,
                        validations.get(i).path("expression"), null);
                add(out, "spec.validations[" + i + "].messageExpression", ExpressionKind.MESSAGE_EXPRESSION,
                        validations.get(i).path("messageExpression"), null);
            }
            JsonNode audits = spec.path("auditAnnotations");
            for (int i = 0; i < audits.size(); i++) {
                add(out, "spec.auditAnnotations[" + i + "].valueExpression", ExpressionKind.AUDIT_ANNOTATION_VALUE,
                        audits.get(i).path("valueExpression"), null);
            }
        } else {
            JsonNode mutations = spec.path("mutations");
            for (int i = 0; i < mutations.size(); i++) {
                add(out, "spec.mutations[" + i + "].applyConfiguration.expression", ExpressionKind.MUTATION_APPLY_CONFIGURATION,
                        mutations.get(i).path("applyConfiguration").path("expression"), null);
                add(out, "spec.mutations[" + i + "].jsonPatch.expression", ExpressionKind.MUTATION_JSON_PATCH,
                        mutations.get(i).path("jsonPatch").path("expression"), null);
            }
        }
        return out;
    }

    private static void add(List<Expression> out, String field, ExpressionKind kind, JsonNode expression, String variable) {
        if (expression != null && expression.isTextual() && !expression.asText().isBlank()) {
            out.add(new Expression(field, kind, expression.asText(), variable));
        }
    }
}

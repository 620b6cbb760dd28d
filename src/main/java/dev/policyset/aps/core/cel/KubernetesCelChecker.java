package dev.policyset.aps.core.cel;

import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.policyset.aps.core.model.KubeVersion;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The API server's create-time CEL check ({@code admission/plugin/cel/compile.go: CompileCELExpression}
 * with the variable sets of {@code validation.go}) on {@link KubernetesCelEnvironment}. Which variables an
 * expression sees (reference §6.2):
 *
 * <ul>
 *   <li>all: {@code object}, {@code oldObject}, {@code request}, {@code namespaceObject};
 *       {@code params} when the policy has a paramKind (never for webhooks);</li>
 *   <li>{@code authorizer}: everywhere but a {@code messageExpression};</li>
 *   <li>{@code variables}: the earlier variables for a variable (a later or unknown one is an
 *       {@code undefined field}); every variable for validations,
 *       messageExpressions and auditAnnotations of a policy that has variables; always for MAP mutations;
 *       never for matchConditions;</li>
 *   <li>{@code Object}, {@code JSONPatch}, {@code jsonpatch.escapeKey}: MAP mutations only.</li>
 * </ul>
 *
 * The result type must be exactly the kind's ({@code must evaluate to bool but got dyn}). Expressions
 * compile at the server's CEL compatibility version (server minor − 1).
 */
public final class KubernetesCelChecker implements CelChecker {
    @Override
    public Scope newScope(PolicyType type, boolean hasParams, KubeVersion version) {
        return new KubeScope(type, type != PolicyType.WEBHOOK && hasParams, version.celCompatibilityVersion(), null);
    }

    /**
     * A scope whose {@code object}, {@code oldObject} and {@code params} have the given types instead of {@code dyn}:
     * the API server's type checker ({@code plugin/policy/validating/typechecking.go}). Variables declared in it
     * get the types their expressions have there.
     */
    public KubeScope newTypedScope(PolicyType type, boolean hasParams, KubeVersion version,
                                   KubernetesCelEnvironment.RootTypes roots) {
        return new KubeScope(type, type != PolicyType.WEBHOOK && hasParams, version.celCompatibilityVersion(), roots);
    }

    /**
     * The environment an expression of {@code kind} is compiled in, for a policy whose
     * {@code spec.variables} are {@code variables} (name to expression, in order; empty when it has none).
     * For evaluating ({@link CelEvaluator}) with the same declarations the check uses.
     */
    public KubernetesCelEnvironment environment(PolicyType type, boolean hasParams, KubeVersion serverVersion,
                                                Map<String, String> variables, ExpressionKind kind) {
        KubeScope scope = (KubeScope) newScope(type, hasParams, serverVersion);
        variables.forEach(scope::declareVariable);
        return scope.environment(kind);
    }

    /** The result type an expression kind must have, as cel-go prints it; empty for "any". */
    static List<String> requiredTypes(ExpressionKind kind) {
        return switch (kind) {
            case VALIDATION, MATCH_CONDITION, WEBHOOK_MATCH_CONDITION -> List.of("bool");
            case MESSAGE_EXPRESSION -> List.of("string");
            case AUDIT_ANNOTATION_VALUE -> List.of("string", "null_type");
            case MUTATION_APPLY_CONFIGURATION -> List.of(MutationLibrary.OBJECT);
            case MUTATION_JSON_PATCH -> List.of("list(" + MutationLibrary.JSON_PATCH.name() + ")");
            case VARIABLE -> List.of();
        };
    }

    /** The {@code must evaluate to ...} error for a checked result type, if it is not allowed. */
    public static Optional<String> resultTypeError(ExpressionKind kind, CelType result) {
        List<String> required = requiredTypes(kind);
        if (required.isEmpty()) {
            return Optional.empty();
        }
        String got = KubeCelTypes.format(result);
        if (required.contains(got) && exact(result)) {
            return Optional.empty();
        }
        if (required.size() == 1) {
            return Optional.of("must evaluate to " + required.get(0) + " but got " + got);
        }
        return Optional.of("must evaluate to one of [" + String.join(" ", required) + "] but got " + got);
    }

    /** No type parameters left ({@code list(%T)} is not {@code list(JSONPatch)}). */
    private static boolean exact(CelType type) {
        if (type.kind() == CelKind.TYPE_PARAM) {
            return false;
        }
        if (type instanceof ListType list) {
            return exact(list.elemType());
        }
        return true;
    }

    /** The variables declared so far, and the environment each expression kind compiles in. */
    public static final class KubeScope implements Scope {
        private final PolicyType type;
        private final boolean params;
        private final KubeVersion compatibility;
        private final KubernetesCelEnvironment.RootTypes roots;
        private final Map<String, CelType> variables = new LinkedHashMap<>();
        private boolean hasVariables;

        KubeScope(PolicyType type, boolean params, KubeVersion compatibility, KubernetesCelEnvironment.RootTypes roots) {
            this.type = type;
            this.params = params;
            this.compatibility = compatibility;
            this.roots = roots;
        }

        /** Compiles one expression in this scope, with its checked AST (no result-type check, no declaration). */
        public KubernetesCelEnvironment.Compiled compile(ExpressionKind kind, String expression) {
            return environment(kind).compile(expression);
        }

        @Override
        public Optional<String> declareVariable(String name, String expression) {
            KubernetesCelEnvironment env = environment(ExpressionKind.VARIABLE);
            KubernetesCelEnvironment.Compiled compiled = env.compile(expression);
            hasVariables = true;
            variables.put(name, compiled.ok() ? compiled.resultType() : SimpleType.DYN);
            return Optional.ofNullable(compiled.error());
        }

        @Override
        public Optional<String> check(ExpressionKind kind, String expression) {
            KubernetesCelEnvironment.Compiled compiled = environment(kind).compile(expression);
            if (kind == ExpressionKind.VARIABLE) {
                // a variable checked without being declared (its name is invalid) still makes spec.variables non-empty
                hasVariables = true;
            }
            if (!compiled.ok()) {
                return Optional.of(compiled.error());
            }
            return resultTypeError(kind, compiled.resultType());
        }

        /** The environment an expression of {@code kind} compiles in, with the variables declared so far. */
        public KubernetesCelEnvironment environment(ExpressionKind kind) {
            boolean webhook = type == PolicyType.WEBHOOK || kind == ExpressionKind.WEBHOOK_MATCH_CONDITION;
            boolean mutation = kind == ExpressionKind.MUTATION_APPLY_CONFIGURATION
                    || kind == ExpressionKind.MUTATION_JSON_PATCH;
            boolean authorizer = kind != ExpressionKind.MESSAGE_EXPRESSION;
            Map<String, CelType> vars = switch (kind) {
                case MATCH_CONDITION, WEBHOOK_MATCH_CONDITION -> null;
                case MUTATION_APPLY_CONFIGURATION, MUTATION_JSON_PATCH -> variables;
                // the composition environment declares variables (so far) for each variable
                case VARIABLE -> variables;
                default -> hasVariables ? variables : null;
            };
            return KubernetesCelEnvironment.create(compatibility, new KubernetesCelEnvironment.Declarations(
                    params && !webhook, authorizer, mutation, vars, webhook ? null : roots));
        }
    }
}

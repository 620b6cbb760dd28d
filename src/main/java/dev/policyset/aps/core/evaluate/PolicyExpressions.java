package dev.policyset.aps.core.evaluate;

import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.policyset.aps.core.cel.CelChecker;
import dev.policyset.aps.core.cel.CelEvaluator;
import dev.policyset.aps.core.cel.ExpressionKind;
import dev.policyset.aps.core.cel.KubernetesCelChecker;
import dev.policyset.aps.core.cel.KubernetesCelEnvironment;
import dev.policyset.aps.core.cel.lib.CelAuthorizer;
import dev.policyset.aps.core.model.KubeVersion;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one path by which {@code aps test} (and the cel-eval suite) evaluates CEL: one policy's expressions,
 * compiled in the environments the API server compiles them in ({@link KubernetesCelChecker#environment}),
 * evaluated with {@link CelEvaluator}.
 *
 * <p><b>Variables</b> ({@code spec.variables}) are evaluated lazily and at most once per {@link Run}, as
 * upstream's composition environment does ({@code k8s.io/apiserver/pkg/admission/plugin/cel/composition.go:
 * compositionContext.Variables} gives each activation a {@code lazy.MapValue} that caches each result): an
 * expression evaluates only the variables it names (and those they name), a value computed for one expression
 * is reused by the next of the same run, and a variable that fails fails only the expressions that read it,
 * with upstream's {@code composited variable "x" fails to evaluate: ...}.
 */
public final class PolicyExpressions {
    private static final KubernetesCelChecker CHECKER = new KubernetesCelChecker();

    private final CelChecker.PolicyType type;
    private final boolean hasParams;
    private final KubeVersion serverVersion;
    private final LinkedHashMap<String, String> variables;

    /**
     * @param variables name to expression, in declaration order (empty when the policy has none)
     */
    public PolicyExpressions(CelChecker.PolicyType type, boolean hasParams, KubeVersion serverVersion,
                             Map<String, String> variables) {
        this.type = type;
        this.hasParams = hasParams;
        this.serverVersion = serverVersion;
        this.variables = new LinkedHashMap<>(variables);
    }

    /** A scope for one request and one param: the variable cache lives as long as it does. */
    public Context context(CelEvaluator.Activation activation) {
        return new Context(activation);
    }

    /**
     * One expression outside any policy (the cel-eval suite): compiled and evaluated in a policy of
     * {@code type} with a paramKind and no variables, on a server whose CEL compatibility version is
     * {@code celVersion}.
     */
    public static CelEvaluator.Result evaluate(CelChecker.PolicyType type, KubeVersion celVersion, ExpressionKind kind,
                                               String expression, CelEvaluator.Activation activation) {
        KubeVersion server = new KubeVersion(celVersion.major(), celVersion.minor() + 1);
        return new PolicyExpressions(type, true, server, Map.of()).context(activation).evaluate(kind, expression);
    }

    private KubernetesCelEnvironment environment(Map<String, String> declared, ExpressionKind kind) {
        return CHECKER.environment(type, hasParams, serverVersion, declared, kind);
    }

    /**
     * The environment of {@code kind} with every variable declared, or with those before {@code variable} (for a
     * variable's own expression). Worked out once per policy: declaring the variables compiles each of them, which
     * cost more than evaluating a simple rule.
     */
    private KubernetesCelEnvironment environment(ExpressionKind kind, String variable) {
        return environments.computeIfAbsent(kind + "/" + (variable == null ? "" : variable),
                k -> environment(variable == null ? variables : variablesBefore(variable), kind));
    }

    private final Map<String, KubernetesCelEnvironment> environments = new java.util.concurrent.ConcurrentHashMap<>();

    /** Variables before {@code name}, the ones its expression may read. */
    private Map<String, String> variablesBefore(String name) {
        Map<String, String> before = new LinkedHashMap<>();
        for (Map.Entry<String, String> v : variables.entrySet()) {
            if (v.getKey().equals(name)) {
                break;
            }
            before.put(v.getKey(), v.getValue());
        }
        return before;
    }

    /**
     * One request and one param: the activation its expressions see. Variables are cached per {@link Run}, as
     * upstream caches them per activation (below).
     */
    public final class Context {
        private CelEvaluator.Activation activation;

        private Context(CelEvaluator.Activation activation) {
            use(activation);
        }

        /**
         * Later runs see {@code activation}: a MutatingAdmissionPolicy's next mutation sees the object the previous
         * one produced ({@code mutating/dispatcher.go: dispatchOne} sets {@code VersionedObject}, and the next
         * {@code ForInput} builds its activation from it).
         */
        public void use(CelEvaluator.Activation activation) {
            this.activation = new CelEvaluator.Activation(activation.object(), activation.oldObject(),
                    activation.params(), activation.request(), activation.namespaceObject(), activation.authorizer(),
                    null);
        }

        /**
         * The same request with no {@code authorizer} bound ({@link CelAuthorizer#UNBOUND}): what a
         * ValidatingAdmissionPolicy's messageExpressions and auditAnnotations, and the variables they read, see.
         */
        public Context withoutAuthorizer() {
            return new Context(new CelEvaluator.Activation(activation.object(), activation.oldObject(), activation.params(),
                    activation.request(), activation.namespaceObject(), CelAuthorizer.UNBOUND, null));
        }

        /**
         * A fresh variable cache for one upstream {@code ForInput} (one list of expressions: the matchConditions,
         * the validations, the messageExpressions, the auditAnnotations, one mutation): {@code cel/activation.go:
         * newActivation} calls {@code compositionCtx.Variables(va)}, which makes a new {@code lazy.MapValue} per
         * activation, so a variable is evaluated at most once per run and again in the next run.
         */
        public Run run() {
            return new Run(activation);
        }

        /** Compiles (cached) and evaluates one expression in a run of its own. */
        public CelEvaluator.Result evaluate(ExpressionKind kind, String expression) {
            return run().evaluate(kind, expression);
        }

        /**
         * Why the API server's compiler refuses {@code expression} as a {@code kind}, or null: a compile error, or
         * a result type other than the kind's ({@code plugin/cel/compile.go}: {@code must evaluate to X but got Y}).
         */
        public String compileError(ExpressionKind kind, String expression) {
            KubernetesCelEnvironment.Compiled compiled = environment(variables, kind).compile(expression);
            if (!compiled.ok()) {
                return compiled.error();
            }
            return KubernetesCelChecker.resultTypeError(kind, compiled.resultType()).orElse(null);
        }
    }

    /** The evaluation state of one run: variable values, failures and the cost of computing them. */
    public final class Run {
        private final CelEvaluator.Activation activation;
        private final Map<String, Object> values = new HashMap<>();
        private final Map<String, String> failures = new HashMap<>();
        private long variableCost;

        private Run(CelEvaluator.Activation activation) {
            this.activation = activation;
        }

        /**
         * Compiles (cached) and evaluates one expression; the variables it reads are evaluated first (those not
         * yet evaluated in this run), their cost kept apart ({@link #variableCost()}), as upstream's composition
         * context reports it apart from the expression's own {@code ActualCost}.
         */
        public CelEvaluator.Result evaluate(ExpressionKind kind, String expression) {
            variableCost = 0;
            KubernetesCelEnvironment env = environment(kind, null);
            return evaluate(env, expression);
        }

        /**
         * The runtime cost of the variables the last {@link #evaluate} computed (0 when it read none or only cached
         * ones): {@code composition.go: compositionContext.GetAndResetCost}, each variable's {@code ActualCost}, a
         * failed one's too.
         */
        public long variableCost() {
            return variableCost;
        }

        private CelEvaluator.Result evaluate(KubernetesCelEnvironment env, String expression) {
            KubernetesCelEnvironment.Compiled compiled = env.compile(expression);
            if (!compiled.ok()) {
                return new CelEvaluator.Result(null, null, compiled.error());
            }
            if (env.declarations().variables() == null) {
                return CelEvaluator.evaluate(env, compiled, activation, (Map<String, Object>) null);
            }
            Set<String> used = referencedVariables(env, compiled);
            for (String name : used) {
                resolve(name);
            }
            Map<String, Object> visible = new HashMap<>();
            for (String name : env.declarations().variables().keySet()) {
                if (values.containsKey(name)) {
                    visible.put(name, values.get(name));
                }
            }
            CelEvaluator.Result result = CelEvaluator.evaluate(env, compiled, activation, visible);
            if (result.error() != null) {
                for (String name : used) {
                    if (failures.containsKey(name) && result.error().contains("no such key: " + name)) {
                        return new CelEvaluator.Result(null, failures.get(name), null, result.cost());
                    }
                }
            }
            return result;
        }

        private void resolve(String name) {
            if (values.containsKey(name) || failures.containsKey(name) || !variables.containsKey(name)) {
                return;
            }
            KubernetesCelEnvironment env = environment(ExpressionKind.VARIABLE, name);
            CelEvaluator.Result r = evaluate(env, variables.get(name));
            variableCost += r.cost();
            if (r.compileError() != null) {
                failures.put(name, "composited variable \"" + name + "\" fails to compile: " + r.compileError());
            } else if (r.error() != null) {
                failures.put(name, "composited variable \"" + name + "\" fails to evaluate: " + r.error());
            } else {
                values.put(name, r.celValue());
            }
        }
    }

    /**
     * The variables an expression reads ({@code variables.x}, {@code has(variables.x)}, {@code variables.?x});
     * all of them when it uses {@code variables} any other way.
     */
    private Set<String> referencedVariables(KubernetesCelEnvironment env, KubernetesCelEnvironment.Compiled compiled) {
        return referenced.computeIfAbsent(env, e -> new java.util.concurrent.ConcurrentHashMap<>())
                .computeIfAbsent(compiled.expression(), e -> referencedVariablesOf(compiled));
    }

    /** By environment and expression text, which determine the tree: an AST walk per evaluation cost 6% of a scan. */
    private final Map<KubernetesCelEnvironment, Map<String, Set<String>>> referenced =
            java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());

    private Set<String> referencedVariablesOf(KubernetesCelEnvironment.Compiled compiled) {
        Set<String> names = new LinkedHashSet<>();
        List<CelExpr> idents = new ArrayList<>();
        int[] selected = {0};
        CelNavigableAst.fromAst(compiled.ast()).getRoot().allNodes().map(CelNavigableExpr::expr).forEach(e -> {
            if (e.getKind() == CelExpr.ExprKind.Kind.IDENT && e.ident().name().equals("variables")) {
                idents.add(e);
            } else if (e.getKind() == CelExpr.ExprKind.Kind.SELECT && isVariables(e.select().operand())) {
                names.add(e.select().field());
                selected[0]++;
            } else if (e.getKind() == CelExpr.ExprKind.Kind.CALL && e.call().function().equals("_?._")
                    && e.call().args().size() == 2 && isVariables(e.call().args().get(0))
                    && e.call().args().get(1).getKind() == CelExpr.ExprKind.Kind.CONSTANT) {
                names.add(e.call().args().get(1).constant().stringValue());
                selected[0]++;
            }
        });
        if (idents.size() > selected[0]) {
            return new LinkedHashSet<>(variables.keySet());
        }
        // a variable's dependencies are resolved when it is; keep declaration order for determinism
        Set<String> ordered = new LinkedHashSet<>();
        variables.keySet().stream().filter(names::contains).forEach(ordered::add);
        return ordered;
    }

    private static boolean isVariables(CelExpr e) {
        return e.getKind() == CelExpr.ExprKind.Kind.IDENT && e.ident().name().equals("variables");
    }
}

package dev.policyset.aps.core.cel;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.values.NullValue;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.policyset.aps.core.cel.cost.CostConstants;
import dev.policyset.aps.core.cel.cost.RuntimeCost;
import dev.policyset.aps.core.cel.lib.AuthorizerValues;
import dev.policyset.aps.core.cel.lib.CelAuthorizer;
import dev.policyset.aps.core.cel.lib.KubernetesLibraries;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Compiles and evaluates one expression with admission values, the way the API server does when a
 * request arrives; for {@code aps test} and the cel-eval suite.
 *
 * <p><b>Cost.</b> The API server stops an evaluation whose runtime cost exceeds
 * {@code celconfig.PerCallLimit} (1,000,000) with {@code operation cancelled: actual cost limit exceeded},
 * and a policy whose expressions together exceed {@code celconfig.RuntimeCELCostBudget} with
 * {@code validation failed due to running out of cost budget, ...}. The cost is counted as cel-go counts
 * it ({@link RuntimeCost}: each evaluation step, the Kubernetes library call costs); every
 * {@link Result} carries it, and a {@link CostBudget} shared by a policy's evaluations stops them where the
 * server would. Every comprehension is also capped at {@link #MAX_COMPREHENSION_ITERATIONS} iterations.
 */
public final class CelEvaluator {
    /** {@code k8s.io/apiserver/pkg/apis/cel/config.go: PerCallLimit}. */
    public static final long PER_CALL_LIMIT = CostConstants.PER_CALL_LIMIT;
    /** A backstop for a single comprehension, below the per-call limit. */
    static final int MAX_COMPREHENSION_ITERATIONS = 1_000_000;

    private CelEvaluator() {
    }

    /**
     * The runtime values. Absent ones ({@code null}) evaluate as CEL {@code null}. JSON values may come
     * straight from Jackson or SnakeYAML: numbers are normalised to {@code Long}/{@code Double}.
     *
     * @param request    the AdmissionRequest fields as a JSON-like map
     * @param authorizer answers {@code authorizer} checks; {@code null} denies everything
     * @param variables  variable name to expression, in order (VAP/MAP {@code spec.variables}), evaluated
     *                   in the expression's environment; {@code null} when there are none
     */
    public record Activation(Object object, Object oldObject, Object params, Map<String, Object> request,
                             Object namespaceObject, CelAuthorizer authorizer, Map<String, String> variables) {
        public static Activation empty() {
            return new Activation(null, null, null, null, null, null, null);
        }
    }

    /**
     * The outcome: exactly one of value, evaluation error, or compile error; and the runtime cost the
     * evaluation had when it ended (cel-go's {@code EvalDetails.ActualCost}; 0 for a compile error).
     */
    public static final class Result {
        private final String error;
        private final String compileError;
        private final long cost;
        /** The runtime's own value, when the result came from an evaluation. */
        private final Object runtimeValue;
        private volatile Object value;
        private volatile boolean converted;

        public Result(Object value, String error, String compileError) {
            this(value, error, compileError, 0);
        }

        public Result(Object value, String error, String compileError, long cost) {
            this.value = value;
            this.converted = true;
            this.error = error;
            this.compileError = compileError;
            this.cost = cost;
            this.runtimeValue = null;
        }

        /** An evaluation's value: {@link #value()} converts it when first asked (a variable's never is). */
        private Result(Object runtimeValue, long cost) {
            this.runtimeValue = runtimeValue;
            this.cost = cost;
            this.error = null;
            this.compileError = null;
        }

        public Object value() {
            if (!converted) {
                value = fromCel(runtimeValue);
                converted = true;
            }
            return value;
        }

        public String error() {
            return error;
        }

        public String compileError() {
            return compileError;
        }

        public long cost() {
            return cost;
        }

        /**
         * The value as a later expression reads it (a variable's): the runtime's own when it is plain JSON data
         * (converting it out and back in copied every object under it, per variable and request), else
         * {@link #toCel} of {@link #value()}.
         */
        public Object celValue() {
            return runtimeValue != null && isJsonData(runtimeValue) ? runtimeValue : toCel(value());
        }

        public boolean ok() {
            return error == null && compileError == null;
        }

        static Result value(Object v) {
            return new Result(v, null, null);
        }

        Result withCost(long c) {
            return runtimeValue != null ? new Result(runtimeValue, c) : new Result(value(), error, compileError, c);
        }

        static Result ofRuntime(Object runtimeValue, long cost) {
            return new Result(runtimeValue, cost);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Result r && java.util.Objects.equals(value(), r.value())
                    && java.util.Objects.equals(error, r.error) && java.util.Objects.equals(compileError, r.compileError)
                    && cost == r.cost;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(value(), error, compileError, cost);
        }

        @Override
        public String toString() {
            return "Result[value=" + value() + ", error=" + error + ", compileError=" + compileError + ", cost=" + cost + "]";
        }
    }

    /**
     * The runtime budget of one policy for one request ({@code celconfig.RuntimeCELCostBudget}, or
     * {@code RuntimeCELCostBudgetMatchConditions} for matchConditions), spent by each evaluation in turn as
     * {@code admission/plugin/cel/activation.go: Evaluate} does. Not thread-safe: one per request.
     */
    public static final class CostBudget {
        private long remaining;

        public CostBudget(long budget) {
            this.remaining = budget;
        }

        /** The policy budget of validations, variables, messageExpressions and auditAnnotations. */
        public static CostBudget perPolicy() {
            return new CostBudget(CostConstants.RUNTIME_CEL_COST_BUDGET);
        }

        /** The budget of one webhook's or binding's matchConditions. */
        public static CostBudget matchConditions() {
            return new CostBudget(CostConstants.RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS);
        }

        public long remaining() {
            return remaining;
        }

        public boolean exhausted() {
            return remaining < 0;
        }

        /**
         * Takes {@code cost} from what remains; when it is more, the budget is exhausted and the answer is false
         * ({@code activation.go: Evaluate}: {@code rtCost > remainingBudget} is out of budget, equal is not).
         */
        public boolean spend(long cost) {
            if (exhausted() || cost > remaining) {
                remaining = -1;
                return false;
            }
            remaining -= cost;
            return true;
        }
    }

    /** Compiles {@code expression} in {@code env} and evaluates it. */
    public static Result evaluate(KubernetesCelEnvironment env, String expression, Activation activation) {
        KubernetesCelEnvironment.Compiled compiled = env.compile(expression);
        if (!compiled.ok()) {
            return new Result(null, null, compiled.error());
        }
        return evaluate(env, compiled, activation);
    }

    /** Evaluates an already compiled expression. */
    public static Result evaluate(KubernetesCelEnvironment env, KubernetesCelEnvironment.Compiled compiled,
                                  Activation activation) {
        if (env.declarations().variables() == null) {
            return evaluate(env, compiled, activation, (Map<String, Object>) null);
        }
        Map<String, String> failures = new LinkedHashMap<>();
        Map<String, Object> variables = evaluateVariables(env, activation, failures);
        Result result = evaluate(env, compiled, activation, variables);
        if (result.error() != null && !failures.isEmpty()) {
            for (Map.Entry<String, String> f : failures.entrySet()) {
                if (result.error().equals("no such key: " + f.getKey())) {
                    return new Result(null, f.getValue(), null, result.cost());
                }
            }
        }
        return result;
    }

    /**
     * Evaluates within a policy's runtime budget: the evaluation's cost is taken from {@code budget}; when
     * it is more than what remains, the result is the API server's out-of-budget error (and the budget is
     * exhausted: the server runs no further expression of the policy).
     */
    public static Result evaluate(KubernetesCelEnvironment env, KubernetesCelEnvironment.Compiled compiled,
                                  Activation activation, CostBudget budget) {
        if (budget.exhausted()) {
            return new Result(null, CostConstants.OUT_OF_BUDGET, null);
        }
        Result result = evaluate(env, compiled, activation);
        if (!budget.spend(result.cost())) {
            return new Result(null, CostConstants.OUT_OF_BUDGET, null, result.cost());
        }
        return result;
    }

    /**
     * Evaluates with {@code variables} already computed by the caller (CEL values, see {@link #toCel}), so that a
     * caller can evaluate them lazily and once per run ({@code core.evaluate.PolicyExpressions}); a variable
     * missing from the map reads as {@code no such key: <name>}. {@code activation.variables()} is ignored.
     */
    public static Result evaluate(KubernetesCelEnvironment env, KubernetesCelEnvironment.Compiled compiled,
                                  Activation activation, Map<String, Object> variables) {
        Map<String, Object> vars = bindings(env, activation, variables);
        RuntimeCost cost = null;
        try {
            // has() as cel-go answers it; the checked AST itself stays as compiled (cost estimation reads it)
            KubernetesCelEnvironment.Prepared prepared = env.prepared(compiled);
            cost = new RuntimeCost(prepared.ast(), PER_CALL_LIMIT);
            Object value = prepared.program().trace(vars, cost);
            return Result.ofRuntime(value, cost.cost());
        } catch (CelEvaluationException | RuntimeException e) {
            long spent = cost == null ? 0 : cost.cost();
            if (hasCause(e, RuntimeCost.LimitExceeded.class)) {
                return new Result(null, CostConstants.COST_LIMIT_EXCEEDED, null, spent);
            }
            return new Result(null, CelErrors.evaluation(e, compiled.expression()), null, spent);
        }
    }

    private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    private static Map<String, Object> bindings(KubernetesCelEnvironment env, Activation a,
                                                Map<String, Object> variables) {
        Map<String, Object> vars = new HashMap<>();
        vars.put("object", toCel(a.object()));
        vars.put("oldObject", toCel(a.oldObject()));
        vars.put("namespaceObject", toCel(a.namespaceObject()));
        Map<String, Object> request = a.request() == null ? Map.of() : a.request();
        vars.put("request", toCel(request));
        KubernetesCelEnvironment.Declarations d = env.declarations();
        if (d.params()) {
            vars.put("params", toCel(a.params()));
        }
        if (d.authorizer() && a.authorizer() != CelAuthorizer.UNBOUND) {
            CelAuthorizer authorizer = a.authorizer() == null ? CelAuthorizer.DENY_ALL : a.authorizer();
            Optional<AuthorizerValues> values = KubernetesLibraries.authorizerValues();
            if (values.isPresent()) {
                String user = string(path(request, "userInfo", "username"));
                Object resource = request.get("resource");
                vars.put("authorizer", values.get().authorizer(authorizer, user));
                vars.put("authorizer.requestResource", values.get().requestResource(authorizer, user,
                        string(path(resource, "group")), string(path(resource, "resource")),
                        string(request.get("subResource")), string(request.get("namespace")),
                        string(request.get("name"))));
            }
        }
        if (d.variables() != null) {
            // a RuntimeMap, or the planner walks every variable's value at each read (the values are CEL values already)
            vars.put("variables", variables == null ? Map.of() : RuntimeMap.of(new HashMap<>(variables)));
        }
        return vars;
    }

    /**
     * {@code variables}: each variable evaluated once, in this environment. The API server evaluates them
     * lazily, so a failing variable fails only the expressions that use it. cel-java's planner copies a
     * map activation value, so laziness cannot be kept; instead a failing variable is left out of the map
     * and an expression that reads it gets upstream's {@code composited variable "x" fails to evaluate}.
     */
    private static Map<String, Object> evaluateVariables(KubernetesCelEnvironment env, Activation a,
                                                         Map<String, String> failures) {
        Map<String, String> expressions = a.variables() == null ? Map.of() : a.variables();
        Map<String, Object> values = new LinkedHashMap<>();
        // variables compile where variables do: with authorizer, without the mutation types
        KubernetesCelEnvironment.Declarations d = env.declarations();
        env = KubernetesCelEnvironment.create(env.version(),
                new KubernetesCelEnvironment.Declarations(d.params(), true, false, d.variables()));
        Activation inner = new Activation(a.object(), a.oldObject(), a.params(), a.request(), a.namespaceObject(),
                a.authorizer(), null);
        for (Map.Entry<String, String> v : expressions.entrySet()) {
            KubernetesCelEnvironment.Compiled compiled = env.compile(v.getValue());
            if (!compiled.ok()) {
                failures.put(v.getKey(), "composited variable \"" + v.getKey() + "\" fails to compile: " + compiled.error());
                continue;
            }
            Result r = evaluate(env, compiled, inner, values);
            if (r.ok()) {
                values.put(v.getKey(), toCel(r.value()));
            } else {
                failures.put(v.getKey(), "composited variable \"" + v.getKey() + "\" fails to evaluate: " + r.error());
            }
        }
        return values;
    }

    private static Object path(Object root, String... keys) {
        Object cur = root;
        for (String k : keys) {
            if (!(cur instanceof Map<?, ?> m)) {
                return null;
            }
            cur = m.get(k);
        }
        return cur;
    }

    private static String string(Object o) {
        return o instanceof String s ? s : "";
    }

    /**
     * A JSON-like Java value as cel-java wants it: Long/Double numbers, NullValue for null, maps as read-only
     * {@link RuntimeMap}s (returned as they are: a caller that converts once per request pays once).
     */
    public static Object toCel(Object v) {
        if (v == null) {
            return NullValue.NULL_VALUE;
        }
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof BigInteger b) {
            return b.bitLength() < 64 ? (Object) b.longValue() : (Object) b.doubleValue();
        }
        if (v instanceof Float f) {
            return f.doubleValue();
        }
        if (v instanceof BigDecimal b) {
            return b.doubleValue();
        }
        if (v instanceof RuntimeMap) {
            return v; // converted already, once per request (RuntimeMap says why it matters)
        }
        if (v instanceof Map<?, ?> m) {
            Map<Object, Object> out = new LinkedHashMap<>();
            m.forEach((k, val) -> out.put(toCel(k), toCel(val)));
            return RuntimeMap.of(out);
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            l.forEach(x -> out.add(toCel(x)));
            return out;
        }
        return v;
    }

    /** JSON data in runtime form at the top: a map of a JSON tree, a scalar, or a list of those (not looked into). */
    private static boolean isJsonData(Object v) {
        if (v instanceof RuntimeMap m) {
            return m.json();
        }
        if (v instanceof List<?> l) {
            for (Object x : l) {
                if (!(x instanceof RuntimeMap m && m.json() || x instanceof String || x instanceof Long
                        || x instanceof Double || x instanceof Boolean)) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    /** A CEL result as a plain Java value: null for CEL null, the rest unchanged. */
    static Object fromCel(Object v) {
        if (v instanceof NullValue) {
            return null;
        }
        if (v instanceof JsonPatchValue p) {
            return fromCel(p.value());
        }
        if (v instanceof RuntimeMap m && m.values().stream().noneMatch(x -> x instanceof Map || x instanceof List)) {
            // callers get a map of their own, as when the activation was converted per evaluation
            return new LinkedHashMap<>(m);
        }
        if (v instanceof List<?> l && l.stream().anyMatch(x -> x instanceof JsonPatchValue || x instanceof Map)) {
            List<Object> out = new ArrayList<>(l.size());
            l.forEach(x -> out.add(fromCel(x)));
            return out;
        }
        if (v instanceof Map<?, ?> m && m.values().stream().anyMatch(x -> x instanceof JsonPatchValue
                || x instanceof Map || x instanceof List)) {
            Map<Object, Object> out = m instanceof ObjectValue o ? new ObjectValue(o.typeName(), Map.of())
                    : new LinkedHashMap<>();
            m.forEach((k, x) -> out.put(k, fromCel(x)));
            return out;
        }
        return v;
    }
}

package dev.policyset.aps.core.cel.cost;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelReference;
import dev.cel.common.values.CelByteString;
import dev.cel.runtime.CelEvaluationListener;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.policyset.aps.core.cel.cost.CostConstants.LIST_CREATE_BASE_COST;
import static dev.policyset.aps.core.cel.cost.CostConstants.MAP_CREATE_BASE_COST;
import static dev.policyset.aps.core.cel.cost.CostConstants.REGEX_STRING_LENGTH_COST_FACTOR;
import static dev.policyset.aps.core.cel.cost.CostConstants.SELECT_AND_IDENT_COST;
import static dev.policyset.aps.core.cel.cost.CostConstants.STRING_TRAVERSAL_COST_FACTOR;
import static dev.policyset.aps.core.cel.cost.CostConstants.STRUCT_CREATE_BASE_COST;

/**
 * The actual cost of one evaluation, counted as cel-go's {@code CostTracker} counts it
 * ({@code interpreter/runtimecost.go}: {@code Observe} per evaluation step, {@code costCall} per call, with
 * the Kubernetes {@code CallCost} and the extension trackers first), from cel-java's evaluation listener.
 *
 * <p>cel-java's planner, like cel-go's, evaluates a chain of field selections ({@code a.b.c}) as one
 * attribute and reports it once; cel-go charges the attribute 1 and each qualifier 1, so the chain is
 * charged 1 + its selections here. Logical operators, the conditional and comprehensions have no cost of
 * their own (their parts do); presence tests cost nothing ({@code PresenceTestHasCost(false)} in
 * {@code environment/base.go}). Passing {@code limit} throws {@link LimitExceeded}, as cel-go cancels with
 * {@value CostConstants#COST_LIMIT_EXCEEDED}.
 */
public final class RuntimeCost implements CelEvaluationListener {
    /** Thrown from the listener when the limit is passed; the evaluator reports cel-go's message. */
    public static final class LimitExceeded extends RuntimeException {
        LimitExceeded() {
            super(CostConstants.COST_LIMIT_EXCEEDED, null, false, false);
        }
    }

    private final CelAbstractSyntaxTree ast;
    private final long limit;
    private final Map<Long, Object> values = new HashMap<>();
    private long cost;

    /** @param limit the per-call limit ({@code Long.MAX_VALUE} for none) */
    public RuntimeCost(CelAbstractSyntaxTree ast, long limit) {
        this.ast = ast;
        this.limit = limit;
    }

    public long cost() {
        return cost;
    }

    @Override
    public void callback(CelExpr expr, Object value) {
        values.put(expr.id(), value);
        cost = CostEstimate.addNoOverflow(cost, step(expr, value));
        if (cost > limit) {
            throw new LimitExceeded();
        }
    }

    private long step(CelExpr expr, Object value) {
        return switch (expr.getKind()) {
            case IDENT -> SELECT_AND_IDENT_COST;
            case SELECT -> attributeCost(expr);
            case CALL -> callCost(expr, value);
            case LIST -> LIST_CREATE_BASE_COST;
            case MAP -> MAP_CREATE_BASE_COST;
            case STRUCT -> STRUCT_CREATE_BASE_COST;
            default -> 0; // constants, comprehensions
        };
    }

    /** An attribute: 1, plus 1 per qualifier (a presence test's own qualifier is free). */
    private static long attributeCost(CelExpr select) {
        long qualifiers = 0;
        CelExpr e = select;
        boolean testOnly = select.select().testOnly();
        while (e.getKind() == CelExpr.ExprKind.Kind.SELECT) {
            qualifiers++;
            e = e.select().operand();
        }
        if (testOnly) {
            qualifiers--;
        }
        return SELECT_AND_IDENT_COST + qualifiers;
    }

    private long callCost(CelExpr expr, Object result) {
        var call = expr.call();
        String function = call.function();
        switch (function) {
            case "_&&_", "_||_", "_?_:_" -> {
                return 0;
            }
            default -> {
            }
        }
        List<Object> args = new ArrayList<>(call.args().size() + 1);
        call.target().ifPresent(t -> args.add(values.get(t.id())));
        for (CelExpr a : call.args()) {
            args.add(values.get(a.id()));
        }
        Long library = LibraryCosts.actual(function, overloadId(expr, args), args, result);
        if (library != null) {
            return library;
        }
        switch (function) {
            case "startsWith", "endsWith", "format" -> {
                if (!args.isEmpty() && args.get(0) instanceof String) {
                    return ceil(LibraryCosts.actualSize(args.get(0)) * STRING_TRAVERSAL_COST_FACTOR);
                }
            }
            case "bytes", "strings.quote" -> {
                if (args.size() == 1 && args.get(0) instanceof String) {
                    return ceil(LibraryCosts.actualSize(args.get(0)) * STRING_TRAVERSAL_COST_FACTOR);
                }
            }
            case "string" -> {
                if (args.size() == 1 && args.get(0) instanceof CelByteString) {
                    return ceil(LibraryCosts.actualSize(args.get(0)) * STRING_TRAVERSAL_COST_FACTOR);
                }
            }
            case "@in" -> {
                if (args.size() == 2 && args.get(1) instanceof List<?> l) {
                    return l.size();
                }
            }
            case "_<_", "_>_", "_<=_", "_>=_" -> {
                if (args.size() == 2 && isSequence(args.get(0)) && isSequence(args.get(1))) {
                    return minSizeCost(args);
                }
            }
            case "_==_", "_!=_" -> {
                if (args.size() == 2) {
                    return minSizeCost(args);
                }
            }
            case "_+_" -> {
                if (args.size() == 2 && isSequence(args.get(0)) && isSequence(args.get(1))) {
                    return ceil((LibraryCosts.actualSize(args.get(0)) + LibraryCosts.actualSize(args.get(1)))
                            * STRING_TRAVERSAL_COST_FACTOR);
                }
            }
            case "matches" -> {
                if (call.target().isPresent() && args.size() == 2) {
                    long strCost = ceil((1.0 + LibraryCosts.actualSize(args.get(0))) * STRING_TRAVERSAL_COST_FACTOR);
                    long regexCost = ceil(LibraryCosts.actualSize(args.get(1)) * REGEX_STRING_LENGTH_COST_FACTOR);
                    return CostEstimate.multiplyNoOverflow(strCost, regexCost);
                }
            }
            case "contains" -> {
                if (args.size() == 2 && args.get(0) instanceof String) {
                    long strCost = ceil(LibraryCosts.actualSize(args.get(0)) * STRING_TRAVERSAL_COST_FACTOR);
                    long subCost = ceil(LibraryCosts.actualSize(args.get(1)) * STRING_TRAVERSAL_COST_FACTOR);
                    return CostEstimate.multiplyNoOverflow(strCost, subCost);
                }
            }
            default -> {
            }
        }
        return 1;
    }

    /** The overload the call took, where the library costs tell overloads apart. */
    private String overloadId(CelExpr expr, List<Object> args) {
        List<String> ids = ast.getReference(expr.id()).<List<String>>map(CelReference::overloadIds).orElse(List.of());
        if (ids.size() == 1) {
            return ids.get(0);
        }
        String function = expr.call().function();
        boolean stringArg = args.size() == 2 && args.get(1) instanceof String;
        return switch (function) {
            case "ip" -> expr.call().target().isPresent() ? "cidr_ip" : "string_to_ip";
            case "containsIP" -> stringArg ? "cidr_contains_ip_string" : "cidr_contains_ip_ip";
            case "containsCIDR" -> stringArg ? "cidr_contains_cidr_string" : "cidr_contains_cidr";
            default -> ids.isEmpty() ? "" : ids.get(0);
        };
    }

    private static boolean isSequence(Object v) {
        return v instanceof String || v instanceof CelByteString;
    }

    private static long minSizeCost(List<Object> args) {
        long min = Math.min(LibraryCosts.actualSize(args.get(0)), LibraryCosts.actualSize(args.get(1)));
        return ceil(min * STRING_TRAVERSAL_COST_FACTOR);
    }

    private static long ceil(double v) {
        return CostEstimate.multiplyByCostFactor(1, v);
    }
}

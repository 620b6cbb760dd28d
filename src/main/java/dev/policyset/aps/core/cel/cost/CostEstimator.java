package dev.policyset.aps.core.cel.cost;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelReference;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.SimpleType;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.policyset.aps.core.cel.cost.CostConstants.LIST_CREATE_BASE_COST;
import static dev.policyset.aps.core.cel.cost.CostConstants.MAP_CREATE_BASE_COST;
import static dev.policyset.aps.core.cel.cost.CostConstants.REGEX_STRING_LENGTH_COST_FACTOR;
import static dev.policyset.aps.core.cel.cost.CostConstants.STRING_TRAVERSAL_COST_FACTOR;
import static dev.policyset.aps.core.cel.cost.CostConstants.STRUCT_CREATE_BASE_COST;

/**
 * The static cost estimate of a checked expression: a port of cel-go's {@code checker/cost.go}
 * ({@code Cost}, the {@code coster}) onto cel-java's checked AST, with the Kubernetes library costs
 * ({@link LibraryCosts}) as the {@code CostEstimator} and the extension estimators. The API server uses
 * {@code PresenceTestHasCost(false)} ({@code environment/base.go}), so {@code has()} costs nothing.
 *
 * <p>cel-java's macros expand to the same comprehensions as cel-go's, and its overload ids are the CEL
 * spec's, which cel-go uses too; the estimate is checked against upstream's table
 * ({@code k8s.io/apiserver/pkg/cel/library/cost_test.go}) in {@code CostEstimatorTest}.
 */
public final class CostEstimator {
    private static final String ACCUMULATOR = "__result__";
    private static final String HIDDEN_ACCUMULATOR = "@result";

    private final CelAbstractSyntaxTree ast;
    private final SizeEstimator sizes;
    private final CostEstimate presenceTestCost;
    private final Map<Long, List<String>> exprPaths = new HashMap<>();
    private final Map<String, Deque<LocalVar>> localVars = new HashMap<>();
    private final Map<Long, SizeEstimate> computedSizes = new HashMap<>();
    private final Map<Long, EntrySize> computedEntrySizes = new HashMap<>();

    private CostEstimator(CelAbstractSyntaxTree ast, SizeEstimator sizes, boolean presenceTestHasCost) {
        this.ast = ast;
        this.sizes = sizes;
        this.presenceTestCost = presenceTestHasCost ? CostEstimate.ONE : CostEstimate.ZERO;
    }

    /** The estimate as the API server makes it (presence tests free). */
    public static CostEstimate estimate(CelAbstractSyntaxTree checked, SizeEstimator sizes) {
        return new CostEstimator(checked, sizes, false).cost(checked.getExpr());
    }

    private record EntrySize(CelKind container, SizeEstimate key, SizeEstimate val) {
        EntrySize union(EntrySize o) {
            if (o == null) {
                return null;
            }
            return new EntrySize(container, key.union(o.key), val.union(o.val));
        }
    }

    private record LocalVar(List<String> path, SizeEstimate size, EntrySize entrySize) {
    }

    private CostEstimate cost(CelExpr e) {
        if (e == null) {
            return CostEstimate.ZERO;
        }
        return switch (e.getKind()) {
            case CONSTANT -> CostEstimate.fixed(CostConstants.CONST_COST);
            case IDENT -> costIdent(e);
            case SELECT -> costSelect(e);
            case CALL -> costCall(e);
            case LIST -> costCreateList(e);
            case MAP -> costCreateMap(e);
            case STRUCT -> costCreateStruct(e);
            case COMPREHENSION -> isBind(e) ? costBind(e) : costComprehension(e);
            default -> CostEstimate.ZERO;
        };
    }

    private CostEstimate costIdent(CelExpr e) {
        String name = e.ident().name();
        LocalVar v = peek(name);
        addPath(e, v != null ? v.path() : List.of(name));
        return CostEstimate.fixed(CostConstants.SELECT_AND_IDENT_COST);
    }

    private CostEstimate costSelect(CelExpr e) {
        var sel = e.select();
        CostEstimate sum = CostEstimate.ZERO;
        if (sel.testOnly()) {
            // as evalTestOnly at runtime: the operand's cost, and the presence test's own
            return sum.add(presenceTestCost).add(cost(sel.operand()));
        }
        sum = sum.add(cost(sel.operand()));
        CelKind kind = type(sel.operand()).kind();
        if (kind == CelKind.MAP || kind == CelKind.STRUCT || kind == CelKind.TYPE_PARAM) {
            sum = sum.add(CostEstimate.fixed(CostConstants.SELECT_AND_IDENT_COST));
        }
        addPath(e, append(path(sel.operand()), sel.field()));
        return sum;
    }

    private CostEstimate costCall(CelExpr e) {
        var call = e.call();
        if (call.function().equals("dyn") && call.args().size() == 1 && call.target().isEmpty()) {
            CelExpr arg = call.args().get(0);
            CostEstimate argCost = cost(arg);
            copySizeEstimates(e, arg);
            return CostEstimate.ONE.add(argCost);
        }
        List<CelExpr> args = call.args();
        List<AstNode> argNodes = new ArrayList<>(args.size());
        List<CostEstimate> argCosts = new ArrayList<>(args.size());
        for (CelExpr arg : args) {
            argCosts.add(cost(arg));
            argNodes.add(newAstNode(arg));
        }
        List<String> overloadIds = ast.getReference(e.id()).map(CelReference::overloadIds).orElse(null);
        if (overloadIds == null || overloadIds.isEmpty()) {
            return CostEstimate.ZERO;
        }
        CostEstimate sum = CostEstimate.ZERO;
        AstNode target = null;
        if (call.target().isPresent()) {
            sum = sum.add(cost(call.target().get()));
            target = newAstNode(call.target().get());
        }
        overloadIds = knownMapOverloads(call.function(), overloadIds, args);
        CostEstimate fnCost = new CostEstimate(Long.MAX_VALUE, 0);
        SizeEstimate resultSize = null;
        for (String overload : overloadIds) {
            LibraryCosts.CallEstimate oc = functionCost(e, call.function(), overload, target, argNodes, argCosts);
            fnCost = fnCost.union(oc.cost());
            if (oc.resultSize() != null) {
                resultSize = resultSize == null ? oc.resultSize() : resultSize.union(oc.resultSize());
            }
            if (overload.equals("index_list") && !args.isEmpty()) {
                EntrySize es = computeEntrySize(args.get(0));
                resultSize = es == null ? null : es.val();
                addPath(e, append(path(args.get(0)), "@items"));
            } else if (overload.equals("index_map") && !args.isEmpty()) {
                EntrySize es = computeEntrySize(args.get(0));
                resultSize = es == null ? null : es.val();
                addPath(e, append(path(args.get(0)), "@values"));
            }
            if (resultSize == null) {
                resultSize = computeSize(e);
            }
        }
        setSize(e, resultSize);
        return sum.add(fnCost);
    }

    private LibraryCosts.CallEstimate functionCost(CelExpr e, String function, String overloadId, AstNode target,
                                                   List<AstNode> args, List<CostEstimate> argCosts) {
        CostEstimate argSum = CostEstimate.ZERO;
        for (CostEstimate a : argCosts) {
            argSum = argSum.add(a);
        }
        LibraryCosts.CallEstimate library = LibraryCosts.estimate(function, overloadId, target, args, sizes);
        if (library != null) {
            return new LibraryCosts.CallEstimate(library.cost().add(argSum), library.resultSize());
        }
        switch (standardOverload(function, overloadId, target)) {
            case "string_format" -> {
                if (target != null) {
                    return call(sizeOrUnknown(target).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR).add(argSum), null);
                }
            }
            case "string_to_bytes" -> {
                if (args.size() == 1) {
                    SizeEstimate sz = sizeOrUnknown(args.get(0));
                    return call(sz.multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR).add(argSum),
                            new SizeEstimate(sz.min(), CostEstimate.multiplyNoOverflow(sz.max(), 4)));
                }
            }
            case "bytes_to_string" -> {
                if (args.size() == 1) {
                    SizeEstimate sz = sizeOrUnknown(args.get(0));
                    return call(sz.multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR).add(argSum),
                            new SizeEstimate(sz.min() / 4, sz.max()));
                }
            }
            case "strings_quote" -> {
                if (args.size() == 1) {
                    SizeEstimate sz = sizeOrUnknown(args.get(0));
                    return call(sz.multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR).add(argSum),
                            new SizeEstimate(CostEstimate.addNoOverflow(sz.min(), 2),
                                    CostEstimate.addNoOverflow(CostEstimate.multiplyNoOverflow(sz.max(), 2), 2)));
                }
            }
            case "starts_with_string", "ends_with_string" -> {
                if (args.size() == 1) {
                    return call(sizeOrUnknown(args.get(0)).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR).add(argSum), null);
                }
            }
            case "in_list" -> {
                if (args.size() == 2) {
                    return call(sizeOrUnknown(args.get(1)).multiplyByCostFactor(1).add(argSum), null);
                }
            }
            case "matches_string" -> {
                if (target != null && args.size() == 1) {
                    CostEstimate strCost = sizeOrUnknown(target).add(SizeEstimate.fixed(1))
                            .multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR);
                    CostEstimate regexCost = sizeOrUnknown(args.get(0)).multiplyByCostFactor(REGEX_STRING_LENGTH_COST_FACTOR);
                    return call(strCost.multiply(regexCost).add(argSum), null);
                }
            }
            case "contains_string" -> {
                if (target != null && args.size() == 1) {
                    CostEstimate strCost = sizeOrUnknown(target).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR);
                    CostEstimate subCost = sizeOrUnknown(args.get(0)).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR);
                    return call(strCost.multiply(subCost).add(argSum), null);
                }
            }
            case "logical_or", "logical_and" -> {
                CostEstimate lhs = argCosts.get(0);
                CostEstimate rhs = argCosts.get(1);
                // short circuit: the minimum is the left side's
                return call(new CostEstimate(lhs.min(), lhs.add(rhs).max()), null);
            }
            case "conditional" -> {
                SizeEstimate size = sizeOrUnknown(args.get(1)).union(sizeOrUnknown(args.get(2)));
                EntrySize t = computeEntrySize(args.get(1).expr());
                setEntrySize(e, t == null ? null : t.union(computeEntrySize(args.get(2).expr())));
                CostEstimate cost = argCosts.get(0).add(argCosts.get(1).union(argCosts.get(2)));
                return call(cost, size);
            }
            case "add_string", "add_bytes", "add_list" -> {
                if (args.size() == 2) {
                    SizeEstimate result = sizeOrUnknown(args.get(0)).add(sizeOrUnknown(args.get(1)));
                    EntrySize l = computeEntrySize(args.get(0).expr());
                    EntrySize entry = l == null ? null : l.union(computeEntrySize(args.get(1).expr()));
                    if (entry != null) {
                        setEntrySize(e, entry);
                    }
                    if (overloadId.equals("add_list")) {
                        return call(CostEstimate.ONE.add(argSum), result);
                    }
                    return call(result.multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR).add(argSum), result);
                }
            }
            case "less_string", "greater_string", "less_equals_string", "greater_equals_string", "less_bytes",
                    "greater_bytes", "less_equals_bytes", "greater_equals_bytes", "equals", "not_equals" -> {
                SizeEstimate lhs = sizeOrUnknown(args.get(0));
                SizeEstimate rhs = sizeOrUnknown(args.get(1));
                long smallestMax = Math.min(lhs.max(), rhs.max());
                long min = smallestMax > 0 ? 1 : 0;
                return call(new CostEstimate(min, smallestMax).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR)
                        .add(argSum), null);
            }
            case "int64_to_string", "uint64_to_string", "double_to_string", "bool_to_string" -> {
                // a number or a bool printed is at most SCALAR_STRING characters. cel-go leaves the size unknown, so
                // that '/spec/containers/' + string(i) (how a JSONPatch names an item) would read as unbounded
                return call(CostEstimate.ONE.add(argSum), new SizeEstimate(1, SCALAR_STRING));
            }
            default -> {
                // O(1)
            }
        }
        return call(CostEstimate.ONE.add(argSum), null);
    }

    /**
     * cel-go's overload id for the calls it prices by overload: cel-java's standard overload ids are the
     * CEL spec's (as cel-go's); the extension functions are recognised by name, as their ids differ.
     */
    /**
     * The longest {@code string()} of an int, uint, double or bool: 20 characters for {@code -9223372036854775808}
     * and 18446744073709551615; a double prints in at most 24 ({@code -1.7976931348623157e+308}); rounded up.
     */
    static final long SCALAR_STRING = 32;

    static String standardOverload(String function, String overloadId, AstNode target) {
        if (function.equals("format") && target != null) {
            return "string_format";
        }
        if (function.equals("strings.quote")) {
            return "strings_quote";
        }
        return overloadId;
    }

    /**
     * The overloads left once a {@code dyn} operand known to be a map ({@link SizeEstimator#isKnownMap}) rules out
     * the list ones: {@code x in m} and {@code m[k]} on labels are lookups, not scans.
     */
    private List<String> knownMapOverloads(String function, List<String> overloadIds, List<CelExpr> args) {
        int operand = switch (function) {
            case "@in" -> 1;
            case "_[_]" -> 0;
            default -> -1;
        };
        if (operand < 0 || args.size() <= operand || overloadIds.size() < 2) {
            return overloadIds;
        }
        List<String> path = path(args.get(operand));
        if (path == null || !sizes.isKnownMap(path)) {
            return overloadIds;
        }
        List<String> maps = overloadIds.stream().filter(id -> !id.endsWith("_list")).toList();
        return maps.isEmpty() ? overloadIds : maps;
    }

    private static LibraryCosts.CallEstimate call(CostEstimate cost, SizeEstimate size) {
        return new LibraryCosts.CallEstimate(cost, size);
    }

    private CostEstimate costCreateList(CelExpr e) {
        List<CelExpr> elements = e.list().elements();
        CostEstimate sum = CostEstimate.ZERO;
        SizeEstimate itemSize = new SizeEstimate(elements.isEmpty() ? 0 : Long.MAX_VALUE, 0);
        for (CelExpr el : elements) {
            sum = sum.add(cost(el));
            itemSize = itemSize.union(sizeOrUnknown(el));
        }
        setEntrySize(e, new EntrySize(CelKind.LIST, SizeEstimate.fixed(1), itemSize));
        return sum.add(CostEstimate.fixed(LIST_CREATE_BASE_COST));
    }

    private CostEstimate costCreateMap(CelExpr e) {
        var entries = e.map().entries();
        CostEstimate sum = CostEstimate.ZERO;
        SizeEstimate keySize = new SizeEstimate(entries.isEmpty() ? 0 : Long.MAX_VALUE, 0);
        SizeEstimate valSize = new SizeEstimate(entries.isEmpty() ? 0 : Long.MAX_VALUE, 0);
        for (var entry : entries) {
            sum = sum.add(cost(entry.key()));
            sum = sum.add(cost(entry.value()));
            keySize = keySize.union(sizeOrUnknown(entry.key()));
            valSize = valSize.union(sizeOrUnknown(entry.value()));
        }
        setEntrySize(e, new EntrySize(CelKind.MAP, keySize, valSize));
        return sum.add(CostEstimate.fixed(MAP_CREATE_BASE_COST));
    }

    private CostEstimate costCreateStruct(CelExpr e) {
        CostEstimate sum = CostEstimate.ZERO;
        for (var field : e.struct().entries()) {
            sum = sum.add(cost(field.value()));
        }
        return sum.add(CostEstimate.fixed(STRUCT_CREATE_BASE_COST));
    }

    private CostEstimate costComprehension(CelExpr e) {
        var comp = e.comprehension();
        CostEstimate sum = CostEstimate.ZERO;
        sum = sum.add(cost(comp.iterRange()));
        sum = sum.add(cost(comp.accuInit()));
        pushLocalVar(comp.accuVar(), comp.accuInit());
        boolean twoVars = comp.iterVar2() != null && !comp.iterVar2().isEmpty();
        if (twoVars) {
            pushIterKey(comp.iterVar(), comp.iterRange());
            pushIterValue(comp.iterVar2(), comp.iterRange());
        } else {
            pushIterSingle(comp.iterVar(), comp.iterRange());
        }
        CostEstimate loopCost = cost(comp.loopCondition());
        CostEstimate stepCost = cost(comp.loopStep());
        pop(comp.iterVar());
        if (twoVars) {
            pop(comp.iterVar2());
        }
        sum = sum.add(cost(comp.result()));
        pop(comp.accuVar());

        SizeEstimate rangeCnt = sizeOrUnknown(comp.iterRange());
        sum = sum.add(rangeCnt.multiplyByCost(stepCost.add(loopCost)));

        switch (comp.accuInit().getKind()) {
            case CONSTANT -> setSize(e, computeSize(comp.accuInit()));
            case LIST, MAP -> {
                setSize(e, rangeCnt);
                EntrySize step = computeEntrySize(comp.loopStep());
                if (step != null) {
                    setEntrySize(e, step);
                }
            }
            default -> {
            }
        }
        return sum;
    }

    private boolean isBind(CelExpr e) {
        var comp = e.comprehension();
        CelExpr range = comp.iterRange();
        CelExpr cond = comp.loopCondition();
        return range.getKind() == CelExpr.ExprKind.Kind.LIST && range.list().elements().isEmpty()
                && cond.getKind() == CelExpr.ExprKind.Kind.CONSTANT
                && cond.constant().getKind() == CelConstant.Kind.BOOLEAN_VALUE && !cond.constant().booleanValue()
                && !comp.accuVar().equals(ACCUMULATOR);
    }

    private CostEstimate costBind(CelExpr e) {
        var comp = e.comprehension();
        CostEstimate sum = cost(comp.iterRange()).add(cost(comp.accuInit()));
        pushLocalVar(comp.accuVar(), comp.accuInit());
        sum = sum.add(cost(comp.result()));
        pop(comp.accuVar());
        copySizeEstimates(e, comp.result());
        return sum;
    }

    // ---------------------------------------------------------------- local variables and paths

    private void pushIterKey(String name, CelExpr range) {
        EntrySize es = computeEntrySize(range);
        CelKind container = es != null ? es.container() : type(range).kind();
        push(name, append(path(range), container == CelKind.LIST ? "@indices" : "@keys"),
                es == null ? null : es.key(), null);
    }

    private void pushIterValue(String name, CelExpr range) {
        EntrySize es = computeEntrySize(range);
        CelKind container = es != null ? es.container() : type(range).kind();
        push(name, append(path(range), container == CelKind.LIST ? "@items" : "@values"),
                es == null ? null : es.val(), null);
    }

    private void pushIterSingle(String name, CelExpr range) {
        EntrySize es = computeEntrySize(range);
        CelKind container = es != null ? es.container() : type(range).kind();
        SizeEstimate size = es == null ? null : es.key();
        String sub = "@keys";
        if (container == CelKind.LIST) {
            size = es == null ? null : es.val();
            sub = "@items";
        }
        push(name, append(path(range), sub), size, null);
    }

    private void pushLocalVar(String name, CelExpr e) {
        push(name, path(e), computeSize(e), computeEntrySize(e));
    }

    private void push(String name, List<String> path, SizeEstimate size, EntrySize entrySize) {
        localVars.computeIfAbsent(name, k -> new ArrayDeque<>()).push(new LocalVar(path, size, entrySize));
    }

    private LocalVar peek(String name) {
        Deque<LocalVar> stack = localVars.get(name);
        return stack == null || stack.isEmpty() ? null : stack.peek();
    }

    private void pop(String name) {
        Deque<LocalVar> stack = localVars.get(name);
        if (stack != null && !stack.isEmpty()) {
            stack.pop();
        }
    }

    private List<String> path(CelExpr e) {
        if (e.getKind() == CelExpr.ExprKind.Kind.IDENT) {
            LocalVar v = peek(e.ident().name());
            if (v != null) {
                return v.path();
            }
        }
        List<String> p = exprPaths.get(e.id());
        return p == null ? List.of() : p;
    }

    private void addPath(CelExpr e, List<String> path) {
        exprPaths.put(e.id(), path);
    }

    private static List<String> append(List<String> path, String element) {
        List<String> out = new ArrayList<>(path.size() + 1);
        out.addAll(path);
        out.add(element);
        return out;
    }

    private CelType type(CelExpr e) {
        return ast.getType(e.id()).orElse(SimpleType.DYN);
    }

    private AstNode newAstNode(CelExpr e) {
        List<String> p = path(e);
        if (!p.isEmpty() && (p.get(0).equals(ACCUMULATOR) || p.get(0).equals(HIDDEN_ACCUMULATOR))) {
            p = List.of(); // only paths to root variables, never to the accumulator
        }
        return new AstNode(p, type(e), e, computeSize(e));
    }

    // ---------------------------------------------------------------- sizes

    private void setSize(CelExpr e, SizeEstimate size) {
        if (size != null) {
            computedSizes.put(e.id(), size);
        }
    }

    private SizeEstimate sizeOrUnknown(AstNode node) {
        return node.computedSize() != null ? node.computedSize() : SizeEstimate.UNKNOWN;
    }

    private SizeEstimate sizeOrUnknown(CelExpr e) {
        SizeEstimate sz = computeSize(e);
        return sz != null ? sz : SizeEstimate.UNKNOWN;
    }

    private void copySizeEstimates(CelExpr dst, CelExpr src) {
        setSize(dst, computeSize(src));
        setEntrySize(dst, computeEntrySize(src));
    }

    private SizeEstimate computeSize(CelExpr e) {
        SizeEstimate known = computedSizes.get(e.id());
        if (known != null) {
            return known;
        }
        SizeEstimate fromExpr = computeExprSize(e);
        if (fromExpr != null) {
            return fromExpr;
        }
        SizeEstimate estimated = sizes.estimateSize(new AstNode(path(e), type(e), e, null));
        if (estimated != null) {
            computedSizes.put(e.id(), estimated);
            return estimated;
        }
        SizeEstimate fromType = computeTypeSize(type(e));
        if (fromType != null) {
            return fromType;
        }
        if (e.getKind() == CelExpr.ExprKind.Kind.IDENT) {
            LocalVar v = peek(e.ident().name());
            if (v != null && v.size() != null) {
                return v.size();
            }
        }
        return null;
    }

    private void setEntrySize(CelExpr e, EntrySize size) {
        if (size != null) {
            computedEntrySizes.put(e.id(), size);
        }
    }

    private EntrySize computeEntrySize(CelExpr e) {
        EntrySize known = computedEntrySizes.get(e.id());
        if (known != null) {
            return known;
        }
        if (e.getKind() == CelExpr.ExprKind.Kind.IDENT) {
            LocalVar v = peek(e.ident().name());
            if (v != null && v.entrySize() != null) {
                return v.entrySize();
            }
        }
        return null;
    }

    private static SizeEstimate computeExprSize(CelExpr e) {
        return switch (e.getKind()) {
            case CONSTANT -> switch (e.constant().getKind()) {
                case STRING_VALUE -> SizeEstimate.fixed(e.constant().stringValue()
                        .codePointCount(0, e.constant().stringValue().length()));
                case BYTES_VALUE -> SizeEstimate.fixed(e.constant().bytesValue().size());
                case BOOLEAN_VALUE, DOUBLE_VALUE, DURATION_VALUE, INT64_VALUE, TIMESTAMP_VALUE, UINT64_VALUE,
                        NULL_VALUE -> SizeEstimate.fixed(1);
                default -> null;
            };
            case LIST -> SizeEstimate.fixed(e.list().elements().size());
            case MAP -> SizeEstimate.fixed(e.map().entries().size());
            default -> null;
        };
    }

    private static SizeEstimate computeTypeSize(CelType t) {
        return isScalar(t) ? SizeEstimate.fixed(1) : null;
    }

    private static boolean isScalar(CelType t) {
        return switch (t.kind()) {
            case BOOL, DOUBLE, DURATION, INT, TIMESTAMP, UINT -> true;
            case OPAQUE -> t.name().equals("optional_type") && !t.parameters().isEmpty() && isScalar(t.parameters().get(0));
            default -> false;
        };
    }
}

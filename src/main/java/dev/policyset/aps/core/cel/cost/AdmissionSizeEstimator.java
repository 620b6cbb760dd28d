package dev.policyset.aps.core.cel.cost;

import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.common.types.CelKind;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.policyset.aps.core.cel.cost.CostConstants.MAX_REQUEST_SIZE_BYTES;

/**
 * The sizes of admission data for the estimate, where aps has no schema: {@code object},
 * {@code oldObject}, {@code params}, {@code namespaceObject}, {@code request} and {@code variables} are
 * bounded only by the request size, as the API server bounds data whose schema has no limit
 * ({@code k8s.io/apiserver/pkg/cel/common/schemas.go}: {@code estimateMaxStringLengthPerRequest} = 3 MiB − 2
 * characters, {@code estimateMaxArrayItemsFromMinSize} with the smallest item (1 byte + comma), and
 * {@code estimateMaxAdditionalPropertiesFromMinSize} for maps).
 *
 * <p>Two refinements the API server's estimator does not make, both sound for the runtime:
 * <ul>
 *   <li>ObjectMeta limits that API validation enforces: {@code metadata.name}/{@code generateName} ≤ 253,
 *       {@code metadata.namespace} ≤ 63, label values ≤ 63 and keys ≤ 317 characters;</li>
 *   <li>size guards: {@code size(x) <= N} (or {@code <}, {@code x.size()}, reversed) bounds {@code x} to N
 *       where the runtime only goes when it holds: the right operand of {@code &&} ({@code size(x) <= N && work}),
 *       the first branch of {@code ? :} ({@code size(x) <= N ? work : []}), and with the test negated
 *       ({@code size(x) > N}) the right operand of {@code ||} and the second branch. cel-go evaluates {@code &&}
 *       and {@code ||} left to right and stops at the first operand that decides, and a conditional evaluates
 *       one branch; so a large {@code x} never reaches that work. A guard to the right of the work
 *       ({@code work && size(x) <= N}) bounds nothing: the work has run by then.</li>
 * </ul>
 * Every request-bounded path the estimate asked about is recorded ({@link #unbounded()}), for the finding
 * to name.
 */
public final class AdmissionSizeEstimator implements SizeEstimator {
    static final Set<String> ROOTS = Set.of("object", "oldObject", "params", "namespaceObject", "request", "variables");
    /** 3 MiB − 2 (the quotes): the longest string a request can carry. */
    public static final long MAX_STRING = MAX_REQUEST_SIZE_BYTES - 2;
    /** The most list items a request can carry: 1-byte items and their commas. */
    public static final long MAX_LIST_ITEMS = (MAX_REQUEST_SIZE_BYTES - 2) / 2;
    /** The most map entries a request can carry ({@code estimateMaxAdditionalPropertiesFromMinSize(1)}). */
    public static final long MAX_MAP_ENTRIES = (MAX_REQUEST_SIZE_BYTES - 2) / 7;

    /** What kind of unbounded input a path is, as a finding names it. */
    public enum Unbounded { STRING, LIST, MAP, UNKNOWN }

    /** A size guard: {@code path} has at most {@code bound} items where the expressions {@code scope} are evaluated. */
    private record Guard(long bound, Set<Long> scope) {
    }

    private final Map<List<String>, List<Guard>> guards;
    private final Map<List<String>, Unbounded> unbounded = new LinkedHashMap<>();
    private final Map<List<String>, Long> overrides = new HashMap<>();

    private AdmissionSizeEstimator(Map<List<String>, List<Guard>> guards) {
        this.guards = guards;
    }

    /** The estimator for one checked expression (its size guards read from {@code root}). */
    public static AdmissionSizeEstimator forExpression(CelExpr root) {
        Map<List<String>, List<Guard>> guards = new HashMap<>();
        collectGuards(root, guards);
        return new AdmissionSizeEstimator(guards);
    }

    /** The same estimator with {@code path} bounded to {@code size}: to test which input drives a cost. */
    public AdmissionSizeEstimator withBound(List<String> path, long size) {
        AdmissionSizeEstimator copy = new AdmissionSizeEstimator(guards);
        copy.overrides.putAll(overrides);
        copy.overrides.put(List.copyOf(path), size);
        return copy;
    }

    /**
     * The same estimator with the request-bounded inputs of the last estimate bounded {@code factor} times
     * tighter, as if the request were that much smaller: the estimate's growth with the request's size.
     * Paths inside items ({@code containers[*].image}) keep their bound: the items of a list share the request's
     * bytes with each other, so a loop over the list that reads each item is linear in the request although the
     * estimate multiplies the item count by the largest item.
     */
    public AdmissionSizeEstimator scaledDown(long factor) {
        AdmissionSizeEstimator copy = new AdmissionSizeEstimator(guards);
        copy.overrides.putAll(overrides);
        for (Map.Entry<List<String>, Unbounded> e : unbounded.entrySet()) {
            if (e.getKey().stream().anyMatch(segment -> segment.startsWith("@"))) {
                continue;
            }
            long bound = switch (e.getValue()) {
                case LIST -> MAX_LIST_ITEMS;
                case MAP -> MAX_MAP_ENTRIES;
                default -> MAX_STRING;
            };
            copy.overrides.putIfAbsent(e.getKey(), bound / factor);
        }
        return copy;
    }

    /**
     * {@code metadata.labels} and {@code metadata.annotations} are maps wherever ObjectMeta appears (the object,
     * a pod template, an item of a list of objects, a variable holding an object), whatever the schema:
     * {@code 'team' in object.metadata.labels} is a map lookup.
     */
    @Override
    public boolean isKnownMap(List<String> path) {
        int n = path.size();
        return n >= 3 && ROOTS.contains(path.get(0)) && path.get(n - 2).equals("metadata")
                && (path.get(n - 1).equals("labels") || path.get(n - 1).equals("annotations"));
    }

    /** The request-bounded paths the last estimate used, in the order asked. */
    public Map<List<String>, Unbounded> unbounded() {
        return unbounded;
    }

    @Override
    public SizeEstimate estimateSize(AstNode node) {
        List<String> path = node.path();
        if (path.isEmpty() || !ROOTS.contains(path.get(0)) || node.type() == null) {
            return null;
        }
        CelKind kind = node.type().kind();
        Unbounded what = switch (kind) {
            case STRING, BYTES -> Unbounded.STRING;
            case LIST -> Unbounded.LIST;
            case MAP -> Unbounded.MAP;
            case DYN, ANY -> Unbounded.UNKNOWN;
            default -> null;
        };
        if (what == null) {
            return null;
        }
        Long override = overrides.get(path);
        if (override != null) {
            return new SizeEstimate(0, override);
        }
        Long guard = guardAt(path, node.expr());
        if (guard != null) {
            return new SizeEstimate(0, guard);
        }
        Long meta = metadataLimit(path);
        if (meta != null && what != Unbounded.LIST && what != Unbounded.MAP) {
            return new SizeEstimate(0, meta);
        }
        unbounded.putIfAbsent(List.copyOf(path), what);
        return switch (what) {
            case LIST -> new SizeEstimate(0, MAX_LIST_ITEMS);
            case MAP -> new SizeEstimate(0, MAX_MAP_ENTRIES);
            default -> new SizeEstimate(0, MAX_STRING);
        };
    }

    /** ObjectMeta string limits of API validation (apimachinery {@code ValidateObjectMeta}, label validation). */
    private static Long metadataLimit(List<String> path) {
        int n = path.size();
        if (n >= 3 && path.get(n - 2).equals("metadata")) {
            switch (path.get(n - 1)) {
                case "name", "generateName" -> {
                    return 253L;
                }
                case "namespace" -> {
                    return 63L;
                }
                default -> {
                    return null;
                }
            }
        }
        if (n >= 4 && path.get(n - 3).equals("metadata") && path.get(n - 2).equals("labels")) {
            return switch (path.get(n - 1)) {
                case "@values" -> 63L;
                case "@keys" -> 317L;
                default -> 63L; // metadata.labels.<key>
            };
        }
        return null;
    }

    /** A path as the user writes it: {@code object.spec.containers[*].image}. */
    public static String format(List<String> path) {
        StringBuilder out = new StringBuilder();
        for (String p : path) {
            switch (p) {
                case "@items", "@values" -> out.append("[*]");
                case "@keys", "@indices" -> out.append(".<key>");
                default -> out.append(out.isEmpty() ? "" : ".").append(p);
            }
        }
        return out.toString();
    }

    // ---------------------------------------------------------------- size guards

    /** The tightest guard on {@code path} that holds where {@code at} is evaluated; null when none does. */
    private Long guardAt(List<String> path, CelExpr at) {
        List<Guard> candidates = guards.get(path);
        if (candidates == null || at == null) {
            return null;
        }
        Long best = null;
        for (Guard g : candidates) {
            if (g.scope().contains(at.id()) && (best == null || g.bound() < best)) {
                best = g.bound();
            }
        }
        return best;
    }

    /** Every guard in the expression, each scoped to the operand or branch that runs only when it holds. */
    private static void collectGuards(CelExpr e, Map<List<String>, List<Guard>> guards) {
        if (e.getKind() == CelExpr.ExprKind.Kind.CALL) {
            var call = e.call();
            List<CelExpr> args = call.args();
            switch (call.function()) {
                case "_&&_" -> scope(tests(args.get(0), true), args.get(1), guards);
                case "_||_" -> scope(tests(args.get(0), false), args.get(1), guards);
                case "_?_:_" -> {
                    scope(tests(args.get(0), true), args.get(1), guards);
                    scope(tests(args.get(0), false), args.get(2), guards);
                }
                default -> {
                }
            }
        }
        CelNavigableExpr.fromExpr(e).children().forEach(c -> collectGuards(c.expr(), guards));
    }

    private static void scope(Map<List<String>, Long> bounds, CelExpr where, Map<List<String>, List<Guard>> guards) {
        if (bounds.isEmpty()) {
            return;
        }
        Set<Long> ids = new HashSet<>();
        CelNavigableExpr.fromExpr(where).allNodes().forEach(n -> ids.add(n.expr().id()));
        bounds.forEach((path, bound) -> guards.computeIfAbsent(path, p -> new ArrayList<>()).add(new Guard(bound, ids)));
    }

    /**
     * The size bounds that hold when {@code e} evaluates to {@code holds}: {@code size(x) <= N} true, or
     * {@code size(x) > N} false, gives {@code x} at most N; through {@code &&} (true: both hold), {@code ||} (false:
     * both fail) and {@code !}.
     */
    private static Map<List<String>, Long> tests(CelExpr e, boolean holds) {
        Map<List<String>, Long> out = new HashMap<>();
        if (e.getKind() != CelExpr.ExprKind.Kind.CALL) {
            return out;
        }
        var call = e.call();
        if (call.function().equals("!_") && call.args().size() == 1) {
            return tests(call.args().get(0), !holds);
        }
        if ((call.function().equals("_&&_") && holds) || (call.function().equals("_||_") && !holds)) {
            call.args().forEach(a -> tests(a, holds).forEach((p, n) -> out.merge(p, n, Math::min)));
            return out;
        }
        if (call.args().size() != 2) {
            return out;
        }
        CelExpr left = call.args().get(0);
        CelExpr right = call.args().get(1);
        // size(x) OP N: the bound when true (<=, <) or when false (>, >=); N OP size(x) mirrored
        switch (call.function()) {
            case "_<=_" -> bound(holds ? left : null, right, 0, out);
            case "_<_" -> bound(holds ? left : null, right, -1, out);
            case "_>_" -> bound(holds ? null : left, right, 0, out);
            case "_>=_" -> bound(holds ? null : left, right, -1, out);
            default -> {
            }
        }
        switch (call.function()) {
            case "_>=_" -> bound(holds ? right : null, left, 0, out);
            case "_>_" -> bound(holds ? right : null, left, -1, out);
            case "_<_" -> bound(holds ? null : right, left, 0, out);
            case "_<=_" -> bound(holds ? null : right, left, -1, out);
            default -> {
            }
        }
        return out;
    }

    private static void bound(CelExpr sizeCall, CelExpr bound, long adjust, Map<List<String>, Long> out) {
        if (sizeCall == null || bound.getKind() != CelExpr.ExprKind.Kind.CONSTANT
                || bound.constant().getKind() != CelConstant.Kind.INT64_VALUE
                || sizeCall.getKind() != CelExpr.ExprKind.Kind.CALL || !sizeCall.call().function().equals("size")) {
            return;
        }
        var call = sizeCall.call();
        CelExpr operand = call.target().orElse(call.args().isEmpty() ? null : call.args().get(0));
        if (operand == null || (call.target().isPresent() && !call.args().isEmpty())) {
            return;
        }
        List<String> path = selectPath(operand);
        if (path != null) {
            out.merge(path, Math.max(0, bound.constant().int64Value() + adjust), Math::min);
        }
    }

    /** {@code a.b.c} as [a, b, c]; null for anything else. */
    private static List<String> selectPath(CelExpr e) {
        List<String> reversed = new ArrayList<>();
        while (e.getKind() == CelExpr.ExprKind.Kind.SELECT && !e.select().testOnly()) {
            reversed.add(e.select().field());
            e = e.select().operand();
        }
        if (e.getKind() != CelExpr.ExprKind.Kind.IDENT) {
            return null;
        }
        reversed.add(e.ident().name());
        List<String> path = new ArrayList<>(reversed.size());
        for (int i = reversed.size() - 1; i >= 0; i--) {
            path.add(reversed.get(i));
        }
        return path;
    }
}

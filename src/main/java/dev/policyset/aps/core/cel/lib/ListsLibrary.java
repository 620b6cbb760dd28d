package dev.policyset.aps.core.cel.lib;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelReference;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.TypeParamType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;

import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.cel.common.CelOverloadDecl.newMemberOverload;

/**
 * Kubernetes lists library ({@code k8s.io/apiserver/pkg/cel/library/lists.go}): {@code isSorted},
 * {@code sum}, {@code min}, {@code max}, {@code indexOf}, {@code lastIndexOf}; version 1 (compatibility
 * 1.37) adds {@code includes}.
 *
 * <p>The element-typed overloads ({@code list_int_sum_int}, ...) all take a {@code java.util.List} at run
 * time, so cel-java cannot choose between them when the receiver is {@code dyn}. cel-go then uses the first
 * declared overload whose runtime type matches, which for a list is the first one; {@link #prepareProgram}
 * pins such calls to that overload so cel-java does the same.
 */
public final class ListsLibrary extends AbstractKubeLibrary {
    private static final TypeParamType A = TypeParamType.create("A");

    private record Named(String name, CelType type) {
    }

    private static final List<Named> COMPARABLE = List.of(
            new Named("int", SimpleType.INT), new Named("uint", SimpleType.UINT),
            new Named("double", SimpleType.DOUBLE), new Named("bool", SimpleType.BOOL),
            new Named("duration", SimpleType.DURATION), new Named("timestamp", SimpleType.TIMESTAMP),
            new Named("string", SimpleType.STRING), new Named("bytes", SimpleType.BYTES));
    private static final List<Named> SUMMABLE = List.of(
            new Named("int", SimpleType.INT), new Named("uint", SimpleType.UINT),
            new Named("double", SimpleType.DOUBLE), new Named("duration", SimpleType.DURATION));
    private static final Map<String, Object> ZERO = Map.of(
            "int", 0L, "uint", UnsignedLong.ZERO, "double", 0.0, "duration", Duration.ZERO);

    /** Overload id → the id cel-go would dispatch to when the receiver's element type is unknown. */
    private final Map<String, String> firstOfGroup = new HashMap<>();

    /** @param version 0 (always present) or 1 (adds {@code includes}, compatibility 1.37) */
    public ListsLibrary(int version) {
        super("lists");
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (Named t : COMPARABLE) {
            String id = "list_" + t.name + "_is_sorted_bool";
            add("isSorted", newMemberOverload(id, SimpleType.BOOL, ListType.create(t.type)),
                    CelFunctionBinding.from(id, List.class, ListsLibrary::isSorted));
            groups.computeIfAbsent("isSorted", k -> new ArrayList<>()).add(id);
        }
        for (Named t : SUMMABLE) {
            String id = "list_" + t.name + "_sum_" + t.name;
            Object zero = ZERO.get(t.name);
            add("sum", newMemberOverload(id, t.type, ListType.create(t.type)),
                    CelFunctionBinding.from(id, List.class, list -> sum(zero, list)));
            groups.computeIfAbsent("sum", k -> new ArrayList<>()).add(id);
        }
        for (Named t : COMPARABLE) {
            String id = "list_" + t.name + "_max_" + t.name;
            add("max", newMemberOverload(id, t.type, ListType.create(t.type)),
                    CelFunctionBinding.from(id, List.class, list -> extreme("max", -1, list)));
            groups.computeIfAbsent("max", k -> new ArrayList<>()).add(id);
        }
        for (Named t : COMPARABLE) {
            String id = "list_" + t.name + "_min_" + t.name;
            add("min", newMemberOverload(id, t.type, ListType.create(t.type)),
                    CelFunctionBinding.from(id, List.class, list -> extreme("min", 1, list)));
            groups.computeIfAbsent("min", k -> new ArrayList<>()).add(id);
        }
        add("indexOf", newMemberOverload("list_a_index_of_int", SimpleType.INT, ListType.create(A), A),
                indexOfBinding(false));
        add("lastIndexOf", newMemberOverload("list_a_last_index_of_int", SimpleType.INT, ListType.create(A), A),
                indexOfBinding(true));
        if (version >= 1) {
            add("includes", newMemberOverload("list_includes_dyn_dyn", SimpleType.BOOL, SimpleType.DYN, SimpleType.DYN),
                    CelFunctionBinding.from("list_includes_dyn_dyn", Object.class, Object.class, ListsLibrary::includes));
        }
        groups.values().forEach(ids -> ids.forEach(id -> firstOfGroup.put(id, ids.get(0))));
    }

    @Override
    public CelAbstractSyntaxTree prepareProgram(CelAbstractSyntaxTree checked) {
        Map<Long, CelReference> refs = new HashMap<>(checked.getReferenceMap());
        boolean changed = false;
        for (Map.Entry<Long, CelReference> e : refs.entrySet()) {
            List<String> ids = e.getValue().overloadIds();
            if (ids.size() > 1 && ids.stream().allMatch(firstOfGroup::containsKey)) {
                String first = firstOfGroup.get(ids.get(0));
                CelReference.Builder pinned = CelReference.newBuilder().setName(e.getValue().name()).addOverloadIds(first);
                e.getValue().value().ifPresent(pinned::setValue);
                e.setValue(pinned.build());
                changed = true;
            }
        }
        if (!changed) {
            return checked;
        }
        return CelAbstractSyntaxTree.newCheckedAst(checked.getExpr(), checked.getSource(), refs, checked.getTypeMap());
    }

    private static Object isSorted(List<?> list) throws CelEvaluationException {
        Object prev = null;
        for (Object next : list) {
            if (!CelValues.isComparable(next)) {
                throw error("no such overload");
            }
            // cel-go: only a comparison result of exactly 1 means "not sorted"; an incomparable pair is skipped.
            if (prev != null && CelValues.compare(prev, next).orElse(0) == 1) {
                return false;
            }
            prev = next;
        }
        return true;
    }

    private static Object sum(Object zero, List<?> list) throws CelEvaluationException {
        Object acc = zero;
        for (Object next : list) {
            acc = add(acc, next);
        }
        return acc;
    }

    private static Object add(Object acc, Object next) throws CelEvaluationException {
        if (acc instanceof Long a && next instanceof Long b) {
            try {
                return Math.addExact(a, b);
            } catch (ArithmeticException e) {
                throw error("integer overflow");
            }
        }
        if (acc instanceof UnsignedLong a && next instanceof UnsignedLong b) {
            BigInteger s = a.bigIntegerValue().add(b.bigIntegerValue());
            if (s.bitLength() > 64) {
                throw error("unsigned integer overflow");
            }
            return UnsignedLong.valueOf(s);
        }
        if (acc instanceof Double a && next instanceof Double b) {
            return a + b;
        }
        if (acc instanceof Duration a && next instanceof Duration b) {
            try {
                return a.plus(b);
            } catch (ArithmeticException e) {
                throw error("integer overflow");
            }
        }
        throw error("no such overload");
    }

    /** cel-go keeps the current result unless comparing it with the next element gives {@code prefer}. */
    private static Object extreme(String op, int prefer, List<?> list) throws CelEvaluationException {
        Object result = null;
        for (Object next : list) {
            if (!CelValues.isComparable(next)) {
                throw error("no such overload");
            }
            if (result == null) {
                result = next;
            } else if (CelValues.compare(result, next).orElse(0) == prefer) {
                result = next;
            }
        }
        if (result == null) {
            throw error("%s called on empty list", op);
        }
        return result;
    }

    /**
     * The {@code list.indexOf(A)} ({@code last}: {@code lastIndexOf}) implementation under its overload id. The
     * strings runtime ({@code core.cel.GoStrings}) owns the name {@code indexOf} for dispatch on a
     * {@code dyn} receiver and includes this binding there, so that {@code object.spec.containers.indexOf(c)}
     * reaches it as cel-go does.
     */
    public static CelFunctionBinding indexOfBinding(boolean last) {
        String id = last ? "list_a_last_index_of_int" : "list_a_index_of_int";
        return CelFunctionBinding.from(id, List.class, Object.class, (list, item) -> indexOf(list, item, last));
    }

    private static Object indexOf(List<?> list, Object item, boolean last) {
        int n = list.size();
        for (int k = 0; k < n; k++) {
            int i = last ? n - 1 - k : k;
            if (CelValues.equal(list.get(i), item)) {
                return (long) i;
            }
        }
        return -1L;
    }

    private static Object includes(Object target, Object arg) {
        if (target instanceof List<?> list) {
            return list.stream().anyMatch(item -> CelValues.equal(item, arg));
        }
        return CelValues.equal(target, arg);
    }

}

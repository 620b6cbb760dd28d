package dev.policyset.aps.core.cel.lib;

import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;

import java.util.List;

import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

/**
 * Kubernetes quantity library ({@code quantity.go}, compatibility 1.28): {@code quantity(s)},
 * {@code isQuantity(s)}, global {@code sign(q)}, {@code isGreaterThan}, {@code isLessThan},
 * {@code compareTo}, {@code add}/{@code sub} (quantity or int), {@code asInteger}, {@code isInteger},
 * {@code asApproximateFloat}; {@code ==} compares values. No {@code <}/{@code >} operators.
 */
public final class QuantityLibrary extends AbstractKubeLibrary {
    public static final OpaqueType QUANTITY_TYPE = OpaqueType.create("kubernetes.Quantity");

    public QuantityLibrary() {
        super("quantity");
        OpaqueType q = QUANTITY_TYPE;
        add("quantity", newGlobalOverload("string_to_quantity", q, SimpleType.STRING),
                CelFunctionBinding.from("string_to_quantity", String.class, QuantityLibrary::toQuantity));
        add("isQuantity", newGlobalOverload("is_quantity_string", SimpleType.BOOL, SimpleType.STRING),
                CelFunctionBinding.from("is_quantity_string", String.class, QuantityLibrary::isQuantity));
        add("sign", newGlobalOverload("quantity_sign", SimpleType.INT, q),
                CelFunctionBinding.from("quantity_sign", Quantity.class, x -> (long) x.sign()));
        add("isGreaterThan", newMemberOverload("quantity_is_greater_than", SimpleType.BOOL, q, q),
                CelFunctionBinding.from("quantity_is_greater_than", Quantity.class, Quantity.class,
                        (a, b) -> a.compareTo(b) == 1));
        add("isLessThan", newMemberOverload("quantity_is_less_than", SimpleType.BOOL, q, q),
                CelFunctionBinding.from("quantity_is_less_than", Quantity.class, Quantity.class,
                        (a, b) -> a.compareTo(b) == -1));
        add("compareTo", newMemberOverload("quantity_compare_to", SimpleType.INT, q, q),
                CelFunctionBinding.from("quantity_compare_to", Quantity.class, Quantity.class,
                        (a, b) -> (long) a.compareTo(b)));
        add("add", newMemberOverload("quantity_add", q, q, q),
                CelFunctionBinding.from("quantity_add", Quantity.class, Quantity.class, Quantity::add));
        add("add", newMemberOverload("quantity_add_int", q, q, SimpleType.INT),
                CelFunctionBinding.from("quantity_add_int", Quantity.class, Long.class,
                        (a, b) -> a.add(Quantity.ofInt(b))));
        add("sub", newMemberOverload("quantity_sub", q, q, q),
                CelFunctionBinding.from("quantity_sub", Quantity.class, Quantity.class, Quantity::sub));
        add("sub", newMemberOverload("quantity_sub_int", q, q, SimpleType.INT),
                CelFunctionBinding.from("quantity_sub_int", Quantity.class, Long.class,
                        (a, b) -> a.sub(Quantity.ofInt(b))));
        add("asApproximateFloat", newMemberOverload("quantity_get_float", SimpleType.DOUBLE, q),
                CelFunctionBinding.from("quantity_get_float", Quantity.class, Quantity::asApproximateFloat));
        add("asInteger", newMemberOverload("quantity_get_int", SimpleType.INT, q),
                CelFunctionBinding.from("quantity_get_int", Quantity.class, QuantityLibrary::asInteger));
        add("isInteger", newMemberOverload("quantity_is_integer", SimpleType.BOOL, q),
                CelFunctionBinding.from("quantity_is_integer", Quantity.class, x -> x.asInt64() != null));
    }

    @Override
    public List<CelType> types() {
        return List.of(QUANTITY_TYPE);
    }

    private static Object toQuantity(String s) throws CelEvaluationException {
        try {
            return Quantity.parse(s);
        } catch (Quantity.ParseException e) {
            throw error(e.getMessage());
        }
    }

    private static Object isQuantity(String s) {
        try {
            Quantity.parse(s);
            return true;
        } catch (Quantity.ParseException e) {
            return false;
        }
    }

    private static Object asInteger(Quantity q) throws CelEvaluationException {
        Long v = q.asInt64();
        if (v == null) {
            throw error("cannot convert value to integer");
        }
        return v;
    }
}

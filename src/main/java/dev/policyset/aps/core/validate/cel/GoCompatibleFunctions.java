package dev.policyset.aps.core.validate.cel;

import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelStandardFunctions;
import dev.cel.runtime.standard.CelStandardOverload;
import dev.cel.runtime.standard.StringFunction;

import java.util.List;
import java.util.Set;

/**
 * Standard functions whose cel-java results differ from cel-go's, bound again with cel-go's behaviour.
 */
final class GoCompatibleFunctions {
    private GoCompatibleFunctions() {
    }

    /** The standard overloads replaced by {@link #bindings()}. */
    private static final Set<CelStandardOverload> REPLACED = Set.of(StringFunction.StringOverload.DOUBLE_TO_STRING,
            StringFunction.StringOverload.DURATION_TO_STRING, StringFunction.StringOverload.TIMESTAMP_TO_STRING);

    /** cel-java's standard functions without the replaced overloads. */
    static CelStandardFunctions standardFunctions() {
        return CelStandardFunctions.newBuilder().filterFunctions((function, overload) -> !REPLACED.contains(overload)).build();
    }

    static List<CelFunctionBinding> bindings() {
        return List.of(
                // cel-go: strconv.FormatFloat(d, 'g', -1, 64) -> "10", "1e-05"; cel-java: Double.toString.
                CelFunctionBinding.from("double_to_string", Double.class, StringFormat::goFloatG),
                // cel-go: seconds with the fraction trimmed ("1.5s"); cel-java: "1.500s".
                CelFunctionBinding.from("duration_to_string", java.time.Duration.class, StringFormat::duration),
                // cel-go: RFC 3339 with nanoseconds trimmed ("...00.5Z"); cel-java: milliseconds ("...00.500Z").
                CelFunctionBinding.from("timestamp_to_string", java.time.Instant.class, StringFormat::timestamp));
    }
}

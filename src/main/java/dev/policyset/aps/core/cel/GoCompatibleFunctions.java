package dev.policyset.aps.core.cel;

import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelStandardFunctions;
import dev.cel.runtime.standard.AddOperator;
import dev.cel.runtime.standard.BoolFunction;
import dev.cel.runtime.standard.SubtractOperator;
import dev.cel.runtime.standard.CelStandardOverload;
import dev.cel.runtime.standard.DoubleFunction;
import dev.cel.runtime.standard.DurationFunction;
import dev.cel.runtime.standard.GetDateFunction;
import dev.cel.runtime.standard.GetDayOfMonthFunction;
import dev.cel.runtime.standard.GetDayOfWeekFunction;
import dev.cel.runtime.standard.GetDayOfYearFunction;
import dev.cel.runtime.standard.GetFullYearFunction;
import dev.cel.runtime.standard.GetHoursFunction;
import dev.cel.runtime.standard.GetMillisecondsFunction;
import dev.cel.runtime.standard.GetMinutesFunction;
import dev.cel.runtime.standard.GetMonthFunction;
import dev.cel.runtime.standard.GetSecondsFunction;
import dev.cel.runtime.standard.IntFunction;
import dev.cel.runtime.standard.StringFunction;
import dev.cel.runtime.standard.UintFunction;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import dev.cel.common.CelOptions;
import dev.cel.runtime.RuntimeEquality;
import dev.cel.runtime.RuntimeHelpers;
import java.util.function.ToLongFunction;

import java.util.List;
import java.util.Set;

/**
 * Standard functions whose cel-java results differ from cel-go's, bound again with cel-go's behaviour.
 */
final class GoCompatibleFunctions {
    private GoCompatibleFunctions() {
    }

    /**
     * The standard functions with an overload replaced below. All their overloads are bound again here, under one
     * name dispatch ({@link CelFunctionBinding#fromOverloads}): cel-java resolves a call whose argument is
     * {@code dyn} ({@code bool(params.flag)}) by the function name, over the overloads bound with it.
     */
    private static final Map<String, CelStandardOverload[]> FUNCTIONS = Map.ofEntries(
            Map.entry("string", StringFunction.StringOverload.values()),
            Map.entry("_+_", AddOperator.AddOverload.values()),
            Map.entry("_-_", SubtractOperator.SubtractOverload.values()),
            Map.entry("bool", BoolFunction.BoolOverload.values()),
            Map.entry("int", IntFunction.IntOverload.values()),
            Map.entry("uint", UintFunction.UintOverload.values()),
            Map.entry("double", DoubleFunction.DoubleOverload.values()),
            Map.entry("duration", DurationFunction.DurationOverload.values()),
            Map.entry("getMilliseconds", GetMillisecondsFunction.GetMillisecondsOverload.values()),
            Map.entry("getFullYear", GetFullYearFunction.GetFullYearOverload.values()),
            Map.entry("getMonth", GetMonthFunction.GetMonthOverload.values()),
            Map.entry("getDayOfYear", GetDayOfYearFunction.GetDayOfYearOverload.values()),
            Map.entry("getDayOfMonth", GetDayOfMonthFunction.GetDayOfMonthOverload.values()),
            Map.entry("getDate", GetDateFunction.GetDateOverload.values()),
            Map.entry("getDayOfWeek", GetDayOfWeekFunction.GetDayOfWeekOverload.values()),
            Map.entry("getHours", GetHoursFunction.GetHoursOverload.values()),
            Map.entry("getMinutes", GetMinutesFunction.GetMinutesOverload.values()),
            Map.entry("getSeconds", GetSecondsFunction.GetSecondsOverload.values()));

    private static final Set<CelStandardOverload> REBOUND = FUNCTIONS.values().stream()
            .flatMap(java.util.Arrays::stream).collect(java.util.stream.Collectors.toUnmodifiableSet());

    /** cel-java's standard functions without the functions bound again by {@link #bindings}. */
    static CelStandardFunctions standardFunctions() {
        return CelStandardFunctions.newBuilder().filterFunctions((function, overload) -> !REBOUND.contains(overload)).build();
    }

    /**
     * The functions of {@link #FUNCTIONS}: cel-go's behaviour where it differs, cel-java's standard overload
     * otherwise, each function under one name dispatch.
     */
    static List<CelFunctionBinding> bindings(CelOptions options, boolean celGo029) {
        Map<String, CelFunctionBinding> replaced = new HashMap<>();
        replacements(celGo029).forEach(b -> replaced.put(b.getOverloadId(), b));
        RuntimeEquality equality = RuntimeEquality.create(RuntimeHelpers.create(), options);
        List<CelFunctionBinding> all = new ArrayList<>();
        FUNCTIONS.forEach((name, overloads) -> {
            List<CelFunctionBinding> forName = new ArrayList<>();
            for (CelStandardOverload overload : overloads) {
                CelFunctionBinding standard = overload.newFunctionBinding(options, equality);
                forName.add(replaced.getOrDefault(standard.getOverloadId(), standard));
            }
            all.addAll(CelFunctionBinding.fromOverloads(name, forName));
        });
        return all;
    }

    /**
     * @param celGo029 cel-go v0.29 (Kubernetes 1.37): time zone offsets with minutes outside [0, 59] are refused
     */
    private static List<CelFunctionBinding> replacements(boolean celGo029) {
        List<CelFunctionBinding> all = new ArrayList<>(List.of(
                // common/types/string.go ConvertToType: Go's strconv and time parsers
                CelFunctionBinding.from("string_to_bool", String.class, GoConversions::toBool),
                CelFunctionBinding.from("string_to_int64", String.class, GoConversions::toInt),
                CelFunctionBinding.from("string_to_uint64", String.class, GoConversions::toUint),
                CelFunctionBinding.from("string_to_double", String.class, GoConversions::toDouble),
                CelFunctionBinding.from("string_to_duration", String.class, GoConversions::toDuration),
                // common/types/duration.go DurationGetMilliseconds: the whole duration, not the millisecond part
                CelFunctionBinding.from("duration_to_milliseconds", Duration.class, GoConversions::durationMilliseconds),
                // common/types/overflow.go: Go's checked time arithmetic
                CelFunctionBinding.from("add_duration_duration", Duration.class, Duration.class, GoConversions::addDurations),
                CelFunctionBinding.from("add_timestamp_duration", Instant.class, Duration.class,
                        GoConversions::addTimestampDuration),
                CelFunctionBinding.from("add_duration_timestamp", Duration.class, Instant.class,
                        (d, t) -> GoConversions.addTimestampDuration(t, d)),
                CelFunctionBinding.from("subtract_duration_duration", Duration.class, Duration.class,
                        GoConversions::subtractDurations),
                CelFunctionBinding.from("subtract_timestamp_duration", Instant.class, Duration.class,
                        GoConversions::subtractTimestampDuration),
                CelFunctionBinding.from("subtract_timestamp_timestamp", Instant.class, Instant.class,
                        GoConversions::subtractTimestamps)));
        // common/types/timestamp.go: the accessors with a time zone (Go month and day-of-* are zero-based)
        zoned(all, "timestamp_to_year_with_tz", celGo029, ZonedDateTime::getYear);
        zoned(all, "timestamp_to_month_with_tz", celGo029, z -> z.getMonthValue() - 1);
        zoned(all, "timestamp_to_day_of_year_with_tz", celGo029, z -> z.getDayOfYear() - 1);
        zoned(all, "timestamp_to_day_of_month_with_tz", celGo029, z -> z.getDayOfMonth() - 1);
        zoned(all, "timestamp_to_day_of_month_1_based_with_tz", celGo029, ZonedDateTime::getDayOfMonth);
        zoned(all, "timestamp_to_day_of_week_with_tz", celGo029, z -> z.getDayOfWeek().getValue() % 7);
        zoned(all, "timestamp_to_hours_with_tz", celGo029, ZonedDateTime::getHour);
        zoned(all, "timestamp_to_minutes_with_tz", celGo029, ZonedDateTime::getMinute);
        zoned(all, "timestamp_to_seconds_with_tz", celGo029, ZonedDateTime::getSecond);
        zoned(all, "timestamp_to_milliseconds_with_tz", celGo029, z -> z.getNano() / 1_000_000);
        all.addAll(List.of(
                // cel-go: strconv.FormatFloat(d, 'g', -1, 64) -> "10", "1e-05"; cel-java: Double.toString.
                CelFunctionBinding.from("double_to_string", Double.class, StringFormat::goFloatG),
                // cel-go: seconds with the fraction trimmed ("1.5s"); cel-java: "1.500s".
                CelFunctionBinding.from("duration_to_string", java.time.Duration.class, StringFormat::duration),
                // cel-go: RFC 3339 with nanoseconds trimmed ("...00.5Z"); cel-java: milliseconds ("...00.500Z").
                CelFunctionBinding.from("timestamp_to_string", java.time.Instant.class, StringFormat::timestamp)));
        return all;
    }

    private static void zoned(List<CelFunctionBinding> all, String overload, boolean celGo029,
                              ToLongFunction<ZonedDateTime> field) {
        all.add(CelFunctionBinding.from(overload, Instant.class, String.class,
                (t, tz) -> GoConversions.withZone(t, tz, celGo029, field)));
    }
}

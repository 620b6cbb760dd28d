package dev.policyset.aps.core.cel;

import dev.cel.common.types.CelType;

import java.util.Optional;

/**
 * How advice puts a condition in front of an expression so that the result still has the type its kind requires
 * ({@link KubernetesCelChecker#requiredTypes}): {@code cond && expr} only type-checks where the result is a bool
 * (validations, matchConditions); elsewhere the condition must choose between the expression and a value of the same
 * type, {@code cond ? expr : fallback}. The fallbacks are the kind's "nothing": a mutation that changes nothing
 * ({@code Object{}}, {@code []}), the empty string (a messageExpression that is empty falls back to the static
 * {@code message}; for an audit annotation value, {@code null} would leave the annotation out but does not
 * type-check beside a string: {@code found no matching overload for '_?_:_'}), and for a variable the empty value of
 * its type.
 */
public final class GuardedForms {
    private GuardedForms() {
    }

    /** Whether the kind's result is a bool, so a condition can be joined with {@code &&} / {@code ||}. */
    public static boolean isBoolean(ExpressionKind kind) {
        return kind == ExpressionKind.VALIDATION || kind == ExpressionKind.MATCH_CONDITION
                || kind == ExpressionKind.WEBHOOK_MATCH_CONDITION;
    }

    /**
     * {@code expression} evaluated only where {@code condition} holds: {@code condition && expression} for a bool kind,
     * else {@code condition ? expression : fallback}. {@code result} is the expression's checked type (for a variable,
     * whose fallback is the empty value of that type; may be null).
     */
    public static String when(ExpressionKind kind, CelType result, String condition, String expression) {
        if (isBoolean(kind) || (kind == ExpressionKind.VARIABLE && result != null
                && result.kind() == dev.cel.common.types.CelKind.BOOL)) {
            return condition + " && " + expression;
        }
        return condition + " ? " + expression + " : " + fallback(kind, result);
    }

    /** The value an expression of {@code kind} stands for "nothing to do" (see the class comment). */
    public static String fallback(ExpressionKind kind, CelType result) {
        return switch (kind) {
            case VALIDATION, MATCH_CONDITION, WEBHOOK_MATCH_CONDITION -> "false";
            case MESSAGE_EXPRESSION, AUDIT_ANNOTATION_VALUE -> "''";
            case MUTATION_APPLY_CONFIGURATION -> MutationLibrary.OBJECT + "{}";
            case MUTATION_JSON_PATCH -> "[]";
            case VARIABLE -> emptyLiteral(result).orElse("null");
        };
    }

    /** The empty value of a type as a CEL literal; empty when the type has none (an object, {@code dyn}). */
    public static Optional<String> emptyLiteral(CelType type) {
        if (type == null) {
            return Optional.empty();
        }
        return switch (type.kind()) {
            case STRING -> Optional.of("''");
            case BOOL -> Optional.of("false");
            case INT -> Optional.of("0");
            case UINT -> Optional.of("0u");
            case DOUBLE -> Optional.of("0.0");
            case BYTES -> Optional.of("b''");
            case LIST -> Optional.of("[]");
            case MAP -> Optional.of("{}");
            default -> Optional.empty();
        };
    }
}

package dev.policyset.aps.core.cel;

import dev.policyset.aps.core.model.KubeVersion;

import java.util.Optional;

/**
 * Compiles and type-checks expressions the way the API server does when an object is created, in the
 * Kubernetes CEL environment of a given version. The apiserver rules walk an object and ask this for
 * each expression; the error text is what the API server puts after {@code Invalid value: ...}.
 */
public interface CelChecker {
    /** Where an expression lives: which policy type, whether {@code params} is declared. */
    enum PolicyType { VALIDATING, MUTATING, WEBHOOK }

    /**
     * A scope for one object: the variables declared so far. Variables are declared in order, each with the
     * type of its expression, so a later expression (or variable) sees the earlier ones typed.
     */
    interface Scope {
        /** Compiles {@code variables[i]} and declares {@code variables.<name>}; the error if it does not compile. */
        Optional<String> declareVariable(String name, String expression);

        /** Compiles one expression of the given kind in this scope; the error if it does not compile. */
        Optional<String> check(ExpressionKind kind, String expression);
    }

    /**
     * @param hasParams true when the policy has a {@code paramKind} (then {@code params} is typed; it is
     *                  always declared as {@code dyn} for validating and mutating policies)
     * @param version   the server version; expressions compile at its CEL compatibility version
     */
    Scope newScope(PolicyType type, boolean hasParams, KubeVersion version);
}

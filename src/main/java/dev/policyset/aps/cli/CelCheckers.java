package dev.policyset.aps.cli;

import dev.policyset.aps.core.validate.cel.CelChecker;
import dev.policyset.aps.core.validate.cel.ExpressionKind;

import java.util.Optional;

/**
 * The CEL checker the CLI validates with: the Kubernetes CEL environment from core
 * ({@code core.validate.cel.KubernetesCelChecker}). While that class is being built in parallel it is looked up
 * by name, and expressions are accepted unchecked if it is not there yet; once it is on main this becomes a
 * plain {@code new KubernetesCelChecker()}.
 */
final class CelCheckers {
    static final String KUBERNETES_CHECKER = "dev.policyset.aps.core.validate.cel.KubernetesCelChecker";

    private static CelChecker cached;

    private CelCheckers() {}

    static synchronized CelChecker forCli() {
        if (cached == null) {
            cached = load();
        }
        return cached;
    }

    private static CelChecker load() {
        try {
            return (CelChecker) Class.forName(KUBERNETES_CHECKER).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
            return uncheckedExpressions();
        }
    }

    /** Accepts every expression; only used until the Kubernetes CEL checker is on the classpath. */
    static CelChecker uncheckedExpressions() {
        return (type, hasParams, version) -> new CelChecker.Scope() {
            @Override
            public Optional<String> declareVariable(String name, String expression) {
                return Optional.empty();
            }

            @Override
            public Optional<String> check(ExpressionKind kind, String expression) {
                return Optional.empty();
            }
        };
    }
}

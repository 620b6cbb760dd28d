package dev.policyset.aps.cli;

import dev.policyset.aps.core.validate.cel.CelChecker;
import dev.policyset.aps.core.validate.cel.ExpressionKind;

import java.util.Optional;

/**
 * The CEL checker the CLI validates with. Until the Kubernetes CEL environment lands in core, expressions are
 * accepted unchecked here (the seam stays the same; only this method changes).
 */
final class CelCheckers {
    private CelCheckers() {}

    static CelChecker forCli() {
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

package dev.policyset.aps.core.validate.apiserver;

import dev.policyset.aps.core.cel.CelChecker;
import dev.policyset.aps.core.cel.ExpressionKind;
import dev.policyset.aps.core.model.KubeVersion;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A stand-in for the real checker: every expression compiles unless it contains {@code BROKEN}; it records
 * what was asked, so tests can check which expressions were compiled, in which scope and kind.
 */
final class FakeCelChecker implements CelChecker {
    record Call(PolicyType type, boolean hasParams, String what, String name, ExpressionKind kind, String expression) {}

    final List<Call> calls = new ArrayList<>();
    int scopes;

    @Override
    public Scope newScope(PolicyType type, boolean hasParams, KubeVersion version) {
        scopes++;
        return new Scope() {
            @Override
            public Optional<String> declareVariable(String name, String expression) {
                calls.add(new Call(type, hasParams, "declare", name, ExpressionKind.VARIABLE, expression));
                return verdict(expression);
            }

            @Override
            public Optional<String> check(ExpressionKind kind, String expression) {
                calls.add(new Call(type, hasParams, "check", null, kind, expression));
                if (expression.contains("THROW")) {
                    throw new IllegalStateException("checker bug");
                }
                return verdict(expression);
            }
        };
    }

    private static Optional<String> verdict(String expression) {
        return expression.contains("BROKEN")
                ? Optional.of("compilation failed: ERROR: <input>:1:1: undeclared reference to 'BROKEN'")
                : Optional.empty();
    }
}

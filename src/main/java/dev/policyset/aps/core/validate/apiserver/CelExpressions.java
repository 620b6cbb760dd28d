package dev.policyset.aps.core.validate.apiserver;

import dev.policyset.aps.core.cel.CelChecker;
import dev.policyset.aps.core.cel.ExpressionKind;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.KubeVersion;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One object's CEL scope: every expression is compiled through {@link CelChecker}, in document order, so
 * variables are declared before the expressions that use them. A compile error becomes {@code api/Invalid}
 * on the expression's field with the CEL message, as the API server reports it.
 *
 * <p>A checker that throws is a bug in the checker, not in the policy: it becomes a {@code cel/Unchecked}
 * warning so one bad expression cannot crash the validation of everything else.
 */
final class CelExpressions {
    private final CelChecker.Scope scope;
    private final KubeVersion version;
    private final Errors errors;
    private final List<Finding> unchecked = new ArrayList<>();

    CelExpressions(CelChecker checker, CelChecker.PolicyType type, boolean hasParams, KubeVersion version, Errors errors) {
        this.scope = checker.newScope(type, hasParams, version);
        this.version = version;
        this.errors = errors;
    }

    void check(ExpressionKind kind, String expression, FieldPath path) {
        report(path, expression, () -> scope.check(kind, expression));
    }

    void declareVariable(String name, String expression, FieldPath path) {
        report(path, expression, () -> scope.declareVariable(name, expression));
    }

    List<Finding> unchecked() {
        return unchecked;
    }

    private void report(FieldPath path, String expression, Supplier<Optional<String>> compile) {
        Optional<String> error;
        try {
            error = compile.get();
        } catch (RuntimeException e) {
            unchecked.add(Finding.warning("cel/Unchecked", errors.object(), path.toString(),
                    "the expression could not be checked (" + e + "); the API server may still reject it. "
                            + "This is a bug in aps: please report it with the expression"));
            return;
        }
        error.ifPresent(message -> errors.invalid(path, expression, message
                + " (fix the expression: it must compile in the Kubernetes " + version + " CEL environment)"));
    }
}

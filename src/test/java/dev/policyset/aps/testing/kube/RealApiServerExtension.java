package dev.policyset.aps.testing.kube;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

import java.util.Optional;

/** See {@link RealApiServer}. */
public final class RealApiServerExtension implements ExecutionCondition, ParameterResolver {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        return skipReason().map(ConditionEvaluationResult::disabled)
                .orElseGet(() -> ConditionEvaluationResult.enabled("Kubernetes " + KubeBinaries.version() + " binaries present"));
    }

    /** Why real-server tests skip here, or empty when they run; under -Daps.kube.required=true, never a skip. */
    public static Optional<String> skipReason() {
        String version = KubeBinaries.version();
        Optional<String> missing = KubeBinaries.missing(version);
        if (missing.isPresent() && KubeBinaries.required()) {
            throw new IllegalStateException("the real-API-server suite is required (-Daps.kube.required=true) but "
                    + missing.get());
        }
        return missing.map(m -> "real API server tests skipped: " + m);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext extension) {
        return parameter.getParameter().getType() == KubeControlPlane.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext extension) {
        return KubeControlPlane.shared();
    }
}

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
        String minor = context.getTestClass().map(c -> c.getAnnotation(RealApiServer.class)).map(RealApiServer::minor).orElse("");
        if (!minor.isEmpty()) {
            Optional<String> version = KubeBinaries.versionOf(minor);
            Optional<String> missing = version.isEmpty() ? Optional.of("no supported " + minor + " release in test/kube/versions")
                    : KubeBinaries.missing(version.get());
            if (missing.isPresent()) {
                return ConditionEvaluationResult.disabled("needs Kubernetes " + minor + " (make test-kube-matrix builds it): " + missing.get());
            }
        }
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

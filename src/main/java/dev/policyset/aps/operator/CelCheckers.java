package dev.policyset.aps.operator;

import dev.policyset.aps.core.validate.cel.CelChecker;
import dev.policyset.aps.core.validate.cel.ExpressionKind;
import org.jboss.logging.Logger;

import java.util.Optional;

/**
 * The CEL checker the validator uses in the operator: core's Kubernetes CEL environment when it is on the
 * class path, otherwise one that accepts every expression (the server-side dry run still compiles each
 * expression at the cluster's own version, so nothing unchecked is applied).
 */
final class CelCheckers {
    private static final Logger LOG = Logger.getLogger(CelCheckers.class);
    static final String KUBERNETES_CHECKER = "dev.policyset.aps.core.validate.cel.KubernetesCelChecker";

    private CelCheckers() {}

    static CelChecker kubernetesOrAcceptAll() {
        try {
            Object checker = Class.forName(KUBERNETES_CHECKER).getDeclaredConstructor().newInstance();
            return (CelChecker) checker;
        } catch (ReflectiveOperationException | ClassCastException | LinkageError e) {
            LOG.infof("CEL is checked by the API server's dry run only (%s not available)", KUBERNETES_CHECKER);
            return ACCEPT_ALL;
        }
    }

    static final CelChecker ACCEPT_ALL = (type, hasParams, version) -> new CelChecker.Scope() {
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

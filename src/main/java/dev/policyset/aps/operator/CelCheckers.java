package dev.policyset.aps.operator;

import dev.policyset.aps.core.validate.cel.CelChecker;
import dev.policyset.aps.core.validate.cel.KubernetesCelChecker;

/**
 * The CEL checker the operator validates with: core's Kubernetes CEL environment, the same one the CLI uses,
 * so a set gets the same findings from {@code aps validate} and from the operator. The server-side dry run
 * then compiles each expression once more at the cluster's own version.
 */
final class CelCheckers {
    private CelCheckers() {}

    static CelChecker kubernetes() {
        return new KubernetesCelChecker();
    }
}

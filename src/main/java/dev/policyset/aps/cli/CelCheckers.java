package dev.policyset.aps.cli;

import dev.policyset.aps.core.validate.cel.CelChecker;
import dev.policyset.aps.core.validate.cel.KubernetesCelChecker;

/** The CEL checker the CLI validates with: the Kubernetes CEL environment from core, as the operator uses. */
final class CelCheckers {
    private static final CelChecker KUBERNETES = new KubernetesCelChecker();

    private CelCheckers() {}

    static CelChecker forCli() {
        return KUBERNETES;
    }
}

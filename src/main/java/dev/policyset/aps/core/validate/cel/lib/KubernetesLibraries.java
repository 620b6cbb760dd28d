package dev.policyset.aps.core.validate.cel.lib;

import dev.policyset.aps.core.model.KubeVersion;

import java.util.List;

/**
 * The Kubernetes CEL libraries available at a CEL compatibility version, as kube-apiserver's base
 * environment adds them ({@code k8s.io/apiserver/pkg/cel/environment/base.go}).
 */
public final class KubernetesLibraries {
    private KubernetesLibraries() {
    }

    /** The libraries an expression compiled at {@code celCompatibilityVersion} can use. */
    public static List<KubeCelLibrary> forVersion(KubeVersion celCompatibilityVersion) {
        return List.of();
    }
}

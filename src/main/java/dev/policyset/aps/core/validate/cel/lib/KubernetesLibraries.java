package dev.policyset.aps.core.validate.cel.lib;

import dev.policyset.aps.core.model.KubeVersion;

import java.util.List;
import java.util.Optional;

/**
 * The Kubernetes CEL libraries available at a CEL compatibility version, as kube-apiserver's base
 * environment adds them ({@code k8s.io/apiserver/pkg/cel/environment/base.go}).
 *
 * <p>Not listed here, because the environment ({@code core.validate.cel}) owns them: the cel-go
 * extensions (strings incl. {@code format}, sets, lists ext, optional, two-variable comprehensions), the
 * variables and their types, and the mutation-only {@code jsonpatch.escapeKey} with the {@code Object} and
 * {@code JSONPatch} types. The authz library declares its functions on
 * {@link CelAuthorizer#AUTHORIZER_TYPE} and {@link CelAuthorizer#RESOURCE_CHECK_TYPE}.
 */
public final class KubernetesLibraries {
    private KubernetesLibraries() {
    }

    /** The libraries an expression compiled at {@code celCompatibilityVersion} can use. */
    public static List<KubeCelLibrary> forVersion(KubeVersion celCompatibilityVersion) {
        return List.of();
    }

    /** How to build the {@code authorizer} runtime values; empty until the authz library exists. */
    public static Optional<AuthorizerValues> authorizerValues() {
        return Optional.empty();
    }
}

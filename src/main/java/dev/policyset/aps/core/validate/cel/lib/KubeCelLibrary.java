package dev.policyset.aps.core.validate.cel.lib;

import dev.cel.compiler.CelCompilerLibrary;
import dev.cel.runtime.CelRuntimeLibrary;

/**
 * One Kubernetes CEL library (lists, regex, url, ip, cidr, quantity, semver, format, authz, jsonpatch):
 * its declarations for the checker and its function bindings for the runtime, at one CEL compatibility
 * version. {@link KubernetesLibraries#forVersion} lists the ones a version has.
 */
public interface KubeCelLibrary extends CelCompilerLibrary, CelRuntimeLibrary {
    /** A short name for reports, e.g. {@code "quantity"}. */
    default String name() {
        return getClass().getSimpleName();
    }
}

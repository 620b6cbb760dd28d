package dev.policyset.aps.core.cel.lib;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.types.CelType;
import dev.cel.compiler.CelCompilerLibrary;
import dev.cel.runtime.CelRuntimeLibrary;

import java.util.List;

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

    /**
     * The named types this library adds (e.g. {@code net.IP}), for a type provider that resolves type
     * identifiers such as {@code type(x) == net.IP}.
     */
    default List<CelType> types() {
        return List.of();
    }

    /**
     * What cel-go does when it builds a program from a checked expression (its {@code ProgramOptions}):
     * the Kubernetes regex library compiles constant {@code find}/{@code findAll} patterns there, so a bad
     * pattern fails at create time. Also adapts the checked AST to cel-java's runtime where needed
     * (see {@link KubernetesLibraries#prepareProgram}).
     *
     * @throws ProgramInstantiationException with the cel-go message, which the API server reports as
     *                                        {@code program instantiation failed: <message>}
     */
    default CelAbstractSyntaxTree prepareProgram(CelAbstractSyntaxTree checked) throws ProgramInstantiationException {
        return checked;
    }
}

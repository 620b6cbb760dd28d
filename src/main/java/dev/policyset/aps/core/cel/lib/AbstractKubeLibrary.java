package dev.policyset.aps.core.cel.lib;

import dev.cel.checker.CelCheckerBuilder;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelRuntimeBuilder;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects a library's function declarations and runtime bindings side by side, so that every overload
 * declared for the checker has its implementation registered under the same overload id.
 */
abstract class AbstractKubeLibrary implements KubeCelLibrary {
    private final Map<String, List<CelOverloadDecl>> overloads = new LinkedHashMap<>();
    private final Map<String, List<CelFunctionBinding>> bindings = new LinkedHashMap<>();
    private final String name;

    protected AbstractKubeLibrary(String name) {
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    /** Declares {@code overload} under {@code function} and binds its implementation. */
    protected final void add(String function, CelOverloadDecl overload, CelFunctionBinding binding) {
        if (!overload.overloadId().equals(binding.getOverloadId())) {
            throw new IllegalStateException("declaration " + overload.overloadId() + " bound as " + binding.getOverloadId());
        }
        overloads.computeIfAbsent(function, f -> new ArrayList<>()).add(overload);
        bindings.computeIfAbsent(function, f -> new ArrayList<>()).add(binding);
    }

    @Override
    public void setCheckerOptions(CelCheckerBuilder checker) {
        overloads.forEach((function, decls) -> checker.addFunctionDeclarations(
                CelFunctionDecl.newFunctionDeclaration(function, decls)));
    }

    /**
     * Names that cel-java's standard library or strings extension already binds for dispatch by name (a second
     * registration is refused). Their library overloads are reached when the checker picks one overload.
     */
    private static final java.util.Set<String> NAMES_DISPATCHED_ELSEWHERE = java.util.Set.of("string", "indexOf", "lastIndexOf");

    @Override
    public void setRuntimeOptions(CelRuntimeBuilder runtime) {
        // fromOverloads also registers the function name for dynamic dispatch: when an argument is dyn
        // (params, object, a variable) the checker leaves several overloads open, and cel-java's planner
        // then resolves the call by name. Without it {@code cidr(c).containsIP(params.ip)} found no overload.
        bindings.forEach((function, overloadBindings) -> {
            if (overloadBindings.size() > 1 && !NAMES_DISPATCHED_ELSEWHERE.contains(function)) {
                runtime.addFunctionBindings(CelFunctionBinding.fromOverloads(function, overloadBindings));
            } else {
                runtime.addFunctionBindings(overloadBindings);
            }
        });
    }

    /** The function names this library declares, in declaration order. */
    public final List<String> functionNames() {
        return List.copyOf(overloads.keySet());
    }

    static CelEvaluationException error(String format, Object... args) {
        return new CelEvaluationException(args.length == 0 ? format : String.format(format, args));
    }
}

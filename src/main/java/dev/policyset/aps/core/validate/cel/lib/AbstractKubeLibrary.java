package dev.policyset.aps.core.validate.cel.lib;

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
    private final List<CelFunctionBinding> bindings = new ArrayList<>();
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
        bindings.add(binding);
    }

    @Override
    public void setCheckerOptions(CelCheckerBuilder checker) {
        overloads.forEach((function, decls) -> checker.addFunctionDeclarations(
                CelFunctionDecl.newFunctionDeclaration(function, decls)));
    }

    @Override
    public void setRuntimeOptions(CelRuntimeBuilder runtime) {
        runtime.addFunctionBindings(bindings);
    }

    /** The function names this library declares, in declaration order. */
    public final List<String> functionNames() {
        return List.copyOf(overloads.keySet());
    }

    static CelEvaluationException error(String format, Object... args) {
        return new CelEvaluationException(args.length == 0 ? format : String.format(format, args));
    }
}

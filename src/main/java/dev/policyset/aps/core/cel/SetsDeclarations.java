package dev.policyset.aps.core.cel;

import dev.cel.checker.CelCheckerBuilder;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.TypeParamType;
import dev.cel.compiler.CelCompilerLibrary;

import java.util.List;

/**
 * The declarations of cel-go's sets extension ({@code sets.contains}, {@code sets.equivalent},
 * {@code sets.intersects}, each {@code (list(T), list(T)) -> bool}) for the type checker, as cel-java's
 * {@code CelSetsExtensions} declares them. That class cannot be made without its runtime half, whose equality
 * builds protobuf's descriptor pool: some 400 classes, a tenth of a CLI run's cold start, in an environment that
 * only checks. The runtime still gets cel-java's own library ({@code KubernetesCelEnvironment.newRuntime});
 * {@code SetsDeclarationsTest} keeps these equal to cel-java's.
 */
final class SetsDeclarations implements CelCompilerLibrary {
    static final SetsDeclarations INSTANCE = new SetsDeclarations();

    static final List<CelFunctionDecl> FUNCTIONS = List.of(
            function("sets.contains", "list_sets_contains_list"),
            function("sets.equivalent", "list_sets_equivalent_list"),
            function("sets.intersects", "list_sets_intersects_list"));

    private SetsDeclarations() {
    }

    private static CelFunctionDecl function(String name, String overload) {
        ListType list = ListType.create(TypeParamType.create("T"));
        return CelFunctionDecl.newFunctionDeclaration(name,
                CelOverloadDecl.newGlobalOverload(overload, SimpleType.BOOL, list, list));
    }

    @Override
    public void setCheckerOptions(CelCheckerBuilder checker) {
        checker.addFunctionDeclarations(FUNCTIONS);
    }
}

package dev.policyset.aps.core.cel.lib;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelVarDecl;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A minimal cel-java environment for testing one or more libraries: standard macros, optional syntax,
 * {@code object}/{@code params} as dyn, plus any extra variables; programs are prepared the way
 * {@link KubernetesLibraries#prepareProgram} does.
 */
final class CelLibTesting {
    private final CelCompiler compiler;
    private final CelRuntime runtime;
    private final List<KubeCelLibrary> libraries;

    CelLibTesting(KubeCelLibrary... libraries) {
        this(List.of(), libraries);
    }

    CelLibTesting(List<CelVarDecl> vars, KubeCelLibrary... libraries) {
        this.libraries = List.of(libraries);
        List<CelVarDecl> all = new ArrayList<>(vars);
        all.add(CelVarDecl.newVarDeclaration("object", SimpleType.DYN));
        all.add(CelVarDecl.newVarDeclaration("params", SimpleType.DYN));
        CelOptions options = CelOptions.current().enableOptionalSyntax(true)
                .enableHeterogeneousNumericComparisons(true).build();
        CelTypeProvider types = KubernetesLibraries.typeProvider(this.libraries, null);
        this.compiler = CelCompilerFactory.standardCelCompilerBuilder()
                .setOptions(options)
                .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
                .setTypeProvider(types)
                .addLibraries(CelExtensions.optional(), CelExtensions.strings())
                .addLibraries(this.libraries)
                .addVarDeclarations(all)
                .build();
        // The planner runtime, as the Kubernetes CEL environment uses.
        this.runtime = CelRuntimeFactory.plannerRuntimeBuilder()
                .setOptions(options)
                .setTypeProvider(types)
                .addLibraries(CelExtensions.optional(), CelExtensions.strings())
                .addLibraries(this.libraries)
                .build();
    }

    /** Compiles and prepares; throws the compile or program-creation failure. */
    CelAbstractSyntaxTree compile(String expr) throws CelValidationException, ProgramInstantiationException {
        CelAbstractSyntaxTree ast = compiler.compile(expr).getAst();
        for (KubeCelLibrary lib : libraries) {
            ast = lib.prepareProgram(ast);
        }
        return ast;
    }

    Object eval(String expr) throws Exception {
        return eval(expr, Map.of());
    }

    Object eval(String expr, Map<String, ?> vars) throws Exception {
        return runtime.createProgram(compile(expr)).eval(vars);
    }

    /** Asserts evaluation fails and the message contains {@code text}. */
    void assertEvalError(String expr, String text) {
        CelEvaluationException e = assertThrows(CelEvaluationException.class, () -> eval(expr));
        assertTrue(e.getMessage().contains(text), () -> "error of " + expr + ": " + e.getMessage());
    }

    /** Asserts compilation (or program creation) fails and the message contains {@code text}. */
    void assertCompileError(String expr, String text) {
        Exception e = assertThrows(Exception.class, () -> compile(expr));
        assertTrue(e instanceof CelValidationException || e instanceof ProgramInstantiationException,
                () -> "unexpected " + e);
        assertTrue(e.getMessage().contains(text), () -> "compile error of " + expr + ": " + e.getMessage());
    }
}

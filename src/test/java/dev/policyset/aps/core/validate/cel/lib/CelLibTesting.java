package dev.policyset.aps.core.validate.cel.lib;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelVarDecl;
import dev.cel.common.types.SimpleType;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;

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
    private final Cel cel;
    private final List<KubeCelLibrary> libraries;

    CelLibTesting(KubeCelLibrary... libraries) {
        this(List.of(), libraries);
    }

    CelLibTesting(List<CelVarDecl> vars, KubeCelLibrary... libraries) {
        this.libraries = List.of(libraries);
        List<CelVarDecl> all = new ArrayList<>(vars);
        all.add(CelVarDecl.newVarDeclaration("object", SimpleType.DYN));
        all.add(CelVarDecl.newVarDeclaration("params", SimpleType.DYN));
        this.cel = CelFactory.standardCelBuilder()
                .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
                .setOptions(CelOptions.current().enableOptionalSyntax(true).build())
                .addCompilerLibraries(CelExtensions.optional(), CelExtensions.strings())
                .addRuntimeLibraries(CelExtensions.optional(), CelExtensions.strings())
                .addCompilerLibraries(this.libraries.toArray(new dev.cel.compiler.CelCompilerLibrary[0]))
                .addRuntimeLibraries(this.libraries.toArray(new dev.cel.runtime.CelRuntimeLibrary[0]))
                .addVarDeclarations(all)
                .setTypeProvider(KubernetesLibraries.typeProvider(this.libraries, null))
                .build();
    }

    /** Compiles and prepares; throws the compile or program-creation failure. */
    CelAbstractSyntaxTree compile(String expr) throws CelValidationException, ProgramInstantiationException {
        CelAbstractSyntaxTree ast = cel.compile(expr).getAst();
        for (KubeCelLibrary lib : libraries) {
            ast = lib.prepareProgram(ast);
        }
        return ast;
    }

    Object eval(String expr) throws Exception {
        return eval(expr, Map.of());
    }

    Object eval(String expr, Map<String, ?> vars) throws Exception {
        return cel.createProgram(compile(expr)).eval(vars);
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

package dev.policyset.aps.core.cel;

import dev.cel.bundle.Cel;
import dev.cel.checker.CelCheckerBuilder;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompilerLibrary;
import dev.cel.runtime.CelEvaluationExceptionBuilder;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelRuntimeBuilder;
import dev.cel.runtime.CelRuntimeLibrary;
import dev.cel.validator.CelAstValidator;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code <string>.format(<list>)} of the cel-go strings extension (version 1+), which cel-java lacks,
 * with its compile-time validator for literal format strings. See {@link StringFormat}.
 */
final class StringFormatLibrary implements CelCompilerLibrary, CelRuntimeLibrary {
    static final StringFormatLibrary INSTANCE = new StringFormatLibrary();
    static final String OVERLOAD = "string_format";

    private StringFormatLibrary() {
    }

    @Override
    public void setCheckerOptions(CelCheckerBuilder checker) {
        checker.addFunctionDeclarations(CelFunctionDecl.newFunctionDeclaration("format",
                CelOverloadDecl.newMemberOverload(OVERLOAD, SimpleType.STRING, SimpleType.STRING,
                        ListType.create(SimpleType.DYN))));
    }

    @Override
    public void setRuntimeOptions(CelRuntimeBuilder runtime) {
        runtime.addFunctionBindings(CelFunctionBinding.from(OVERLOAD, String.class, List.class,
                (format, args) -> {
                    try {
                        return StringFormat.format(format, args);
                    } catch (StringFormat.FormatException e) {
                        throw CelEvaluationExceptionBuilder.newBuilder("%s", e.getMessage()).build();
                    }
                }));
    }

    /** cel-go's {@code stringFormatValidator}: checks a literal format string against a literal argument list. */
    static final CelAstValidator VALIDATOR = new CelAstValidator() {
        @Override
        public void validate(CelNavigableAst ast, Cel cel, IssuesFactory issues) {
            ast.getRoot().allNodes()
                    .map(CelNavigableExpr::expr)
                    .filter(e -> e.getKind() == CelExpr.ExprKind.Kind.CALL)
                    .forEach(e -> check(ast, e, issues));
        }

        private void check(CelNavigableAst ast, CelExpr expr, IssuesFactory issues) {
            var call = expr.call();
            if (!call.function().equals("format") || call.target().isEmpty() || call.args().size() != 1) {
                return;
            }
            CelExpr target = call.target().get();
            CelExpr arg = call.args().get(0);
            if (target.getKind() != CelExpr.ExprKind.Kind.CONSTANT
                    || target.constant().getKind() != CelConstant.Kind.STRING_VALUE
                    || arg.getKind() != CelExpr.ExprKind.Kind.LIST) {
                return;
            }
            List<CelType> types = new ArrayList<>();
            for (CelExpr element : arg.list().elements()) {
                types.add(ast.getAst().getType(element.id()).orElse(SimpleType.DYN));
            }
            Optional<String> error = StringFormat.checkClauses(target.constant().stringValue(), types);
            error.ifPresent(message -> issues.addError(arg.id(), message));
        }
    };
}

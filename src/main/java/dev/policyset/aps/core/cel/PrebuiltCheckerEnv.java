package dev.policyset.aps.core.cel;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.cel.checker.CelCheckerLegacyImpl;
import dev.cel.checker.CelIdentDecl;
import dev.cel.checker.Env;
import dev.cel.checker.ExprChecker;
import dev.cel.checker.TypeProvider;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelContainer;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelIssue;
import dev.cel.common.CelOptions;
import dev.cel.common.CelSource;
import dev.cel.common.CelValidationResult;
import dev.cel.common.internal.Errors;
import dev.cel.common.types.CelType;
import dev.cel.compiler.CelCompiler;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Type-checks against a checker environment built once, instead of cel-java 0.14's
 * {@code CelCheckerLegacyImpl.check}, which rebuilds its {@code Env} from every declaration on each call
 * ({@code getEnv}: the standard declarations and every library overload added one by one, each with an
 * overlap check). That rebuild is most of a check's time in the Kubernetes environment.
 *
 * <p>What {@code check} does, step for step, with the declarations taken from one prebuilt {@code Env}:
 * a fresh {@code Env} per check (it holds the per-check error collector, type map and reference map)
 * whose scope 0 (standard declarations) is a mutable copy of the prebuilt one ({@code Env} caches type
 * identifiers there while checking) and whose scope 1 (the user declarations) is the prebuilt group
 * itself, read-only (checking never adds to it; comprehension variables go into scopes 2+). The result,
 * including {@code errorsToIssues}, is cel-java's own.
 *
 * <p>cel-java offers no API for this, so the few private members involved are reached by reflection
 * ({@code CelCompilerImpl.checker}, {@code CelCheckerLegacyImpl.getEnv/container/expectedResultType/
 * errorsToIssues}, {@code Env.decls/celOptions}). If any is missing (another cel-java version),
 * {@link #of} answers empty and the caller uses cel-java's {@code check}. A pinned cel-java upgrade must
 * re-run the CEL suites; docs/cel.md says so.
 */
final class PrebuiltCheckerEnv {
    private static final Reflection REFLECTION = Reflection.load();

    /**
     * The standard scope and the library functions, per environment shape (the caller's key: everything
     * that decides the function declarations and the options). Building them is what {@code getEnv} spends
     * its time on; the identifiers (a handful) are added per environment.
     */
    private static final Map<Object, Shared> SHARED = new ConcurrentHashMap<>();

    private record Shared(ImmutableMap<String, CelIdentDecl> standardIdents,
                          ImmutableMap<String, CelFunctionDecl> standardFunctions,
                          ImmutableMap<String, CelFunctionDecl> userFunctions, int functionDeclarations) {
    }

    private final TypeProvider typeProvider;
    private final CelOptions options;
    private final CelContainer container;
    private final com.google.common.base.Optional<CelType> expectedResultType;
    private final Shared shared;
    private final Env.DeclGroup userDeclarations;

    private PrebuiltCheckerEnv(TypeProvider typeProvider, CelOptions options, CelContainer container,
                               com.google.common.base.Optional<CelType> expectedResultType, Shared shared,
                               ImmutableMap<String, CelIdentDecl> userIdents) {
        this.typeProvider = typeProvider;
        this.options = options;
        this.container = container;
        this.expectedResultType = expectedResultType;
        this.shared = shared;
        this.userDeclarations = new Env.DeclGroup(userIdents, shared.userFunctions());
    }

    /**
     * The prebuilt environment of {@code compiler}'s checker, or empty where it cannot be built.
     *
     * @param shape equal for compilers with the same function declarations, options and standard
     *              environment (they may differ in identifiers and type provider)
     */
    static Optional<PrebuiltCheckerEnv> of(CelCompiler compiler, Object shape) {
        if (REFLECTION == null) {
            return Optional.empty();
        }
        try {
            Object checker = REFLECTION.compilerChecker.get(compiler);
            if (!(checker instanceof CelCheckerLegacyImpl legacy)) {
                return Optional.empty();
            }
            int functions = ((Set<?>) REFLECTION.functionDeclarations.get(legacy)).size();
            Shared shared = SHARED.get(shape);
            if (shared == null || shared.functionDeclarations() != functions) {
                Errors errors = new Errors("<input>", "");
                Env env = (Env) REFLECTION.getEnv.invoke(legacy, errors);
                if (errors.getErrorCount() > 0 || env.scopeDepth() != 1) {
                    return Optional.empty(); // declaration errors: cel-java reports them on each check
                }
                Env.DeclGroup standard = env.getDeclGroup(0);
                shared = new Shared(ImmutableMap.copyOf(standard.getIdents()),
                        ImmutableMap.copyOf(standard.getFunctions()),
                        ImmutableMap.copyOf(env.getDeclGroup(1).getFunctions()), functions);
                SHARED.put(shape, shared);
            }
            TypeProvider typeProvider = (TypeProvider) REFLECTION.typeProvider.get(legacy);
            CelOptions options = (CelOptions) REFLECTION.checkerOptions.get(legacy);
            // Env.add, as getEnv does it (it normalises well-known types), into an otherwise empty Env
            Errors errors = new Errors("<input>", "");
            Env idents = Env.unconfigured(errors, typeProvider, options);
            @SuppressWarnings("unchecked")
            Set<CelIdentDecl> declared = (Set<CelIdentDecl>) REFLECTION.identDeclarations.get(legacy);
            declared.forEach(idents::add);
            if (errors.getErrorCount() > 0) {
                return Optional.empty();
            }
            @SuppressWarnings("unchecked")
            var expected = (com.google.common.base.Optional<CelType>) REFLECTION.expectedResultType.get(legacy);
            return Optional.of(new PrebuiltCheckerEnv(typeProvider, options,
                    (CelContainer) REFLECTION.container.get(legacy), expected, shared,
                    ImmutableMap.copyOf(idents.getDeclGroup(0).getIdents())));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** {@code CelCheckerLegacyImpl.check} on the prebuilt declarations. */
    CelValidationResult check(CelAbstractSyntaxTree ast) throws ReflectiveOperationException {
        CelSource source = ast.getSource();
        Errors errors = new Errors(source.getDescription(), source.getContent().toString());
        Env env = Env.unconfigured(errors, typeProvider, options);
        @SuppressWarnings("unchecked")
        List<Env.DeclGroup> scopes = (List<Env.DeclGroup>) REFLECTION.envDecls.get(env);
        scopes.set(0, new Env.DeclGroup(new HashMap<>(shared.standardIdents()),
                new HashMap<>(shared.standardFunctions())));
        scopes.add(userDeclarations);
        CelAbstractSyntaxTree checked = ExprChecker.typecheck(env, container, ast, expectedResultType);
        if (errors.getErrorCount() > 0) {
            @SuppressWarnings("unchecked")
            ImmutableList<CelIssue> issues = (ImmutableList<CelIssue>) REFLECTION.errorsToIssues.invoke(null, errors);
            return new CelValidationResult(source, issues);
        }
        return new CelValidationResult(checked, ImmutableList.of());
    }

    /** The private members used, looked up once. */
    private record Reflection(Field compilerChecker, Method getEnv, Field container, Field expectedResultType,
                              Method errorsToIssues, Field envDecls, Field functionDeclarations,
                              Field identDeclarations, Field typeProvider, Field checkerOptions) {
        static Reflection load() {
            try {
                Class<?> legacy = CelCheckerLegacyImpl.class;
                Field checker = Class.forName("dev.cel.compiler.CelCompilerImpl").getDeclaredField("checker");
                Method getEnv = legacy.getDeclaredMethod("getEnv", Errors.class);
                Field container = legacy.getDeclaredField("container");
                Field expected = legacy.getDeclaredField("expectedResultType");
                Method toIssues = legacy.getDeclaredMethod("errorsToIssues", Errors.class);
                Field decls = Env.class.getDeclaredField("decls");
                Field functions = legacy.getDeclaredField("functionDeclarations");
                Field idents = legacy.getDeclaredField("identDeclarations");
                Field typeProvider = legacy.getDeclaredField("typeProvider");
                Field options = legacy.getDeclaredField("celOptions");
                for (var member : List.of(checker, getEnv, container, expected, toIssues, decls, functions, idents,
                        typeProvider, options)) {
                    member.setAccessible(true);
                }
                if (expected.getType() != com.google.common.base.Optional.class) {
                    return null;
                }
                return new Reflection(checker, getEnv, container, expected, toIssues, decls, functions, idents,
                        typeProvider, options);
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }
    }
}

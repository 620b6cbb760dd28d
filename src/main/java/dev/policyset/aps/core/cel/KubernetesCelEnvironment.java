package dev.policyset.aps.core.cel;

import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelIssue;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerBuilder;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.extensions.CelStringExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeBuilder;
import dev.cel.runtime.CelRuntimeFactory;
import dev.cel.validator.CelAstValidator;
import dev.cel.validator.validators.HomogeneousLiteralValidator;
import dev.policyset.aps.core.cel.lib.CelAuthorizer;
import dev.policyset.aps.core.cel.lib.KubeCelLibrary;
import dev.policyset.aps.core.cel.lib.KubernetesLibraries;
import dev.policyset.aps.core.cel.lib.ProgramInstantiationException;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.util.BoundedMaps;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The Kubernetes CEL environment on cel-java: what kube-apiserver builds for admission expressions
 * ({@code k8s.io/apiserver/pkg/cel/environment/base.go: baseOpts} plus
 * {@code admission/plugin/cel/compile.go: createEnvForOpts}) at one CEL compatibility version.
 *
 * <p>Per version (the {@code IntroducedVersion} of base.go; the compatibility version is the server
 * minor − 1):
 * <ul>
 *   <li>always: standard macros, homogeneous aggregate literals (literals passed to {@code format} are
 *       exempt), UTC default time zone, strings extension v0, the Kubernetes URL/regex/lists libraries;</li>
 *   <li>1.28: cross-type numeric comparisons, optional types and syntax;</li>
 *   <li>1.29: literal validators (duration, timestamp, {@code matches} regex); strings v2 ({@code format},
 *       {@code strings.quote}, {@code join}); sets;</li>
 *   <li>1.32: two-variable comprehensions; 1.34: the cel-go lists extension ({@code lists.range},
 *       {@code sort}, ...);</li>
 *   <li>the Kubernetes libraries from {@link KubernetesLibraries#forVersion}.</li>
 * </ul>
 * Never: cel-go math, bindings ({@code cel.bind}), encoders, protos, strings v3 ({@code reverse}).
 *
 * <p>Compiling also does what cel-go does when the program is built: a type conversion whose argument
 * is a literal ({@code int('abc')}) is evaluated and its error reported as
 * {@code program instantiation failed: ...}.
 */
public final class KubernetesCelEnvironment {
    /** cel-go's parser limits, which Kubernetes keeps. */
    static final int MAX_EXPRESSION_CODE_POINTS = 100_000;
    static final int MAX_RECURSION_DEPTH = 250;

    /** Type conversions cel-go folds when the program is built. */
    private static final Set<String> CONVERSIONS =
            Set.of("int", "uint", "double", "string", "bytes", "bool", "duration", "timestamp");

    /**
     * What is declared besides {@code object}, {@code oldObject}, {@code request} and
     * {@code namespaceObject} (always).
     *
     * @param params     {@code params} ({@code dyn}): the policy has a paramKind
     * @param authorizer {@code authorizer} and {@code authorizer.requestResource}
     * @param mutation   MAP mutations: {@code Object}, {@code JSONPatch}, {@code jsonpatch.escapeKey}
     * @param variables  {@code variables.<name>} with their types, in declaration order; {@code null}
     *                   when {@code variables} is not declared at all
     * @param roots      {@code object}/{@code oldObject} and {@code params} typed from schemas (the type checker's
     *                   environment, {@code typechecking.go: buildEnvSet}); null: both {@code dyn}, as at create time
     */
    public record Declarations(boolean params, boolean authorizer, boolean mutation, Map<String, CelType> variables,
                               RootTypes roots) {
        public Declarations {
            variables = variables == null ? null : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(variables));
        }

        public Declarations(boolean params, boolean authorizer, boolean mutation, Map<String, CelType> variables) {
            this(params, authorizer, mutation, variables, null);
        }

        /** The cel-eval default: a validation of a policy with paramKind, no variables. */
        public static Declarations validation() {
            return new Declarations(true, true, false, null);
        }

        /** A MAP mutation of a policy with paramKind and no variables. */
        public static Declarations mutationExpression() {
            return new Declarations(true, true, true, Map.of());
        }

        public Declarations withVariables(Map<String, CelType> vars) {
            return new Declarations(params, authorizer, mutation, vars, roots);
        }
    }

    /**
     * The declared types of {@code object}/{@code oldObject} and {@code params} (null: {@code dyn}) and every named
     * object type they use, for the type provider. Compared by identity: environments are cached per instance, so
     * a caller keeps one instance per schema pair.
     */
    public static final class RootTypes {
        private final CelType object;
        private final CelType params;
        private final List<CelType> types;

        public RootTypes(CelType object, CelType params, List<CelType> types) {
            this.object = object;
            this.params = params;
            this.types = List.copyOf(types);
        }

        public CelType object() {
            return object;
        }

        public CelType params() {
            return params;
        }

        public List<CelType> types() {
            return types;
        }
    }

    /** A compiled expression: the checked AST, or the error the API server reports. */
    public record Compiled(String expression, CelAbstractSyntaxTree ast, String error) {
        public boolean ok() {
            return error == null;
        }

        /** The checked result type; only when {@link #ok()}. */
        public CelType resultType() {
            return ast.getResultType();
        }
    }

    /**
     * Building an environment costs tens of milliseconds; a scope builds one per variable it declares.
     * Bounded, because the operator is long-running and variable sets vary per policy.
     */
    private static volatile int cacheSize = 512;
    private static final Map<Key, KubernetesCelEnvironment> CACHE = BoundedMaps.leastRecentlyUsed(() -> cacheSize);

    /**
     * Keeps at least this many environments from now on. A run over many policies needs more than the 512 a
     * long-running operator keeps: the CLI over 1,000 policy files (five copies of 205 policies) asked for 208,747
     * environments and built 21,124, every copy again, because 512 could not hold one copy's 4,000-odd (a policy
     * takes one per declared variable, typed ones per matched kind too). The CLI raises the bound by its input.
     */
    public static void cacheAtLeast(int environments) {
        if (environments > cacheSize) {
            cacheSize = environments;
        }
    }
    private static final java.util.concurrent.atomic.AtomicLong LOOKUPS = new java.util.concurrent.atomic.AtomicLong();
    private static final java.util.concurrent.atomic.AtomicLong BUILT = new java.util.concurrent.atomic.AtomicLong();

    /** Environments asked for and environments built since the process started (benchmarks; cache misses). */
    public static long[] cacheStatistics() {
        return new long[] {LOOKUPS.get(), BUILT.get()};
    }

    private record Key(KubeVersion version, boolean params, boolean authorizer, boolean mutation, String variables,
                       Set<String> objectFields, RootTypes roots) {
    }

    private final KubeVersion version;
    private final Declarations declarations;
    private final CelCompiler compiler;
    /** The checker environment built once; empty where cel-java's own {@code check} is used. */
    private final Optional<PrebuiltCheckerEnv> prebuiltChecker;

    private static volatile boolean prebuiltCheckerEnabled = true;

    /**
     * Whether environments built from now on check on a prebuilt checker environment ({@link PrebuiltCheckerEnv},
     * the default) or with cel-java's own {@code check}. For {@code aps bench}, which compares the two.
     */
    public static void usePrebuiltChecker(boolean enabled) {
        prebuiltCheckerEnabled = enabled;
    }

    /** Whether this environment checks on a prebuilt checker environment. */
    boolean usesPrebuiltChecker() {
        return prebuiltChecker.isPresent();
    }

    /** What decides the checker's function declarations and options (see the constructor). */
    private record CheckerShape(KubeVersion version, boolean mutation) {
    }
    /**
     * Built on first use, builder and all: checking needs no runtime (only evaluation and the rare literal-conversion
     * fold do), and a scope makes one environment per variable it declares, so building runtimes eagerly cost about a
     * quarter of a validation run, and even the builder loads cel-java's runtime (some 300 classes) into a CLI run
     * that evaluates nothing.
     */
    private CelRuntime runtime;
    private final CelTypeProvider types;
    /**
     * The AST validators of {@code CompileCELExpression}, run by {@link #validate}: they read the tree and its types,
     * nothing else.
     */
    private final List<CelAstValidator> astValidators;
    private static final CelAstValidator HOMOGENEOUS_LITERALS =
            HomogeneousLiteralValidator.newInstance("format", "lists.@sortByAssociatedKeys");
    private final List<KubeCelLibrary> libraries;

    private final Set<String> objectFields;

    private KubernetesCelEnvironment(KubeVersion version, Declarations declarations, Set<String> objectFields) {
        this.version = version;
        this.declarations = declarations;
        this.objectFields = objectFields;
        List<KubeCelLibrary> libraries = KubernetesLibraries.forVersion(version);
        CelOptions options = options(version);

        CelTypeProvider types = typeProvider(declarations, objectFields, libraries);
        CelCompilerBuilder cb = CelCompilerFactory.standardCelCompilerBuilder()
                .setOptions(options)
                .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
                .setTypeProvider(types)
                .addLibraries(CelExtensions.strings(stringFunctions(version)))
                .addLibraries(libraries);
        if (atLeast(1, 28)) {
            cb.addLibraries(CelExtensions.optional());
        }
        if (atLeast(1, 29)) {
            cb.addLibraries(StringFormatLibrary.INSTANCE, SetsDeclarations.INSTANCE);
        }
        if (atLeast(1, 32)) {
            cb.addLibraries(CelExtensions.comprehensions());
        }
        if (atLeast(1, 34)) {
            cb.addLibraries(CelExtensions.lists(2));
        }
        if (declarations.mutation()) {
            cb.addLibraries(MutationLibrary.INSTANCE);
        }
        this.types = types;

        RootTypes roots = declarations.roots();
        CelType objectType = roots == null || roots.object() == null ? SimpleType.DYN : roots.object();
        cb.addVar("object", objectType);
        cb.addVar("oldObject", objectType);
        cb.addVar("request", KubeCelTypes.ADMISSION_REQUEST);
        cb.addVar("namespaceObject", KubeCelTypes.NAMESPACE);
        if (declarations.params()) {
            cb.addVar("params", roots == null || roots.params() == null ? SimpleType.DYN : roots.params());
        }
        if (declarations.authorizer()) {
            cb.addVar("authorizer", CelAuthorizer.AUTHORIZER_TYPE);
            cb.addVar("authorizer.requestResource", CelAuthorizer.RESOURCE_CHECK_TYPE);
        }
        if (declarations.variables() != null) {
            cb.addVar("variables", variablesType(declarations.variables()));
        }
        this.compiler = cb.build();
        this.prebuiltChecker = prebuiltCheckerEnabled
                ? PrebuiltCheckerEnv.of(compiler, new CheckerShape(version, declarations.mutation()))
                : Optional.empty();

        this.astValidators = atLeast(1, 29)
                ? List.of(HOMOGENEOUS_LITERALS, LiteralValidator.INSTANCE, StringFormatLibrary.VALIDATOR)
                : List.of(HOMOGENEOUS_LITERALS);
        this.libraries = libraries;
    }

    /**
     * Forgets every cached environment and compile result, so the next validation compiles every expression
     * again: what a fresh process pays. For benchmarks that must not measure cache hits.
     */
    public static void clearCaches() {
        CACHE.clear();
    }

    /** The environment for a compatibility version and a set of declarations (cached). */
    public static KubernetesCelEnvironment create(KubeVersion celCompatibilityVersion, Declarations declarations) {
        return create(celCompatibilityVersion, declarations, Set.of());
    }

    private static KubernetesCelEnvironment create(KubeVersion celCompatibilityVersion, Declarations declarations,
                                                   Set<String> objectFields) {
        String vars = declarations.variables() == null ? null : declarations.variables().entrySet().stream()
                .map(e -> e.getKey() + ":" + KubeCelTypes.format(e.getValue())).reduce("", (a, b) -> a + "," + b);
        Key key = new Key(celCompatibilityVersion, declarations.params(), declarations.authorizer(),
                declarations.mutation(), vars, Set.copyOf(objectFields), declarations.roots());
        LOOKUPS.incrementAndGet();
        KubernetesCelEnvironment cached = CACHE.get(key);
        if (cached != null) {
            return cached;
        }
        BUILT.incrementAndGet();
        KubernetesCelEnvironment created = new KubernetesCelEnvironment(celCompatibilityVersion, declarations,
                key.objectFields());
        CACHE.putIfAbsent(key, created);
        return created;
    }

    public KubeVersion version() {
        return version;
    }

    public Declarations declarations() {
        return declarations;
    }

    /**
     * A compiled expression ready to run: has() rewritten as cel-go answers it, and its planned program.
     *
     * @param source the checked tree it was made from (compared by identity)
     */
    record Prepared(CelAbstractSyntaxTree source, CelAbstractSyntaxTree ast, CelRuntime.Program program) {}

    /**
     * Planning a program is most of an evaluation's time when one expression runs over many objects (an impact
     * scan, a test suite): programs are immutable, so each is planned once per environment (bounded). Kept by
     * expression, and used only for the very tree it was made from: this environment's {@link #compile} returns the
     * same tree for the same expression, but callers may evaluate trees of their own under an expression's text
     * (type checking's kind narrowing evaluates rewritten conditions).
     */
    Prepared prepared(Compiled compiled) throws CelEvaluationException {
        Prepared known = programs.get(compiled.expression());
        if (known != null && known.source() == compiled.ast()) {
            return known;
        }
        CelAbstractSyntaxTree ast = PresenceTests.rewrite(compiled.ast());
        Prepared made = new Prepared(compiled.ast(), ast, runtime().createProgram(ast));
        if (known == null) {
            programs.put(compiled.expression(), made);
        }
        return made;
    }

    private final Map<String, Prepared> programs = BoundedMaps.leastRecentlyUsed(COMPILED_PER_ENVIRONMENT);

    synchronized CelRuntime runtime() {
        if (runtime == null) {
            runtime = newRuntime();
        }
        return runtime;
    }

    /** The runtime for the compiler's declarations: the same libraries, cel-go's behaviour where it differs. */
    private CelRuntime newRuntime() {
        CelOptions options = options(version);
        CelRuntimeBuilder rb = CelRuntimeFactory.plannerRuntimeBuilder()
                // the planner refuses to switch these off; the checker's options gate them instead
                .setOptions(options.toBuilder().enableHeterogeneousNumericComparisons(true).build())
                .setTypeProvider(types)
                .setStandardFunctions(GoCompatibleFunctions.standardFunctions())
                // cel-java's declarations (above), cel-go's implementations
                .addLibraries(new GoStrings(celGoAtLeast029(version)))
                .addLibraries(libraries);
        rb.addFunctionBindings(GoCompatibleFunctions.bindings(options, celGoAtLeast029(version)));
        rb.addFunctionBindings(PresenceTests.binding());
        if (atLeast(1, 28)) {
            rb.addLibraries(CelExtensions.optional());
        }
        if (atLeast(1, 29)) {
            rb.addLibraries(StringFormatLibrary.INSTANCE, CelExtensions.sets(options));
        }
        if (atLeast(1, 32)) {
            rb.addLibraries(CelExtensions.comprehensions());
        }
        if (atLeast(1, 34)) {
            rb.addLibraries(CelExtensions.lists(2));
        }
        if (declarations.mutation()) {
            rb.addLibraries(MutationLibrary.INSTANCE);
            rb.setValueProvider((typeName, fields) -> Optional.of(typeName.equals(MutationLibrary.JSON_PATCH.name())
                    ? new JsonPatchValue(fields) : new ObjectValue(typeName, fields)));
        } else {
            // Struct construction of the request/namespace types is not allowed upstream either; a value
            // provider is still needed by the planner for any struct literal that type-checks.
            rb.setValueProvider((typeName, fields) -> Optional.empty());
        }
        return rb.build();
    }

    private boolean atLeast(int major, int minor) {
        return version.atLeast(major, minor);
    }

    static CelOptions options(KubeVersion version) {
        return CelOptions.current()
                .enableOptionalSyntax(version.atLeast(1, 28))
                .enableHeterogeneousNumericComparisons(version.atLeast(1, 28))
                .maxExpressionCodePointSize(MAX_EXPRESSION_CODE_POINTS)
                .maxParseRecursionDepth(MAX_RECURSION_DEPTH)
                .comprehensionMaxIterations(CelEvaluator.MAX_COMPREHENSION_ITERATIONS)
                .build();
    }

    /**
     * Kubernetes 1.37 (CEL compatibility 1.36) vendors cel-go v0.29.2 (kubernetes/apiserver go.mod, commit
     * "dependencies: cel-go v0.29.2"); 1.30 to 1.36 vendor v0.26.0 or older. Behaviour that changed between the two
     * lines is switched here.
     */
    static boolean celGoAtLeast029(KubeVersion celCompatibilityVersion) {
        return celCompatibilityVersion.atLeast(1, 36);
    }

    private static Set<CelStringExtensions.Function> stringFunctions(KubeVersion version) {
        Set<CelStringExtensions.Function> functions = EnumSet.of(
                CelStringExtensions.Function.CHAR_AT, CelStringExtensions.Function.INDEX_OF,
                CelStringExtensions.Function.LAST_INDEX_OF, CelStringExtensions.Function.LOWER_ASCII,
                CelStringExtensions.Function.REPLACE, CelStringExtensions.Function.SPLIT,
                CelStringExtensions.Function.SUBSTRING, CelStringExtensions.Function.TRIM,
                CelStringExtensions.Function.UPPER_ASCII);
        if (version.atLeast(1, 29)) {
            functions.add(CelStringExtensions.Function.QUOTE);
            functions.add(CelStringExtensions.Function.JOIN);
        }
        return functions;
    }

    private static CelTypeProvider typeProvider(Declarations declarations, Set<String> objectFields,
                                                List<KubeCelLibrary> libraries) {
        List<CelType> structs = new ArrayList<>(KubeCelTypes.ADMISSION_TYPES);
        if (declarations.variables() != null) {
            structs.add(variablesType(declarations.variables()));
        }
        libraries.forEach(l -> structs.addAll(l.types()));
        Map<String, CelType> byName = new java.util.HashMap<>();
        if (declarations.roots() != null) {
            structs.addAll(declarations.roots().types());
        }
        structs.forEach(t -> byName.putIfAbsent(t.name(), t));
        CelTypeProvider base = new CelTypeProvider() {
            @Override
            public ImmutableCollection<CelType> types() {
                return ImmutableList.copyOf(structs);
            }

            @Override
            public Optional<CelType> findType(String name) {
                if (name.equals("google.protobuf.Duration")) {
                    return Optional.of(SimpleType.DURATION);
                }
                if (name.equals("google.protobuf.Timestamp")) {
                    return Optional.of(SimpleType.TIMESTAMP);
                }
                return Optional.ofNullable(byName.get(name));
            }
        };
        return declarations.mutation() ? MutationLibrary.typeProvider(base, objectFields) : base;
    }

    private static StructType variablesType(Map<String, CelType> variables) {
        Map<String, CelType> fields = new LinkedHashMap<>();
        variables.forEach((name, type) -> fields.put(name, KubeCelTypes.variableFieldType(type)));
        return KubeCelTypes.struct(KubeCelTypes.VARIABLES_TYPE_NAME, fields);
    }

    /**
     * Parses, type-checks and validates like {@code CompileCELExpression}, then makes the program-creation
     * checks. The error text is the API server's: {@code compilation failed: ERROR: <input>:L:C: ...} or
     * {@code program instantiation failed: ...}.
     */
    public Compiled compile(String expression) {
        Compiled known = compiled.get(expression);
        if (known != null) {
            return known;
        }
        Compiled result = compileUncached(expression);
        compiled.put(expression, result);
        return result;
    }

    /**
     * cel-java rebuilds its checker environment on every check (milliseconds per expression); the
     * operator validates the same expressions on every reconcile, so results are kept (bounded).
     */
    private static final int COMPILED_PER_ENVIRONMENT = 1024;
    private final Map<String, Compiled> compiled = BoundedMaps.leastRecentlyUsed(COMPILED_PER_ENVIRONMENT);

    private Compiled compileUncached(String expression) {
        if (declarations.mutation()) {
            Set<String> fields = fieldNames(expression);
            if (!objectFields.containsAll(fields)) {
                Set<String> all = new java.util.TreeSet<>(objectFields);
                all.addAll(fields);
                return create(version, declarations, all).compile(expression);
            }
        }
        CelValidationResult result = parseAndCheck(expression);
        if (result.hasError()) {
            return new Compiled(expression, null, "compilation failed: " + CelErrors.compileIssues(result.getErrorString()));
        }
        CelAbstractSyntaxTree ast;
        try {
            ast = result.getAst();
        } catch (CelValidationException e) {
            return new Compiled(expression, null, "compilation failed: " + CelErrors.compileIssues(e.getMessage()));
        }
        if (declarations.roots() != null) {
            // A type-checking environment (core.validate.typecheck): only the check matters. The AST validators, the
            // literal folds and the program preparation look at literals, not at types; the same expression has been
            // through them in its create-time environment, and running them again is most of a compile's time.
            return new Compiled(expression, ast, null);
        }
        CelValidationResult validated = validate(ast);
        if (validated.hasError()) {
            return new Compiled(expression, null, "compilation failed: " + CelErrors.compileIssues(validated.getErrorString()));
        }
        Optional<String> programError = programErrors(ast, expression);
        if (programError.isPresent()) {
            return new Compiled(expression, null, "program instantiation failed: " + programError.get());
        }
        try {
            ast = KubernetesLibraries.prepareProgram(libraries, ast);
        } catch (ProgramInstantiationException e) {
            return new Compiled(expression, null, "program instantiation failed: " + e.getMessage());
        }
        return new Compiled(expression, ast, null);
    }

    /**
     * Parses and checks without the AST validators (homogeneous literals, literal checks): upstream's cost
     * tables ({@code library/cost_test.go}) use an environment that has none. For tests.
     */
    Compiled compileWithoutValidators(String expression) {
        CelValidationResult result = parseAndCheck(expression);
        try {
            return new Compiled(expression, KubernetesLibraries.prepareProgram(libraries, result.getAst()), null);
        } catch (CelValidationException | ProgramInstantiationException e) {
            return new Compiled(expression, null, e.getMessage());
        }
    }

    /** {@code compiler.compile}, with the check on the prebuilt checker environment when there is one. */
    private CelValidationResult parseAndCheck(String expression) {
        if (prebuiltChecker.isEmpty()) {
            return compiler.compile(expression);
        }
        CelValidationResult parsed = compiler.parse(expression);
        if (parsed.hasError()) {
            return parsed;
        }
        CelAbstractSyntaxTree ast;
        try {
            ast = parsed.getAst();
        } catch (CelValidationException e) {
            return parsed;
        }
        try {
            return prebuiltChecker.get().check(ast);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return compiler.check(ast);
        }
    }

    /**
     * Runs the AST validators over a checked tree, as cel-java's {@code CelValidator} does minus one thing: before
     * each validator, for each expression, cel-java rebuilds the whole {@code Cel} (a compiler and a runtime with every
     * standard function) to hand it over, which none of these reads; in a cold CLI run that runtime alone loaded about
     * 950 classes.
     */
    private CelValidationResult validate(CelAbstractSyntaxTree ast) {
        CelNavigableAst navigable = CelNavigableAst.fromAst(ast);
        ImmutableList.Builder<CelIssue> issues = ImmutableList.builder();
        for (CelAstValidator v : astValidators) {
            CelAstValidator.IssuesFactory found = new CelAstValidator.IssuesFactory(navigable);
            v.validate(navigable, null, found);
            issues.addAll(found.getIssues());
        }
        return new CelValidationResult(ast, issues.build());
    }

    /** The field names an expression uses in struct literals and selections (for the Object types). */
    private Set<String> fieldNames(String expression) {
        CelValidationResult parsed = compiler.parse(expression);
        if (parsed.hasError()) {
            return Set.of();
        }
        try {
            Set<String> names = new java.util.TreeSet<>();
            CelNavigableAst.fromAst(parsed.getAst()).getRoot().allNodes().map(CelNavigableExpr::expr).forEach(e -> {
                if (e.getKind() == CelExpr.ExprKind.Kind.STRUCT) {
                    e.struct().entries().forEach(entry -> names.add(entry.fieldKey()));
                } else if (e.getKind() == CelExpr.ExprKind.Kind.SELECT) {
                    names.add(e.select().field());
                }
            });
            return names;
        } catch (CelValidationException e) {
            return Set.of();
        }
    }

    /** cel-go's {@code decOptimize}: literal type conversions are evaluated when the program is built. */
    private Optional<String> programErrors(CelAbstractSyntaxTree ast, String expression) {
        return CelNavigableAst.fromAst(ast).getRoot().allNodes()
                .map(CelNavigableExpr::expr)
                .filter(KubernetesCelEnvironment::isLiteralConversion)
                .map(e -> foldError(ast, e, expression))
                .flatMap(Optional::stream)
                .findFirst();
    }

    private static String typeName(String conversion) {
        return switch (conversion) {
            case "duration" -> "google.protobuf.Duration";
            case "timestamp" -> "google.protobuf.Timestamp";
            default -> conversion;
        };
    }

    private static boolean isLiteralConversion(CelExpr e) {
        if (e.getKind() != CelExpr.ExprKind.Kind.CALL) {
            return false;
        }
        var call = e.call();
        return call.target().isEmpty() && CONVERSIONS.contains(call.function()) && call.args().size() == 1
                && call.args().get(0).getKind() == CelExpr.ExprKind.Kind.CONSTANT;
    }

    private Optional<String> foldError(CelAbstractSyntaxTree ast, CelExpr conversion, String expression) {
        CelAbstractSyntaxTree sub = CelAbstractSyntaxTree.newCheckedAst(conversion, ast.getSource(),
                ast.getReferenceMap(), ast.getTypeMap());
        try {
            runtime().createProgram(sub).eval(Map.of());
            return Optional.empty();
        } catch (CelEvaluationException | RuntimeException e) {
            String message = CelErrors.evaluation(e, expression);
            var argument = conversion.call().args().get(0).constant();
            if (argument.getKind() == dev.cel.common.ast.CelConstant.Kind.STRING_VALUE
                    && !message.startsWith("type conversion error")) {
                // cel-go: every failed conversion of a string is "type conversion error from 'string' to 'T'"
                message = "type conversion error from 'string' to '" + typeName(conversion.call().function()) + "'";
            }
            return Optional.of(message);
        }
    }
}

package dev.policyset.aps.cli.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cel.common.CelOptions;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.policyset.aps.cli.ExitCodes;
import dev.policyset.aps.cli.InputFiles;
import dev.policyset.aps.cli.KubeVersionOption;
import dev.policyset.aps.cli.ValidationRun;
import dev.policyset.aps.core.cel.KubernetesCelChecker;
import dev.policyset.aps.core.cel.KubernetesCelEnvironment;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.validate.ValidationOptions;
import dev.policyset.aps.core.validate.ValidationSubject;
import dev.policyset.aps.core.validate.Validator;
import dev.policyset.aps.core.validate.safety.SafetyRule;
import dev.policyset.aps.core.validate.safety.SafetyRules;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code aps-bench validate}: how much the validator costs over the bare CEL compiler on the same input.
 *
 * <p>In one process it times (a) validate: parsed documents → render → every rule, CEL included, and (b) bare
 * cel-java compile + type-check of the same expressions in a plain environment (standard macros, optional syntax,
 * strings and encoders extensions, every top-level variable {@code dyn}), after warm-up rounds, in interleaved
 * pairs (validate, compile), and prints both medians and the median of the pairwise ratios (robust to a shared,
 * loaded machine). YAML parsing is done once, outside both timings.
 *
 * <p>Cold ratio: run each in a fresh JVM with no warm-up, e.g.
 * {@code time java -cp target/aps.jar dev.policyset.aps.cli.bench.Benchmarks validate --mode validate --warmup 0 --iterations 1 DIR} against
 * {@code time java -cp target/aps.jar dev.policyset.aps.cli.bench.Benchmarks validate --mode compile --warmup 0 --iterations 1 DIR}
 * (or {@code time java -jar target/aps.jar validate DIR} for the whole CLI including parsing and printing).
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = "Time validation against bare cel-java compile+check of the same expressions (warm).")
final class ValidateBench implements Callable<Integer> {
    enum Mode { both, validate, compile, typecheck }

    @Parameters(paramLabel = "PATH", arity = "1..*", description = "Files or directories, e.g. ../shared/corpus")
    List<Path> paths;

    @Option(names = "--iterations", defaultValue = "10", description = "Timed rounds (default: ${DEFAULT-VALUE}).")
    int iterations;

    @Option(names = "--warmup", defaultValue = "5", description = "Untimed rounds first (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--mode", defaultValue = "both", description = "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Mode mode;

    @Option(names = "--stock-checker", description = "Check with cel-java's own check(), which rebuilds its "
            + "environment per expression, instead of the prebuilt checker environment (for before/after figures).")
    boolean stockChecker;

    @picocli.CommandLine.Mixin
    KubeVersionOption kubeVersion;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        KubeVersion version = kubeVersion.version;
        KubernetesCelEnvironment.usePrebuiltChecker(!stockChecker);
        InputFiles.Loaded loaded = InputFiles.load(paths);
        List<ValidationSubject> subjects = ValidationRun.subjects(loaded.documents(), version).subjects();
        List<String> expressions = new ArrayList<>();
        subjects.forEach(s -> collectExpressions(s.object().manifest(), "", expressions));
        if (!loaded.problems().isEmpty() || expressions.isEmpty()) {
            // Without input both sides time next to nothing, and their ratio (729 once) is noise printed as a result.
            PrintWriter err = spec.commandLine().getErr();
            loaded.problems().forEach(p -> err.println("bench validate: " + p.describe()));
            err.println("bench validate: no CEL expressions to time in " + paths + (loaded.problems().isEmpty() ? "" : " (see above)")
                    + "; give the corpus, e.g. make bench SHARED=../shared");
            return ExitCodes.USAGE_OR_INPUT;
        }
        out.printf("input: %d files, %d objects, %d CEL expressions; warm-up %d, timed %d rounds; %s checker%n",
                loaded.files(), subjects.size(), expressions.size(), warmup, iterations,
                stockChecker ? "cel-java's stock" : "prebuilt");

        Runnable validateRound = () -> {
            // Every round compiles every expression again: the same work as the bare compile.
            KubernetesCelEnvironment.clearCaches();
            List<ValidationSubject> fresh = ValidationRun.subjects(loaded.documents(), version).subjects();
            new Validator(ValidationOptions.offline(version), new KubernetesCelChecker()).validate(fresh);
        };
        CelCompiler compiler = bareCompiler(); // built once, like a checker's cached environment
        Runnable compileRound = () -> {
            for (String e : expressions) {
                compiler.compile(e).hasError();
            }
        };
        if (mode == Mode.both) {
            // Interleaved rounds, one ratio per pair: a load change on a shared machine hits both sides of a pair.
            double[][] pairs = timeInterleaved(validateRound, compileRound);
            double validateMs = median(pairs[0]);
            double compileMs = median(pairs[1]);
            out.printf("validate:     %9.2f ms/round  (%.0f objects/s; every expression compiled)%n",
                    validateMs, subjects.size() / validateMs * 1000);
            out.printf("bare compile: %9.2f ms/round  (%.0f expressions/s)%n", compileMs, expressions.size() / compileMs * 1000);
            // What a long-running operator pays on a resync: compile results are cached.
            double cachedMs = median(time(() -> {
                List<ValidationSubject> fresh = ValidationRun.subjects(loaded.documents(), version).subjects();
                new Validator(ValidationOptions.offline(version), new KubernetesCelChecker()).validate(fresh);
            }));
            out.printf("revalidate:   %9.2f ms/round  (%.0f objects/s; compile results cached, as on a resync)%n",
                    cachedMs, subjects.size() / cachedMs * 1000);
            out.printf("ratio validate / bare compile: %.2f (median of %d pairwise ratios; min %.2f, max %.2f)"
                            + "   (revalidate / bare compile: %.2f)%n",
                    median(pairs[2]), pairs[2].length, Arrays.stream(pairs[2]).min().orElse(Double.NaN),
                    Arrays.stream(pairs[2]).max().orElse(Double.NaN), cachedMs / compileMs);
        } else if (mode == Mode.typecheck) {
            // What schema type checking (APS602, APS603) adds: validate with every rule against validate without them.
            List<SafetyRule> without = SafetyRules.all().stream()
                    .filter(r -> !r.id().equals("APS602") && !r.id().equals("APS603")).toList();
            Runnable withoutRound = () -> {
                KubernetesCelEnvironment.clearCaches();
                List<ValidationSubject> fresh = ValidationRun.subjects(loaded.documents(), version).subjects();
                new Validator(ValidationOptions.offline(version), new KubernetesCelChecker(), without).validate(fresh);
            };
            double[][] pairs = timeInterleaved(validateRound, withoutRound);
            out.printf("validate with type checking:    %9.2f ms/round%n", median(pairs[0]));
            out.printf("validate without type checking: %9.2f ms/round%n", median(pairs[1]));
            out.printf("ratio with / without: %.2f (median of %d pairwise ratios; min %.2f, max %.2f)%n",
                    median(pairs[2]), pairs[2].length, Arrays.stream(pairs[2]).min().orElse(Double.NaN),
                    Arrays.stream(pairs[2]).max().orElse(Double.NaN));
        } else if (mode == Mode.validate) {
            double validateMs = median(time(validateRound));
            out.printf("validate:     %9.2f ms/round  (%.0f objects/s; every expression compiled)%n",
                    validateMs, subjects.size() / validateMs * 1000);
        } else {
            double compileMs = median(time(compileRound));
            out.printf("bare compile: %9.2f ms/round  (%.0f expressions/s)%n", compileMs, expressions.size() / compileMs * 1000);
        }
        out.flush();
        return ExitCodes.OK;
    }

    private double[] time(Runnable round) {
        for (int i = 0; i < warmup; i++) {
            round.run();
        }
        double[] ms = new double[Math.max(1, iterations)];
        for (int i = 0; i < ms.length; i++) {
            long start = System.nanoTime();
            round.run();
            ms[i] = (System.nanoTime() - start) / 1e6;
        }
        return ms;
    }

    /** Warm-up of both, then {@code iterations} pairs (a, b): the times of a, of b, and each pair's a/b. */
    private double[][] timeInterleaved(Runnable a, Runnable b) {
        for (int i = 0; i < warmup; i++) {
            a.run();
            b.run();
        }
        int n = Math.max(1, iterations);
        double[][] out = new double[3][n];
        for (int i = 0; i < n; i++) {
            long start = System.nanoTime();
            a.run();
            long middle = System.nanoTime();
            b.run();
            long end = System.nanoTime();
            out[0][i] = (middle - start) / 1e6;
            out[1][i] = (end - middle) / 1e6;
            out[2][i] = out[0][i] / out[1][i];
        }
        return out;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** The environment the corpus INDEX describes for its own syntax/symbol check. */
    static CelCompiler bareCompiler() {
        var builder = CelCompilerFactory.standardCelCompilerBuilder()
                .setOptions(CelOptions.current().enableOptionalSyntax(true).build())
                .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
                .addLibraries(CelExtensions.optional(), CelExtensions.strings(), CelExtensions.encoders());
        for (String v : List.of("object", "oldObject", "request", "params", "namespaceObject", "authorizer", "variables")) {
            builder.addVar(v, SimpleType.DYN);
        }
        return builder.build();
    }

    /** Every string under a key that holds CEL in admission objects. */
    static void collectExpressions(JsonNode node, String key, List<String> out) {
        if (node.isObject()) {
            node.fields().forEachRemaining(e -> collectExpressions(e.getValue(), e.getKey(), out));
        } else if (node.isArray()) {
            node.forEach(n -> collectExpressions(n, key, out));
        } else if (node.isTextual() && (key.equals("expression") || key.equals("messageExpression")
                || key.equals("valueExpression"))) {
            out.add(node.asText());
        }
    }
}

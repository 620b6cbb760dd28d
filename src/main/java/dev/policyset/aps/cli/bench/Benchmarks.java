package dev.policyset.aps.cli.bench;

import dev.policyset.aps.cli.ExitCodes;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code aps-bench}: the benchmarks, an entry point of their own in {@code aps.jar} so that {@code aps --help}
 * and the {@code cli} package show only what users run. Each prints numbers; none is a test.
 *
 * <pre>java -cp target/aps.jar dev.policyset.aps.cli.bench.Benchmarks validate ../shared/corpus</pre>
 */
@Command(name = "aps-bench", mixinStandardHelpOptions = true,
        description = "Benchmarks of the aps core (docs/benchmark.md). They print numbers; none is a test.",
        subcommands = {ValidateBench.class, ImpactBench.class, ParseBench.class, CommandLine.HelpCommand.class})
public final class Benchmarks implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    static int execute(String... args) {
        CommandLine cli = new CommandLine(new Benchmarks());
        cli.setExitCodeExceptionMapper(e -> ExitCodes.USAGE_OR_INPUT);
        return cli.execute(args);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing a benchmark: validate, impact or parse");
    }
}

package dev.policyset.aps.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.InputStream;
import java.io.PrintWriter;
import java.util.stream.Collectors;

/**
 * {@code aps}: the offline half of the operator. Plain picocli over {@code core}; it starts no Quarkus,
 * no HTTP server and no Kubernetes client, so it is cheap enough for every pull request.
 */
@Command(name = "aps",
        mixinStandardHelpOptions = true,
        versionProvider = ApsCommand.Version.class,
        description = "Render, validate and test AdmissionPolicySets and admission objects without a cluster; review a webhook's answers.",
        subcommands = {RenderCommand.class, ValidateCommand.class, TestCommand.class, ChainCommand.class, ReviewCommand.class,
                ImpactCommand.class, ImportCommand.class,
                ExplainCommand.class, CompletionCommand.class,
                CommandLine.HelpCommand.class},
        footer = {"", "Examples:",
                "  aps validate config/samples/",
                "  aps validate --output sarif policies/ > aps.sarif",
                "  kubectl kustomize overlays/prod | aps validate -",
                "  aps render config/samples/ > generated.yaml",
                "  aps render --kube-version 1.34 policies/baseline.yaml",
                "  aps test config/samples/tests/",
                "  aps impact --resources cluster-dump/ policies/",
                "  aps explain APS201",
                "  aps review --url https://localhost:8443/validate --ca ca.crt \\",
                "      --operation CREATE pod.yaml",
                "  source <(aps completion bash)",
                "",
                "Exit codes: 0 no error findings, 1 error findings, 2 usage error or unreadable input."})
public final class ApsCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** What a PATH of {@code -} reads; subcommands reach it through {@code @ParentCommand}. */
    private final InputStream stdin;

    private ApsCommand(InputStream stdin) {
        this.stdin = stdin;
    }

    InputStream stdin() {
        return stdin;
    }

    public static void main(String[] args) {
        System.exit(execute(System.in, args));
    }

    /** Runs the CLI without exiting the JVM, for tests. */
    public static int execute(String... args) {
        return execute(System.in, args);
    }

    /** Runs the CLI without exiting the JVM, with {@code stdin} as what {@code -} reads. */
    public static int execute(InputStream stdin, String... args) {
        return commandLine(stdin).execute(args);
    }

    /** The command tree with its handlers, as {@link #execute} runs it (tests walk its help). */
    static CommandLine commandLine(InputStream stdin) {
        CommandLine cli = new CommandLine(new ApsCommand(stdin));
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("aps: internal error: " + e);
            return ExitCodes.USAGE_OR_INPUT;
        });
        cli.setParameterExceptionHandler(ApsCommand::usageError);
        cli.setExitCodeExceptionMapper(e -> ExitCodes.USAGE_OR_INPUT);
        return cli;
    }

    /**
     * A usage error is the error and where to read more, not the whole help: 40–80 lines of options bury the one
     * line that says what was wrong (git and kubectl answer the same way). Picocli's suggestions for a misspelt
     * option or command stay, they are the fix.
     */
    static int usageError(CommandLine.ParameterException e, String[] args) {
        CommandLine command = e.getCommandLine();
        PrintWriter err = command.getErr();
        err.println(command.getCommandSpec().qualifiedName() + ": " + e.getMessage());
        CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
        err.println("See '" + command.getCommandSpec().qualifiedName() + " --help'.");
        err.flush();
        return ExitCodes.USAGE_OR_INPUT;
    }

    @Override
    public void run() {
        String commands = spec.subcommands().values().stream()
                .map(CommandLine::getCommandSpec)
                .filter(sub -> !sub.usageMessage().hidden() && !"help".equals(sub.name()))
                .map(CommandLine.Model.CommandSpec::name)
                .distinct()
                .collect(Collectors.joining(", "));
        throw new CommandLine.ParameterException(spec.commandLine(), "missing a command: one of " + commands);
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = ApsCommand.class.getPackage().getImplementationVersion();
            return new String[] {"aps " + (v == null ? "dev" : v)};
        }
    }
}

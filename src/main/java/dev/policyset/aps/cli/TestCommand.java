package dev.policyset.aps.cli;

import dev.policyset.aps.core.evaluate.suite.Problem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code aps test}: runs policy test files, evaluating each case as the API server would. */
@Command(name = "test",
        mixinStandardHelpOptions = true,
        description = {"Run policy test files (kind: PolicyTest, or kaptest manifests): each case's request is "
                + "evaluated offline against the policies and bindings it loads, as the API server's admission plugins "
                + "would (MutatingAdmissionPolicy, then ValidatingAdmissionPolicy), and compared with its expectation.",
                "Directories are searched recursively; files that are not tests are ignored there. See docs/testing.md."},
        footer = {"", "Examples:",
                "  aps test config/samples/tests/",
                "  aps test --output json policies/tests/ > results.json",
                "  aps test --junit aps-test.xml policies/",
                "  generate-tests | aps test -   # its paths: relative to the working directory",
                "",
                "Exit codes: 0 all cases pass, 1 a case fails, 2 usage error or a test file that cannot be read or parsed."})
final class TestCommand implements Callable<Integer> {
    @Parameters(paramLabel = "PATH", arity = "1..*",
            description = {"Test files, or directories searched recursively for them.",
                    "- reads one test file from standard input (once; named <stdin>); the paths it names are relative "
                            + "to the current directory."})
    List<Path> paths;

    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "text",
            description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    TestPrinter.Format output;

    @Option(names = "--junit", paramLabel = "FILE", description = "Also write the results as JUnit XML to FILE.")
    Path junit;

    @picocli.CommandLine.Mixin
    KubeVersionOption kubeVersion;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @picocli.CommandLine.ParentCommand
    ApsCommand parent;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        InputFiles.requireStdinAtMostOnce(paths, spec.commandLine());
        TestRun.Result result = TestRun.run(paths, parent.stdin(), kubeVersion.version);
        result.problems().forEach(p -> err.println("aps test: " + p.describe()));
        result.files().forEach(f -> f.test().problems().stream().map(Problem::describe)
                .forEach(p -> err.println("aps test: " + p)));
        TestPrinter.print(output, result, out);
        if (junit != null) {
            try {
                Files.writeString(junit, TestPrinter.junit(result), StandardCharsets.UTF_8);
            } catch (IOException e) {
                err.println("aps test: cannot write " + junit + ": " + e.getMessage());
                return ExitCodes.USAGE_OR_INPUT;
            }
        }
        if (result.inputProblems()) {
            return ExitCodes.USAGE_OR_INPUT;
        }
        return result.failed() > 0 ? ExitCodes.FINDINGS : ExitCodes.OK;
    }
}

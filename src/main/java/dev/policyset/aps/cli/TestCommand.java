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
                "  aps test --server --context kind-dev policies/tests/",
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

    @Option(names = "--server", description = {"Also send each case to the API server of a kubeconfig context, as a dry run "
            + "made as the case's user (impersonated), and report the server's result beside the offline one. The test's "
            + "policies are created under names unique to the run, match only the run's own requests, and are removed "
            + "afterwards. Needs the RBAC in docs/testing.md."})
    boolean server;

    @Option(names = "--context", paramLabel = "NAME", description = "The kubeconfig context for --server (default: the current one).")
    String context;

    @Option(names = "--allow-shared-cluster", description = "Run --server on a context that does not look like a throwaway "
            + "cluster (not local, not kind/k3d/minikube/envtest).")
    boolean allowShared;

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
        if (server || context != null) {
            try (ServerTestRun run = ServerTestRun.connect(context, allowShared)
                    .withNotices(m -> err.println("aps test: warning: " + m))) {
                result = TestRun.onServer(result, run::run);
            } catch (ServerTestRun.Refused e) {
                err.println("aps test: " + e.getMessage());
                return ExitCodes.USAGE_OR_INPUT;
            } catch (RuntimeException e) {
                err.println("aps test: the server run failed: " + e.getMessage());
                return ExitCodes.USAGE_OR_INPUT;
            }
        }
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

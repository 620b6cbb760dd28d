package dev.policyset.aps.cli;

import dev.policyset.aps.core.cel.KubernetesCelChecker;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.model.MutatingPolicyVersions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code aps validate}: every finding for the given sets and admission objects, validated together. */
@Command(name = "validate",
        mixinStandardHelpOptions = true,
        description = {"Validate AdmissionPolicySets and bare admission objects (ValidatingAdmissionPolicy, "
                + "MutatingAdmissionPolicy, their bindings, Validating/MutatingWebhookConfiguration) without a cluster.",
                "Everything given in one run is validated together: a binding in one file is paired with a policy in another.",
                "Other kinds (Deployments, CRDs, ...) are skipped with an info finding (input/Skipped): counted in the "
                        + "summary, listed in JSON output and, with --show-skipped, in the others."},
        footer = {"", "Examples:",
                "  aps validate config/samples/",
                "  kubectl kustomize overlays/prod | aps validate -",
                "  helm template my-release chart/ | aps validate --output json -",
                "  aps validate --output json policies/ > findings.json",
                "  aps validate --output sarif --kube-version 1.34 policies/ > aps.sarif",
                "  aps validate --crds crds/ policies/",
                "",
                "Exit codes: 0 no error findings, 1 at least one error finding, 2 usage error or a file that cannot be read or parsed."})
final class ValidateCommand implements Callable<Integer> {
    @Parameters(paramLabel = "PATH", arity = "1..*",
            description = {"Files or directories (searched recursively for .yaml, .yml, .json; multi-document files allowed).",
                    "- reads standard input (once; named <stdin> in findings). Each input is limited to 16 MiB."})
    List<Path> paths;

    @Option(names = "--show-skipped",
            description = "Also list each document that is not an admission object (one info finding each) in text, "
                    + "sarif and codequality output; by default they are only counted in the summary. JSON output "
                    + "always lists them.")
    boolean showSkipped;

    @Option(names = "--crds", paramLabel = "DIR",
            description = {"CustomResourceDefinitions (files or directories) whose schemas type-check the policies "
                    + "that match their kinds (APS602, APS603); may be repeated.",
                    "CRDs among the PATHs are used too. Built-in kinds need nothing (Kubernetes 1.34 model)."})
    List<Path> crds = new java.util.ArrayList<>();

    @picocli.CommandLine.ParentCommand
    ApsCommand parent;

    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "text",
            description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    FindingPrinter.Format output;

    @picocli.CommandLine.Mixin
    KubeVersionOption kubeVersion;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        InputFiles.requireStdinAtMostOnce(paths, spec.commandLine());
        ValidationRun.Result result = ValidationRun.run(paths, parent.stdin(), kubeVersion.version, new KubernetesCelChecker(),
                crds);
        result.findings().stream().filter(f -> f.finding().rule().equals(ValidationRun.UNREADABLE)
                        || f.finding().rule().equals(ValidationRun.TOO_LARGE))
                .forEach(f -> err.println("aps validate: " + f.file() + ":" + f.line() + ": " + f.finding().message()));
        if (result.mutatingPolicies()) {
            // About the target cluster, not about an object: a note on stderr, not a finding.
            MutatingPolicyVersions.notServedByDefaultMessage(kubeVersion.version)
                    .ifPresent(m -> err.println("aps validate: warning: " + m));
        }
        FindingPrinter.print(output, result, showSkipped, out, output == FindingPrinter.Format.text && useColour());
        if (result.inputProblems()) {
            return ExitCodes.USAGE_OR_INPUT;
        }
        return result.count(Severity.ERROR) > 0 ? ExitCodes.FINDINGS : ExitCodes.OK;
    }

    /** Colour only on a terminal, and never when NO_COLOR is set (no-color.org). */
    private static boolean useColour() {
        return System.console() != null && System.getenv("NO_COLOR") == null;
    }
}

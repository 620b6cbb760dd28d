package dev.policyset.aps.cli;

import dev.policyset.aps.core.cel.KubernetesCelChecker;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.model.MutatingPolicyVersions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
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
                "  helm template cert-manager jetstack/cert-manager \\",
                "      | aps validate --config .aps.yaml -",
                "  aps validate --fail-on warning policies/",
                "",
                "Waivers for bare objects (a vendor chart you do not own): on the object, one line per rule,",
                "  admission.policyset.dev/waive: \"APS302: <reason>\"",
                "or in .aps.yaml (--config FILE, or found from the working directory up to the git root):",
                "  waivers:",
                "    - rule: APS302",
                "      objects: [MutatingWebhookConfiguration/cert-manager-*]",
                "      reason: cert-manager's chart sets 30 s timeouts; vendored as published",
                "      expires: 2027-06-30",
                "",
                "Waived findings are reported as info with their reason; api/* findings cannot be waived.",
                "",
                "Exit codes: 0 no finding at or above --fail-on (default: error), 1 at least one, 2 usage error or a file "
                        + "that cannot be read or parsed."})
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

    @Option(names = "--config", paramLabel = "FILE",
            description = {"The repository's waiver file (default: the first " + WaiverFile.NAME + " in the working "
                    + "directory or a parent, up to the directory holding .git). Its waivers apply to bare objects; "
                    + "an AdmissionPolicySet's objects are waived in its spec.safety.exemptions."})
    Path config;

    /** {@code --fail-on}: the least severe finding that makes the run exit 1. */
    enum FailOn {
        error(Severity.ERROR), warning(Severity.WARNING), info(Severity.INFO), none(null);

        final Severity threshold;

        FailOn(Severity threshold) {
            this.threshold = threshold;
        }
    }

    @Option(names = "--fail-on", paramLabel = "SEVERITY", defaultValue = "error",
            description = "Exit 1 when a finding is at least this severe: ${COMPLETION-CANDIDATES} (default: "
                    + "${DEFAULT-VALUE}). Waived findings are info; skipped documents never count.")
    FailOn failOn;

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
        Optional<Path> waiverFile = config != null ? Optional.of(config) : WaiverFile.find(Path.of(""));
        waiverFile.filter(f -> config == null).ifPresent(f -> err.println("aps validate: waivers from " + f));
        WaiverFile.Read waivers = waiverFile.map(WaiverFile::read).orElse(WaiverFile.Read.NONE);
        ValidationRun.Result result = ValidationRun.run(paths, parent.stdin(), kubeVersion.version, new KubernetesCelChecker(),
                crds, waivers, LocalDate.now());
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
        return failOn.threshold != null && result.reaches(failOn.threshold) ? ExitCodes.FINDINGS : ExitCodes.OK;
    }

    /** Colour only on a terminal, and never when NO_COLOR is set (no-color.org). */
    private static boolean useColour() {
        return System.console() != null && System.getenv("NO_COLOR") == null;
    }
}

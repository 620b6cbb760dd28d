package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.MutatingPolicyVersions;
import dev.policyset.aps.core.model.PolicySetReader;
import dev.policyset.aps.core.render.RenderOptions;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.render.Renderer;
import dev.policyset.aps.core.yaml.Document;
import dev.policyset.aps.core.yaml.Yaml;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code aps render}: the native objects a set generates, as YAML on stdout. */
@Command(name = "render",
        mixinStandardHelpOptions = true,
        description = {"Print the objects that AdmissionPolicySets generate, as multi-document YAML on stdout.",
                "Other documents are ignored. Output is deterministic, for diffs in pull requests."},
        footer = {"", "Examples:",
                "  aps render config/samples/",
                "  aps render --kube-version 1.34 baseline.yaml | kubectl apply \\",
                "      --dry-run=server -f -",
                "  kubectl kustomize overlays/prod | aps render -",
                "",
                "Exit codes: 0 rendered, 1 a set is invalid or has mutatingPolicies that --kube-version cannot serve (nothing "
                        + "rendered for it), 2 usage error or unreadable input."})
final class RenderCommand implements Callable<Integer> {
    @Parameters(paramLabel = "PATH", arity = "1..*", description = {"Files or directories (searched recursively for .yaml, .yml, .json).",
            "- reads standard input (once). Each input is limited to 16 MiB."})
    List<Path> paths;

    @picocli.CommandLine.ParentCommand
    ApsCommand parent;

    @picocli.CommandLine.Mixin
    KubeVersionOption kubeVersion;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        RenderOptions options = RenderOptions.forKubeVersion(kubeVersion.version);
        InputFiles.requireStdinAtMostOnce(paths, spec.commandLine());
        InputFiles.Loaded loaded = InputFiles.load(paths, parent.stdin());
        loaded.problems().forEach(p -> err.println("aps render: " + p.describe()));

        List<JsonNode> rendered = new ArrayList<>();
        boolean invalidSet = false;
        boolean mutatingPolicies = false;
        for (Document document : loaded.documents()) {
            if (!PolicySetReader.KIND.equals(document.kind())) {
                continue;
            }
            PolicySetReader.Result result = PolicySetReader.read(document.content());
            for (Finding f : result.findings()) {
                err.println(document.source() + ":" + document.lineOf(f.field()) + ": " + f.object() + ": " + f.field() + ": " + f.message());
            }
            if (result.set().isEmpty()) {
                invalidSet = true;
                continue;
            }
            if (!result.set().get().mutatingPolicies().isEmpty()) {
                if (kubeVersion.version.mutatingPolicyApiVersion().isEmpty()) {
                    // The set is applied whole or not at all: none of its objects, rather than objects in an
                    // API version the target cannot serve.
                    err.println(document.source() + ":" + document.lineOf("spec.mutatingPolicies") + ": "
                            + PolicySetReader.KIND + "/" + result.set().get().name() + ": spec.mutatingPolicies: "
                            + MutatingPolicyVersions.noneServableMessage(kubeVersion.version));
                    invalidSet = true;
                    continue;
                }
                mutatingPolicies = true;
            }
            for (RenderedObject object : Renderer.render(result.set().get(), options)) {
                rendered.add(object.manifest());
            }
        }
        if (mutatingPolicies) {
            MutatingPolicyVersions.notServedByDefaultMessage(kubeVersion.version)
                    .ifPresent(m -> err.println("aps render: warning: " + m));
        }
        out.print(Yaml.write(rendered));
        out.flush();
        if (!loaded.problems().isEmpty()) {
            return ExitCodes.USAGE_OR_INPUT;
        }
        return invalidSet ? ExitCodes.FINDINGS : ExitCodes.OK;
    }
}

package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.evaluate.UserInfo;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.impact.BindingImpact;
import dev.policyset.aps.core.impact.ExistingObjects;
import dev.policyset.aps.core.impact.ImpactReport;
import dev.policyset.aps.core.impact.ImpactScan;
import dev.policyset.aps.core.impact.OpenReports;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.validate.ValidationSubject;
import dev.policyset.aps.core.yaml.Document;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code aps impact}: what the validating and mutating policies in PATH would do to the existing objects in --resources. */
@Command(name = "impact",
        mixinStandardHelpOptions = true,
        description = {"Evaluate every ValidatingAdmissionPolicy in PATH (sets and bare objects), with each of its "
                + "bindings, against the existing objects in --resources (manifests, or kubectl get -o yaml dumps with "
                + "List kinds), as the API server would on their next write: an UPDATE that leaves each object as it is, "
                + "or its CREATE when the binding does not intercept UPDATE.",
                "Reports per policy and binding how many objects it matches, would deny under Deny, denies, warns and "
                        + "audits now, and how many fail to evaluate, with a sample of names and messages; APS801 "
                        + "findings say what switching to Deny would break. Namespaces among the objects give "
                        + "namespaceSelectors their labels; objects of a paramKind are params. See docs/impact.md.",
                "Every MutatingAdmissionPolicy binding is run over the same objects: how many it would change, leave "
                        + "as they are, make the server refuse (immutable fields on UPDATE, schema errors) or change "
                        + "again when applied to its own output, with each sampled object's changes (APS802-APS804)."},
        footer = {"", "Examples:",
                "  aps impact --resources cluster-dump/ config/samples/",
                "  kubectl get deployments,pods -A -o yaml > live.yaml",
                "  kubectl get ns -o yaml > ns.yaml",
                "  aps impact --resources live.yaml --resources ns.yaml --output json policies/ \\",
                "      > impact.json",
                "  # OpenReports Reports per namespace and a ClusterReport, for report UIs:",
                "  aps impact --resources live.yaml --output openreports \\",
                "      --report-results fail,warn policies/ > reports.yaml",
                "",
                "Exit codes: 0 no binding denies an existing object now, 1 one does (an APS801 warning) or a "
                        + "mutating binding makes writes fail or is not idempotent (APS802, APS803 warnings), "
                        + "2 usage error or unreadable input."})
final class ImpactCommand implements Callable<Integer> {
    enum Format { text, json, openreports }

    @Parameters(paramLabel = "PATH", arity = "1..*",
            description = {"AdmissionPolicySets and admission objects: files or directories (searched recursively for "
                    + ".yaml, .yml, .json). - reads standard input (once, for PATH or --resources)."})
    List<Path> paths;

    @Option(names = "--resources", required = true, paramLabel = "DIR",
            description = {"Existing objects: a file or directory of manifests or kubectl get -o yaml output "
                    + "(List kinds are read item by item). Repeatable."})
    List<Path> resources;

    @Option(names = "--samples", paramLabel = "N", defaultValue = "10",
            description = "Objects named per binding at most (default: ${DEFAULT-VALUE}); the counts cover all of them.")
    int samples;

    @Option(names = "--user", paramLabel = "NAME", defaultValue = "aps-impact",
            description = {"request.userInfo.username of every request (default: ${DEFAULT-VALUE}, an authenticated user "
                    + "that is not a system identity); e.g. system:serviceaccount:kube-system:replicaset-controller to "
                    + "ask as the controller that re-creates pods."})
    String user;

    @Option(names = "--group", paramLabel = "G", description = "request.userInfo.groups (repeatable; default: system:authenticated).")
    List<String> groups;

    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "text",
            description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Format output;

    @CommandLine.ParentCommand
    ApsCommand parent;

    @Option(names = "--report-results", paramLabel = "R,...", defaultValue = "fail,error,warn",
            description = {"With --output openreports: the results listed, of fail, error, warn, pass, skip "
                    + "(default: ${DEFAULT-VALUE})."})
    String reportResults;

    @Option(names = "--report-max-results", paramLabel = "N", defaultValue = "" + OpenReports.DEFAULT_MAX_RESULTS,
            description = {"With --output openreports: results per report at most, the most severe kept (default: "
                    + "${DEFAULT-VALUE}); the report's " + OpenReports.OMITTED_ANNOTATION + " annotation counts the rest."})
    int reportMaxResults;

    @Option(names = "--report-name", paramLabel = "NAME", defaultValue = "aps-impact",
            description = "With --output openreports: the reports' metadata.name (default: ${DEFAULT-VALUE}).")
    String reportName;

    @CommandLine.Mixin
    KubeVersionOption kubeVersion;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<Path> all = new ArrayList<>(paths);
        all.addAll(resources);
        InputFiles.requireStdinAtMostOnce(all, spec.commandLine());
        if (samples < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--samples " + samples + ": expected 0 or more");
        }
        OpenReports.Options reportOptions = null;
        if (output == Format.openreports) {
            if (reportMaxResults < 1) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--report-max-results " + reportMaxResults
                        + ": expected 1 or more");
            }
            try {
                reportOptions = new OpenReports.Options(reportName, OpenReports.parseFilter(reportResults),
                        reportMaxResults, java.time.Instant.now(), java.util.Map.of());
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--report-results " + reportResults + ": "
                        + e.getMessage() + ", comma-separated");
            }
        }

        InputFiles.Loaded policies = InputFiles.load(paths, parent.stdin());
        policies.problems().forEach(p -> err.println("aps impact: " + p.describe()));
        ValidationRun.Subjects read = ValidationRun.subjects(policies.documents(), kubeVersion.version);
        read.findings().stream().filter(f -> !ValidationRun.Result.isSkipped(f))
                .filter(f -> f.finding().severity() == Severity.ERROR)
                .forEach(f -> err.println("aps impact: " + f.file() + ":" + f.line() + ": " + f.finding().object() + ": "
                        + f.finding().message()));
        List<RenderedObject> configuration = read.subjects().stream().map(ValidationSubject::object).toList();

        InputFiles.Loaded existing = InputFiles.load(resources, parent.stdin());
        existing.problems().forEach(p -> err.println("aps impact: " + p.describe()));
        List<JsonNode> documents = new ArrayList<>();
        List<String> where = new ArrayList<>();
        for (Document d : existing.documents()) {
            documents.add(d.content());
            where.add(d.source() + ":" + d.line());
        }
        ExistingObjects.Read objects = ExistingObjects.read(documents, where);
        objects.problems().forEach(p -> err.println("aps impact: skipped " + p));

        ImpactReport report = ImpactScan.scan(configuration, objects.objects(), kubeVersion.version,
                new ImpactScan.Options(Integer.MAX_VALUE, samples, new UserInfo(user, "",
                        groups == null || groups.isEmpty() ? List.of("system:authenticated") : groups, java.util.Map.of()),
                        reportOptions != null));
        List<LocatedFinding> findings = report.findings().stream().map(f -> locate(f, read)).toList();
        if (reportOptions != null) {
            // the findings still go to stderr: the reports on stdout stay applyable (kubectl apply -f -)
            findings.forEach(f -> err.println("aps impact: " + f.finding().severity().label() + " " + f.finding().rule()
                    + " " + f.finding().object() + ": " + f.finding().message()));
            out.print(dev.policyset.aps.core.yaml.Yaml.write(OpenReports.of(report, reportOptions)));
        } else if (output == Format.json) {
            out.println(FindingPrinter.write(json(report, findings)));
        } else {
            text(report, findings, out);
        }
        out.flush();
        if (!policies.problems().isEmpty() || !existing.problems().isEmpty()) {
            return ExitCodes.USAGE_OR_INPUT;
        }
        return findings.stream().anyMatch(f -> f.finding().severity() == Severity.WARNING)
                ? ExitCodes.FINDINGS : ExitCodes.OK;
    }

    /** The binding's definition: its file and the line of its validationActions (or of the member in a set). */
    private static LocatedFinding locate(Finding f, ValidationRun.Subjects read) {
        ValidationRun.Origin origin = read.firstOrigins().get(f.object());
        return new LocatedFinding(f, origin == null ? null : origin.document().source(),
                origin == null ? null : origin.lineOf(f.field()));
    }

    private static void text(ImpactReport r, List<LocatedFinding> findings, PrintWriter out) {
        out.println("Impact of " + r.bindings().size() + " ValidatingAdmissionPolicy binding(s) on " + r.objects()
                + " existing object(s), each asked as an UPDATE that leaves it as it is (CREATE where UPDATE is not intercepted)");
        for (BindingImpact b : r.bindings()) {
            out.println();
            out.println("ValidatingAdmissionPolicy " + b.policy() + ", binding " + b.binding() + " " + b.actions()
                    + ", failurePolicy " + (b.failClosed() ? "Fail" : "Ignore"));
            out.println("  matched " + b.matched() + "; would be denied under Deny " + b.deniedUnderDeny() + "; now: denied "
                    + b.denied() + ", warned " + b.warned() + ", audited " + b.audited() + "; evaluation errors " + b.errors());
            for (BindingImpact.Sample s : b.samples()) {
                out.println("  - " + s.object() + " (" + s.operation() + ", " + s.outcome() + "): " + s.message());
            }
            int named = b.samples().size();
            int more = Math.max(b.deniedUnderDeny(), b.errors()) - named;
            if (more > 0) {
                out.println("  ... and " + more + " more (--samples N names more)");
            }
        }
        MutatingImpactPrinter.text(r, out);
        if (!findings.isEmpty()) {
            out.println();
            for (LocatedFinding f : findings) {
                Finding x = f.finding();
                out.println((f.file() == null ? "" : f.file() + ":" + f.line() + ": ") + x.severity().label() + " "
                        + x.rule() + " " + x.object() + " " + x.field() + ": " + x.message());
            }
        }
        out.println();
        out.println(r.violating().size() + " of " + r.bindings().size() + " binding(s) would deny existing objects under Deny; "
                + r.denying().size() + " deny some now");
        MutatingImpactPrinter.summary(r, out);
    }

    private static ObjectNode json(ImpactReport r, List<LocatedFinding> findings) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode root = f.objectNode();
        root.put("objects", r.objects());
        ArrayNode bindings = root.putArray("bindings");
        for (BindingImpact b : r.bindings()) {
            ObjectNode o = bindings.addObject();
            o.put("policy", b.policy()).put("binding", b.binding());
            ArrayNode actions = o.putArray("validationActions");
            b.actions().forEach(actions::add);
            o.put("failurePolicy", b.failClosed() ? "Fail" : "Ignore").put("matched", b.matched())
                    .put("deniedUnderDeny", b.deniedUnderDeny()).put("denied", b.denied()).put("warned", b.warned())
                    .put("audited", b.audited()).put("errors", b.errors());
            ArrayNode samples = o.putArray("samples");
            for (BindingImpact.Sample s : b.samples()) {
                samples.addObject().put("object", s.object()).put("operation", s.operation()).put("outcome", s.outcome())
                        .put("message", s.message());
            }
        }
        MutatingImpactPrinter.json(r, root);
        ArrayNode list = root.putArray("findings");
        for (LocatedFinding lf : findings) {
            Finding x = lf.finding();
            ObjectNode o = list.addObject();
            o.put("rule", x.rule()).put("severity", x.severity().label()).put("object", x.object()).put("field", x.field())
                    .put("message", x.message());
            if (lf.file() != null) {
                o.put("file", lf.file()).put("line", lf.line());
            }
        }
        ObjectNode summary = root.putObject("summary").put("bindings", r.bindings().size())
                .put("violating", r.violating().size()).put("denying", r.denying().size());
        MutatingImpactPrinter.summary(r, summary);
        return root;
    }
}

package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.chain.AdmissionChain;
import dev.policyset.aps.core.chain.ChainStep;
import dev.policyset.aps.core.chain.WorstCaseLatency;
import dev.policyset.aps.core.intercept.AdmissionRequest;
import dev.policyset.aps.core.intercept.BuiltinResources;
import dev.policyset.aps.core.intercept.LabelSet;
import dev.policyset.aps.core.intercept.Operation;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.MutatingPolicyVersions;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.validate.ValidationSubject;
import dev.policyset.aps.core.yaml.Document;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code aps chain}: the ordered admission chain for one request, given the configurations in PATH. */
@Command(name = "chain",
        mixinStandardHelpOptions = true,
        description = {"List, in the API server's order, every admission step that would see one request, given the "
                + "AdmissionPolicySets and admission objects in PATH: built-in plugins, MutatingAdmissionPolicies, "
                + "mutating webhooks, the reinvocation round, schema validation, built-in validating plugins, "
                + "ValidatingAdmissionPolicies, validating webhooks (in parallel) and ResourceQuota.",
                "Each step shows what matched it, its failure policy and timeout; then the worst-case latency the "
                        + "webhooks add, against the API server's request timeout (60 s) and the APS302 budget (30 s)."},
        footer = {"", "Examples:",
                "  aps chain --resource apps/v1/deployments --operation CREATE \\",
                "      --namespace team-a config/samples/",
                "  aps chain --resource v1/pods --operation UPDATE --namespace prod \\",
                "      --labels app=web --output json cluster/",
                "  kubectl kustomize overlays/prod | aps chain --resource v1/pods \\",
                "      --operation CREATE -n default -",
                "",
                "Exit codes: 0 listed, 1 the worst-case latency is over the APS302 budget, 2 usage error or unreadable input."})
final class ChainCommand implements Callable<Integer> {
    enum Format { text, json }

    @Parameters(paramLabel = "PATH", arity = "1..*",
            description = {"Files or directories (searched recursively for .yaml, .yml, .json; multi-document files allowed).",
                    "- reads standard input (once). Each input is limited to 16 MiB."})
    List<Path> paths;

    @Option(names = "--resource", required = true, paramLabel = "[GROUP/]VERSION/RESOURCE",
            description = "The resource of the request: v1/pods, apps/v1/deployments, example.com/v1/widgets. A built-in "
                    + "resource must be spelled as the API server serves it (a typo is refused with the nearest one); "
                    + "a custom resource's scope comes from its CustomResourceDefinition in PATH.")
    String resource;

    @Option(names = "--operation", required = true, paramLabel = "OP",
            description = "CREATE, UPDATE, DELETE or CONNECT.")
    String operation;

    @Option(names = "--subresource", paramLabel = "S", defaultValue = "", description = "A subresource: status, scale, exec, ...")
    String subresource;

    @Option(names = {"-n", "--namespace"}, paramLabel = "N", defaultValue = "",
            description = "The request's namespace; its labels are kubernetes.io/metadata.name=N plus --namespace-labels. "
                    + "Required for a namespaced resource; dropped, with a warning, for a cluster-scoped one. For a "
                    + "Namespace object: its own name.")
    String namespace;

    @Option(names = "--namespace-labels", paramLabel = "k=v,...", split = ",",
            description = "The namespace's other labels (exactly these, besides kubernetes.io/metadata.name).")
    List<String> namespaceLabels;

    @Option(names = {"-l", "--labels"}, paramLabel = "k=v,...", split = ",",
            description = "The object's labels (exactly these; for UPDATE the old object's too).")
    List<String> labels;

    @Option(names = "--name", paramLabel = "NAME", description = "The object's name (read by policy rules with resourceNames).")
    String name;

    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "text",
            description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Format output;

    @CommandLine.ParentCommand
    ApsCommand parent;

    @CommandLine.Mixin
    KubeVersionOption kubeVersion;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** What the table of built-in resources says of --resource. */
    private BuiltinResources.Check check;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        InputFiles.requireStdinAtMostOnce(paths, spec.commandLine());
        AdmissionRequest unplaced = request();
        InputFiles.Loaded loaded = InputFiles.load(paths, parent.stdin());
        loaded.problems().forEach(p -> err.println("aps chain: " + p.describe()));
        AdmissionRequest request = placed(unplaced, loaded.documents(), err);
        ValidationRun.Subjects read = ValidationRun.subjects(loaded.documents(), kubeVersion.version);
        // Sets that cannot be read contribute nothing: say so, the chain would otherwise look shorter than it is.
        read.findings().stream().filter(f -> !ValidationRun.Result.isSkipped(f))
                .filter(f -> f.finding().severity() == dev.policyset.aps.core.finding.Severity.ERROR)
                .forEach(f -> err.println("aps chain: " + f.file() + ":" + f.line() + ": " + f.finding().object() + ": "
                        + f.finding().message()));
        List<RenderedObject> objects = read.subjects().stream().map(ValidationSubject::object).toList();
        if (kubeVersion.version.mutatingPolicyApiVersion().isEmpty()) {
            // Below 1.32 no MutatingAdmissionPolicy can exist: listing one would describe a chain no cluster has.
            List<RenderedObject> served = objects.stream().filter(o -> o.kind() != AdmissionKind.MUTATING_ADMISSION_POLICY
                    && o.kind() != AdmissionKind.MUTATING_ADMISSION_POLICY_BINDING).toList();
            if (served.size() < objects.size()) {
                err.println("aps chain: warning: " + (objects.size() - served.size()) + " MutatingAdmissionPolicy "
                        + "object(s) left out: " + MutatingPolicyVersions.noneServableMessage(kubeVersion.version));
                objects = served;
            }
        }
        AdmissionChain.Result result = AdmissionChain.of(objects, request);
        if (output == Format.json) {
            out.println(FindingPrinter.write(json(result, objects.size())));
        } else {
            text(result, objects.size(), out);
        }
        out.flush();
        if (!loaded.problems().isEmpty()) {
            return ExitCodes.USAGE_OR_INPUT;
        }
        return result.latency().overBudget() ? ExitCodes.FINDINGS : ExitCodes.OK;
    }

    private AdmissionRequest request() {
        String[] parts = resource.split("/", -1);
        if (parts.length < 2 || parts.length > 3 || java.util.Arrays.stream(parts).anyMatch(String::isBlank)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--resource " + resource
                    + ": expected [GROUP/]VERSION/RESOURCE, e.g. v1/pods or apps/v1/deployments");
        }
        String group = parts.length == 3 ? parts[0] : "";
        String version = parts[parts.length - 2];
        String plural = parts[parts.length - 1];
        if (!plural.equals(plural.toLowerCase(java.util.Locale.ROOT))) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--resource " + resource
                    + ": the resource is the lower-case plural (deployments, not Deployment)");
        }
        check = BuiltinResources.check(group, version, plural);
        if (check.status() == BuiltinResources.Status.MISSPELT) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--resource " + resource + ": " + check.problem()
                    + check.resource().map(r -> "; did you mean " + r.spelled(version) + "?")
                    .orElse(BuiltinResources.isBuiltinGroup(group) ? "; its resources: "
                            + String.join(", ", BuiltinResources.resourcesOf(group)) : ""));
        }
        Operation op = Operation.parse(operation.toUpperCase(java.util.Locale.ROOT)).orElseThrow(() ->
                new CommandLine.ParameterException(spec.commandLine(), "--operation " + operation
                        + ": expected CREATE, UPDATE, DELETE or CONNECT"));
        Map<String, String> objectLabels = pairs("--labels", labels);
        AdmissionRequest r = AdmissionRequest.of(group, version, plural, op).withSubresource(subresource);
        if (r.object() != null) {
            r = r.withObjectLabels(objectLabels);
        }
        if (r.oldObject() != null) {
            r = r.withOldObjectLabels(objectLabels);
        }
        if (name != null) {
            r = r.withName(name);
        }
        if (namespace.isEmpty() && namespaceLabels != null && !namespaceLabels.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--namespace-labels needs --namespace");
        }
        pairs("--namespace-labels", namespaceLabels); // a bad pair is a usage error before anything is read
        return r;
    }

    /**
     * The request in its namespace, as the resource's scope says. A namespaced resource has no request without a
     * namespace, and namespaceSelectors decide on that namespace's labels: guessing one would answer for a
     * request that cannot exist, so -n is required. A cluster-scoped resource has none: -n is dropped, with a
     * warning. A custom resource's scope comes from its CustomResourceDefinition among the inputs; without one it
     * is taken as -n says, with a warning that it was not checked.
     */
    private AdmissionRequest placed(AdmissionRequest r, List<Document> documents, PrintWriter err) {
        Boolean namespaced = check.resource().filter(x -> check.status() == BuiltinResources.Status.BUILTIN)
                .map(BuiltinResources.Resource::namespaced).orElse(null);
        String what = "--resource " + resource;
        if (namespaced == null) {
            namespaced = crdScope(documents, r.group(), r.resource());
            what = what + " (from its CustomResourceDefinition)";
        }
        if (r.isNamespaceObject()) {
            return namespace.isEmpty() ? r : r.inNamespace(namespace, pairs("--namespace-labels", namespaceLabels));
        }
        if (namespaced == null) {
            err.println("aps chain: warning: --resource " + resource + " is not a built-in resource"
                    + check.resource().map(x -> " (did you mean " + x.spelled(r.version()) + "?)").orElse("")
                    + ", and no CustomResourceDefinition for " + r.resource() + "." + r.group() + " is among PATH: "
                    + "its scope is not known; taken as " + (namespace.isEmpty()
                    ? "cluster-scoped (no -n). If it is namespaced, give -n NAMESPACE: namespaceSelectors then decide"
                    : "namespaced (-n " + namespace + ")") + ". Add its CustomResourceDefinition to PATH to check");
        } else if (namespaced && namespace.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), what + " is namespaced: every request for it "
                    + "is in a namespace, and namespaceSelectors decide on that namespace's labels. Give the namespace: "
                    + "-n NAMESPACE (its other labels with --namespace-labels k=v,...), e.g. -n default");
        } else if (!namespaced && !namespace.isEmpty()) {
            err.println("aps chain: warning: " + what + " is cluster-scoped: -n " + namespace
                    + (namespaceLabels == null || namespaceLabels.isEmpty() ? "" : " and --namespace-labels")
                    + " ignored (a namespaceSelector does not apply to a cluster-scoped request)");
            return r;
        }
        return namespace.isEmpty() ? r : r.inNamespace(namespace, pairs("--namespace-labels", namespaceLabels));
    }

    /** {@code spec.scope} of the CustomResourceDefinition for {@code resource.group} among the inputs, if any. */
    private static Boolean crdScope(List<Document> documents, String group, String resource) {
        for (Document d : documents) {
            JsonNode spec = d.content().path("spec");
            if ("CustomResourceDefinition".equals(d.kind()) && group.equals(spec.path("group").asText())
                    && resource.equals(spec.path("names").path("plural").asText())) {
                String scope = spec.path("scope").asText("");
                return scope.equals("Namespaced") ? Boolean.TRUE : scope.equals("Cluster") ? Boolean.FALSE : null;
            }
        }
        return null;
    }

    private Map<String, String> pairs(String option, List<String> values) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String v : values == null ? List.<String>of() : values) {
            int eq = v.indexOf('=');
            if (eq <= 0) {
                throw new CommandLine.ParameterException(spec.commandLine(), option + " " + v + ": expected key=value");
            }
            out.put(v.substring(0, eq), v.substring(eq + 1));
        }
        return out;
    }

    private static void text(AdmissionChain.Result r, int objects, PrintWriter out) {
        AdmissionRequest q = r.request();
        out.println(q.operations().iterator().next() + " " + q.describe()
                + (q.namespace().isEmpty() ? " (cluster-scoped)" : " in namespace " + q.namespace())
                + ": " + objects + " admission object(s) read");
        ChainStep.Phase phase = null;
        int n = 0;
        if (r.steps().isEmpty() || r.steps().get(0).phase() != ChainStep.Phase.MUTATING) {
            out.println();
            out.println("Mutating phase: no step acts on this request.");
        }
        for (ChainStep s : r.steps()) {
            if (s.phase() != phase) {
                phase = s.phase();
                out.println();
                out.println(switch (phase) {
                    case MUTATING -> "Mutating phase (in sequence):";
                    case SCHEMA_VALIDATION -> "Schema validation:";
                    case VALIDATING -> "Validating phase:";
                });
            }
            n++;
            out.println("  " + n + ". " + title(s));
            if (!s.object().isEmpty()) {
                out.println("       " + s.object() + attributes(s));
            }
            out.println("       " + s.note());
            for (String reason : s.reasons()) {
                out.println("       " + (s.type() == ChainStep.Type.REINVOCATION ? "again: " : "- ") + reason);
            }
            for (String c : s.openConditions()) {
                out.println("       undecided: " + c);
            }
        }
        if (!r.notReached().isEmpty()) {
            out.println();
            out.println("Not reached:");
            for (ChainStep s : r.notReached()) {
                out.println("  - " + title(s) + " (" + s.object() + "): " + (s.reasons().isEmpty() ? "" : s.reasons().get(0)));
            }
        }
        WorstCaseLatency l = r.latency();
        out.println();
        out.println("Worst-case added latency: " + l.totalSeconds() + " s = " + l.mutatingSeconds()
                + " s mutating webhooks in sequence + " + l.reinvocationSeconds() + " s reinvocation + "
                + l.slowestValidatingSeconds() + " s slowest validating webhook");
        out.println("  API server request timeout " + WorstCaseLatency.REQUEST_TIMEOUT_SECONDS + " s: "
                + (l.overRequestTimeout() ? "EXCEEDED" : "within") + "; APS302 budget " + WorstCaseLatency.BUDGET_SECONDS
                + " s: " + (l.overBudget() ? "OVER" : "within"));
    }

    private static String title(ChainStep s) {
        String what = switch (s.type()) {
            case BUILTIN_PLUGIN -> "plugin " + s.name();
            case MUTATING_POLICY -> "MutatingAdmissionPolicy " + s.name();
            case VALIDATING_POLICY -> "ValidatingAdmissionPolicy " + s.name();
            case MUTATING_WEBHOOK -> "mutating webhook " + s.name();
            case VALIDATING_WEBHOOK -> "validating webhook " + s.name();
            case REINVOCATION -> "reinvocation round" + (s.timeoutSeconds() > 0
                    ? " (up to " + s.timeoutSeconds() + " s of webhook calls)" : " (policies only, in-process)");
            case SCHEMA -> s.name();
        };
        return what + (s.outcome() == dev.policyset.aps.core.intercept.Verdict.Outcome.UNDECIDED ? " [undecided]" : "");
    }

    private static String attributes(ChainStep s) {
        StringBuilder b = new StringBuilder();
        if (!s.failurePolicy().isEmpty()) {
            b.append(", failurePolicy ").append(s.failurePolicy());
        }
        if (s.isWebhook()) {
            b.append(", timeout ").append(s.timeoutSeconds()).append(" s");
        }
        if (!s.validationActions().isEmpty()) {
            b.append(", validationActions ").append(String.join(",", s.validationActions()));
        }
        return b.toString();
    }

    private static ObjectNode json(AdmissionChain.Result r, int objects) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode root = f.objectNode();
        AdmissionRequest q = r.request();
        ObjectNode req = root.putObject("request");
        req.put("group", q.group()).put("version", q.version()).put("resource", q.resource())
                .put("subresource", q.subresource()).put("operation", q.operations().iterator().next().name())
                .put("namespace", q.namespace());
        root.put("objects", objects);
        ArrayNode steps = root.putArray("steps");
        r.steps().forEach(s -> steps.add(step(s)));
        ArrayNode not = root.putArray("notReached");
        r.notReached().forEach(s -> not.add(step(s)));
        WorstCaseLatency l = r.latency();
        ObjectNode lat = root.putObject("latency");
        lat.put("mutatingSeconds", l.mutatingSeconds()).put("reinvocationSeconds", l.reinvocationSeconds())
                .put("slowestValidatingSeconds", l.slowestValidatingSeconds()).put("totalSeconds", l.totalSeconds())
                .put("requestTimeoutSeconds", WorstCaseLatency.REQUEST_TIMEOUT_SECONDS)
                .put("budgetSeconds", WorstCaseLatency.BUDGET_SECONDS).put("overBudget", l.overBudget());
        return root;
    }

    private static ObjectNode step(ChainStep s) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("phase", s.phase().name()).put("type", s.type().name()).put("name", s.name()).put("object", s.object())
                .put("outcome", s.outcome().name());
        if (!s.failurePolicy().isEmpty()) {
            o.put("failurePolicy", s.failurePolicy());
        }
        if (s.isWebhook() || s.type() == ChainStep.Type.REINVOCATION) {
            o.put("timeoutSeconds", s.timeoutSeconds());
        }
        if (!s.validationActions().isEmpty()) {
            ArrayNode a = o.putArray("validationActions");
            s.validationActions().forEach(a::add);
        }
        ArrayNode reasons = o.putArray("reasons");
        s.reasons().forEach(reasons::add);
        ArrayNode open = o.putArray("undecidedConditions");
        s.openConditions().forEach(open::add);
        o.put("note", s.note());
        return o;
    }
}

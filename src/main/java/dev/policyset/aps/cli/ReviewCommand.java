package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.intercept.AdmissionRequest;
import dev.policyset.aps.core.intercept.Interceptor;
import dev.policyset.aps.core.intercept.Operation;
import dev.policyset.aps.core.intercept.Verdict;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.review.AdmissionReviews;
import dev.policyset.aps.core.review.Preflight;
import dev.policyset.aps.core.review.ResponseCheck;
import dev.policyset.aps.core.review.ReviewRequest;
import dev.policyset.aps.core.review.ReviewResult;
import dev.policyset.aps.core.review.WebhookTarget;
import dev.policyset.aps.core.validate.ValidationSubject;
import dev.policyset.aps.core.yaml.Document;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;

/** {@code aps review}: send a real AdmissionReview to a webhook and check its answer against the wire contract. */
@Command(name = "review",
        mixinStandardHelpOptions = true,
        description = {"Send the AdmissionReview the API server would send for one request to a webhook, print its "
                + "decision, warnings, audit annotations and (for a JSON Patch) the mutated object, and check the "
                + "response against the wire contract: uid echoed, apiVersion/kind, patch and patchType, a patch "
                + "that applies, an answer within timeoutSeconds, HTTP status, sideEffects on dry runs.",
                "OBJECT is the object of the request (CREATE, UPDATE), the object being deleted (DELETE), or the "
                        + "connect options (CONNECT); - reads standard input."},
        footer = {"", "Examples:",
                "  aps review --url https://localhost:8443/validate --ca ca.crt \\",
                "      --operation CREATE deployment.yaml",
                "  aps review --url https://localhost:8443/mutate --ca ca.crt \\",
                "      --operation UPDATE --old before.yaml after.yaml",
                "  aps review --config webhooks.yaml --webhook pods.example.com \\",
                "      --operation CREATE -n team-a --user alice pod.yaml",
                "  kubectl -n hooks port-forward svc/pod-checker 8443:443 &",
                "  aps review --config webhooks.yaml --webhook pods.example.com \\",
                "      --url https://localhost:8443 --operation CREATE pod.yaml",
                "  kubectl get deploy web -o yaml | aps review --url https://localhost:8443/ \\",
                "      --ca ca.crt --operation DELETE -",
                "",
                "Exit codes: 0 allowed and the response honours the contract, 1 denied, or a contract violation or failed "
                        + "call (timeout, TLS, HTTP error) or a request the webhook would never receive, 2 usage error, "
                        + "unreadable input, or no connection to the webhook."})
final class ReviewCommand implements Callable<Integer> {
    enum Format { text, json }

    enum Type { mutating, validating }

    @Parameters(paramLabel = "OBJECT", arity = "1", description = "The object (YAML or JSON, one document); - reads standard input.")
    Path objectPath;

    @Option(names = "--url", paramLabel = "URL", description = {"The webhook's URL. With --config: where to connect "
            + "instead of the configuration's URL or service (e.g. a port-forward); the certificate is still checked for "
            + "the host the API server would call, and a URL without a path takes the service's path."})
    String url;

    @Option(names = "--config", paramLabel = "FILE", description = "A file with Validating/MutatingWebhookConfigurations "
            + "or AdmissionPolicySets: the webhook's URL or service, caBundle, timeoutSeconds, admissionReviewVersions, "
            + "sideEffects, failurePolicy and rules come from it.")
    Path config;

    @Option(names = "--webhook", paramLabel = "NAME", description = "The webhook in --config: webhooks[].name; "
            + "CONFIGURATION/NAME when the name is in several configurations; KIND/CONFIGURATION/NAME when a mutating "
            + "and a validating configuration share their name too (KIND/CONFIGURATION: its only webhook).")
    String webhook;

    @Option(names = "--ca", paramLabel = "FILE", description = "PEM certificate(s) to trust instead of the configuration's "
            + "caBundle (default: the caBundle, else the system roots).")
    Path ca;

    @Option(names = "--operation", required = true, paramLabel = "OP", description = "CREATE, UPDATE, DELETE or CONNECT.")
    String operation;

    @Option(names = "--old", paramLabel = "FILE", description = "UPDATE: the existing object (sent as oldObject).")
    Path old;

    @Option(names = "--user", paramLabel = "U", description = "request.userInfo.username.")
    String user;

    @Option(names = "--group", paramLabel = "G", description = "request.userInfo.groups (repeat for several).")
    List<String> groups;

    @Option(names = {"-n", "--namespace"}, paramLabel = "N", description = "The request's namespace (default: the "
            + "object's metadata.namespace; default for a namespaced built-in kind without one).")
    String namespace;

    @Option(names = "--namespace-labels", paramLabel = "k=v,...", split = ",", description = "With --config: the "
            + "namespace's labels besides kubernetes.io/metadata.name, for the webhook's namespaceSelector.")
    List<String> namespaceLabels;

    @Option(names = "--name", paramLabel = "NAME", description = "The object's name (default: metadata.name; CONNECT: required).")
    String name;

    @Option(names = "--resource", paramLabel = "[GROUP/]VERSION/RESOURCE", description = "The resource (default: from "
            + "the object's apiVersion and kind; give it for CONNECT and for kinds with an irregular plural).")
    String resource;

    @Option(names = "--subresource", paramLabel = "S", description = "A subresource: status, scale, exec, ...")
    String subresource;

    @Option(names = "--dry-run", description = "Send a dry-run request (dryRun: true, options.dryRun [All]).")
    boolean dryRun;

    @Option(names = "--timeout", paramLabel = "S", description = "Seconds to wait, 1-30 (default: the configuration's "
            + "timeoutSeconds, else 10, as the API server).")
    Integer timeout;

    @Option(names = "--type", paramLabel = "TYPE", description = "Without --config: ${COMPLETION-CANDIDATES} "
            + "(default: mutating; a validating webhook may not return a patch).")
    Type type;

    @Option(names = "--send-unmatched", description = "With --config: send even when the webhook's rules or selectors "
            + "do not match the request (the API server would not call it).")
    boolean sendUnmatched;

    @Option(names = "--show-request", description = "Text output: print the AdmissionReview sent.")
    boolean showRequest;

    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "text",
            description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Format output;

    @CommandLine.ParentCommand
    ApsCommand parent;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Input that cannot be used: exit 2 after the message. */
    private static final class BadInput extends Exception {
        BadInput(String message) {
            super(message);
        }
    }

    @Override
    public Integer call() {
        var err = spec.commandLine().getErr();
        Operation op = Operation.parse(operation.toUpperCase(Locale.ROOT)).orElseThrow(() ->
                new CommandLine.ParameterException(spec.commandLine(), "--operation " + operation
                        + ": expected CREATE, UPDATE, DELETE or CONNECT"));
        checkOptions();
        ReviewRun run = new ReviewRun();
        try {
            ObjectNode subject = readObject(objectPath, "OBJECT");
            ObjectNode oldObject = old == null ? null : readObject(old, "--old");
            ReviewRequest.Built built = ReviewRequest.build(new ReviewRequest.Inputs(op, subject, oldObject, resource,
                    subresource, name, namespace, user, groups, dryRun));
            if (built.request() == null) {
                throw new BadInput(String.join("\n", built.problems()));
            }
            run.request = built.request();
            run.target = config == null ? null : target();
            Endpoint endpoint = endpoint(run.target);
            run.url = endpoint.uri;
            Verdict verdict = run.target == null ? null : Interceptor.ofWebhook(run.target.hook(), run.target.path())
                    .match(interception(run.request));
            run.plan = Preflight.check(run.request, run.target, verdict, sendUnmatched, endpoint.uri.getScheme());
            run.timeoutSeconds = timeout != null ? timeout : run.target != null ? run.target.timeoutSeconds() : 10;
            ResponseCheck.Traits traits = new ResponseCheck.Traits(
                    run.target != null ? run.target.name() : endpoint.uri.getHost(),
                    run.target != null ? run.target.mutating() : type != Type.validating, run.timeoutSeconds,
                    run.target != null ? run.target.failurePolicy() : null);
            run.traits = traits;
            if (run.plan.send()) {
                run.uid = UUID.randomUUID().toString();
                run.review = AdmissionReviews.request(run.request, run.uid, run.plan.reviewVersion());
                run.result = send(run, endpoint, traits);
            }
        } catch (BadInput e) {
            err.println("aps review: " + e.getMessage().replace("\n", "\naps review: "));
            return ExitCodes.USAGE_OR_INPUT;
        } catch (WebhookClient.Unreachable e) {
            run.unreachable = e.getMessage();
        }
        ReviewPrinter.print(run, output == Format.json, showRequest, spec.commandLine().getOut());
        if (run.unreachable != null) {
            if (output == Format.json) {
                // the text report says it on stdout already ("Not reached: ..."); JSON is for programs, so say it for people
                err.println("aps review: " + run.unreachable);
            }
            return ExitCodes.USAGE_OR_INPUT;
        }
        return run.exitCode();
    }

    /** Everything one run decided and saw, for the printer. */
    static final class ReviewRun {
        ReviewRequest request;
        WebhookTarget target;
        URI url;
        Preflight.Plan plan;
        ResponseCheck.Traits traits;
        int timeoutSeconds;
        String uid;
        ObjectNode review;
        WebhookClient.Response http;
        ReviewResult result;
        String unreachable;

        boolean hasErrors() {
            return plan.findings().stream().anyMatch(f -> f.severity() == Severity.ERROR)
                    || result != null && result.hasErrors();
        }

        int exitCode() {
            if (unreachable != null) {
                return ExitCodes.USAGE_OR_INPUT;
            }
            return hasErrors() || result == null || result.denied() || result.decision() == null
                    ? ExitCodes.FINDINGS : ExitCodes.OK;
        }
    }

    private void checkOptions() {
        CommandLine cl = spec.commandLine();
        if (config == null && url == null) {
            throw new CommandLine.ParameterException(cl, "give the webhook: --url URL, or --config FILE --webhook NAME");
        }
        if (config != null && webhook == null) {
            throw new CommandLine.ParameterException(cl, "--config needs --webhook NAME (which webhook of the configuration)");
        }
        if (webhook != null && config == null) {
            throw new CommandLine.ParameterException(cl, "--webhook needs --config FILE (the configuration that defines it)");
        }
        if (config != null && type != null) {
            throw new CommandLine.ParameterException(cl, "--type is for --url alone; with --config the configuration's kind says it");
        }
        if (namespaceLabels != null && config == null) {
            throw new CommandLine.ParameterException(cl, "--namespace-labels is read by a webhook's namespaceSelector: it needs --config");
        }
        if (timeout != null && (timeout < 1 || timeout > 30)) {
            throw new CommandLine.ParameterException(cl, "--timeout " + timeout + ": the API server allows 1 to 30 seconds");
        }
        InputFiles.requireStdinAtMostOnce(java.util.stream.Stream.of(objectPath, old, config, ca)
                .filter(java.util.Objects::nonNull).toList(), cl);
    }

    private ObjectNode readObject(Path path, String what) throws BadInput {
        List<Document> docs = documents(path, what).stream()
                .filter(d -> !(d.content().isTextual() && d.content().asText().isBlank())).toList();
        if (docs.size() != 1 || !docs.get(0).content().isObject()) {
            throw new BadInput(what + " " + name(path) + ": expected one object, found " + (docs.size() == 1
                    ? "a " + docs.get(0).content().getNodeType().name().toLowerCase(Locale.ROOT) : docs.size() + " documents")
                    + "; give one manifest per review");
        }
        return (ObjectNode) docs.get(0).content();
    }

    private List<Document> documents(Path path, String what) throws BadInput {
        InputFiles.Loaded loaded = InputFiles.load(List.of(path), parent.stdin());
        if (!loaded.problems().isEmpty()) {
            throw new BadInput(what + " " + loaded.problems().get(0).describe());
        }
        return loaded.documents();
    }

    private static String name(Path path) {
        return InputFiles.isStdin(path) ? InputFiles.STDIN_NAME : path.toString();
    }

    private WebhookTarget target() throws BadInput {
        List<Document> docs = documents(config, "--config");
        ValidationRun.Subjects read = ValidationRun.subjects(docs, KubeVersion.NEWEST);
        List<RenderedObject> objects = new ArrayList<>(read.subjects().stream().map(ValidationSubject::object).toList());
        WebhookTarget.Lookup lookup = WebhookTarget.find(objects, webhook);
        if (lookup.target() == null) {
            throw new BadInput(config + ": " + lookup.problem());
        }
        return lookup.target();
    }

    /** Where to connect, and the host name the certificate must be valid for. */
    private record Endpoint(URI uri, String verifyHost) {}

    private Endpoint endpoint(WebhookTarget target) throws BadInput {
        URI override = url == null ? null : parseUrl(url, "--url");
        if (target == null) {
            return new Endpoint(override, override.getHost());
        }
        if (target.service() != null) {
            WebhookTarget.Service s = target.service();
            if (override == null) {
                throw new BadInput("webhook " + target.name() + " is reached through service " + s.namespace() + "/"
                        + s.name() + " (port " + s.port() + "), which only resolves inside the cluster; aps review cannot "
                        + "reach it. Forward a local port to it and pass --url, e.g.\n  kubectl -n " + s.namespace()
                        + " port-forward svc/" + s.name() + " 8443:" + s.port() + "\n  aps review --config " + config
                        + " --webhook " + webhook + " --url https://localhost:8443 ...\n(the certificate is still checked "
                        + "for " + s.host() + ", as the API server checks it)");
            }
            String path = override.getRawPath() == null || override.getRawPath().isEmpty() || override.getRawPath().equals("/")
                    ? s.path() : override.getRawPath();
            return new Endpoint(withPath(override, path), s.host());
        }
        if (target.url() == null) {
            throw new BadInput("webhook " + target.name() + " has neither clientConfig.url nor clientConfig.service");
        }
        URI configured = parseUrl(target.url(), target.configuration() + " " + target.path() + ".clientConfig.url");
        return new Endpoint(override != null ? override : configured, configured.getHost());
    }

    private static URI withPath(URI base, String path) throws BadInput {
        try {
            return new URI(base.getScheme(), base.getRawAuthority(), path == null || path.isEmpty() ? "/" : path, null, null);
        } catch (URISyntaxException e) {
            throw new BadInput("cannot combine " + base + " with path " + path + ": " + e.getMessage());
        }
    }

    private static URI parseUrl(String text, String what) throws BadInput {
        try {
            URI u = new URI(text);
            if (u.getScheme() == null || u.getHost() == null
                    || !(u.getScheme().equalsIgnoreCase("https") || u.getScheme().equalsIgnoreCase("http"))) {
                throw new BadInput(what + " " + text + ": expected https://HOST[:PORT][/PATH]");
            }
            if (u.getRawQuery() != null || u.getRawFragment() != null) {
                throw new BadInput(what + " " + text + ": a webhook URL has no query or fragment (the API server refuses them)");
            }
            return u;
        } catch (URISyntaxException e) {
            throw new BadInput(what + " " + text + ": not a URL (" + e.getMessage() + ")");
        }
    }

    private AdmissionRequest interception(ReviewRequest r) {
        AdmissionRequest q = AdmissionRequest.of(r.resourceGroup(), r.resourceVersion(), r.resource(), r.operation())
                .withSubresource(r.subresource()).withName(r.name()).withKind(r.kind());
        q = q.withObject(r.operation() == Operation.CREATE || r.operation() == Operation.UPDATE
                ? dev.policyset.aps.core.intercept.LabelSet.exactly(labels(r.object())) : null);
        q = q.withOldObject(r.oldObject() == null ? null : dev.policyset.aps.core.intercept.LabelSet.exactly(labels(r.oldObject())));
        if (r.resourceGroup().isEmpty() && r.resource().equals("namespaces")) {
            // the namespaceSelector of a request for a Namespace reads the object's own labels
            ObjectNode self = r.object() != null ? r.object() : r.oldObject();
            return q.inNamespace(r.name(), labels(self));
        }
        if (!r.namespace().isEmpty()) {
            q = q.inNamespace(r.namespace(), pairs(namespaceLabels));
        }
        return q;
    }

    private static Map<String, String> labels(JsonNode object) {
        Map<String, String> out = new LinkedHashMap<>();
        if (object != null) {
            object.path("metadata").path("labels").fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        }
        return out;
    }

    private Map<String, String> pairs(List<String> values) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String v : values == null ? List.<String>of() : values) {
            int eq = v.indexOf('=');
            if (eq <= 0) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--namespace-labels " + v + ": expected key=value");
            }
            out.put(v.substring(0, eq), v.substring(eq + 1));
        }
        return out;
    }

    private ReviewResult send(ReviewRun run, Endpoint endpoint, ResponseCheck.Traits traits)
            throws BadInput, WebhookClient.Unreachable {
        List<X509Certificate> cas;
        try {
            cas = trust(run.target);
        } catch (CertificateException e) {
            return ResponseCheck.callFailed(traits, "clientConfig.caBundle", "clientConfig.caBundle of " + run.target.name()
                    + " is not base64-encoded PEM certificates (" + e.getMessage() + "): the API server cannot verify "
                    + "the webhook's certificate with it", "x509: cannot load the CA bundle");
        }
        URI uri = URI.create(endpoint.uri + "?timeout=" + run.timeoutSeconds + "s");
        run.url = uri;
        byte[] body;
        try {
            body = dev.policyset.aps.core.yaml.Yaml.mapper().writeValueAsBytes(run.review);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new BadInput("the object cannot be written as JSON: " + e.getOriginalMessage());
        }
        try {
            run.http = WebhookClient.post(uri, body, run.timeoutSeconds, cas, endpoint.verifyHost);
        } catch (WebhookClient.CallFailed e) {
            return ResponseCheck.callFailed(traits, e.check, e.getMessage(), e.apiServerCause);
        }
        return ResponseCheck.check(run.request, run.uid, run.plan.reviewVersion(), traits,
                new ResponseCheck.Answer(run.http.status(), run.http.contentType(), run.http.body(), run.http.elapsedMillis()));
    }

    /** --ca, else the configuration's caBundle, else null (the system roots, as the API server). */
    private List<X509Certificate> trust(WebhookTarget target) throws BadInput, CertificateException {
        if (ca != null) {
            byte[] pem;
            try {
                pem = InputFiles.isStdin(ca) ? parent.stdin().readAllBytes() : Files.readAllBytes(ca);
            } catch (java.io.IOException e) {
                throw new BadInput("--ca " + ca + ": cannot be read: " + e.getMessage());
            }
            List<X509Certificate> certs;
            try {
                certs = WebhookClient.readPem(pem);
            } catch (CertificateException e) {
                throw new BadInput("--ca " + ca + ": not PEM certificates (" + e.getMessage() + ")");
            }
            if (certs.isEmpty()) {
                throw new BadInput("--ca " + ca + ": no certificate in it (expected -----BEGIN CERTIFICATE-----)");
            }
            return certs;
        }
        if (target != null && !target.caBundle().isEmpty()) {
            byte[] pem;
            try {
                pem = Base64.getMimeDecoder().decode(target.caBundle().getBytes(StandardCharsets.US_ASCII));
            } catch (IllegalArgumentException e) {
                throw new CertificateException("not base64: " + e.getMessage());
            }
            List<X509Certificate> certs = WebhookClient.readPem(pem);
            if (certs.isEmpty()) {
                throw new CertificateException("no certificate in it");
            }
            return certs;
        }
        return null;
    }
}

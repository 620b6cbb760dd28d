package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.evaluate.AdmissionOutcome;
import dev.policyset.aps.core.evaluate.UserInfo;
import dev.policyset.aps.core.evaluate.suite.CaseResult;
import dev.policyset.aps.core.evaluate.suite.ParamInformerAnchors;
import dev.policyset.aps.core.evaluate.suite.PolicyTest;
import dev.policyset.aps.core.evaluate.suite.ServerProbes;
import dev.policyset.aps.core.evaluate.suite.ServerReplay;
import dev.policyset.aps.core.evaluate.suite.TestCase;
import dev.policyset.aps.core.yaml.Yaml;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;

/**
 * {@code aps test --server}: the cases of each test file sent to a real API server as dry runs, and each result
 * set beside the offline one. What to create and send is {@link ServerReplay}'s (core); this shell talks HTTP,
 * waits for the server to load the policies, and removes what it created, also when interrupted.
 */
final class ServerTestRun implements AutoCloseable {
    /** Why a context may be used without {@code --allow-shared-cluster}: names of throwaway local clusters. */
    private static final List<String> DISPOSABLE_PREFIXES = List.of("kind-", "k3d-", "minikube", "docker-desktop",
            "rancher-desktop", "colima", "orbstack", "envtest", "microk8s");
    private static final Duration LOAD_TIMEOUT = Duration.ofSeconds(60);
    /** The command the load-timeout message advises: what can answer a request before the run's policies do. */
    static final String ADMISSION_CHAIN_COMMAND =
            "kubectl get mutatingwebhookconfigurations,validatingadmissionpolicies,validatingwebhookconfigurations";

    private final KubernetesClient client;
    private final String runId;
    /** The replay of the file being run: each file has a run id of its own ({@link #run}). */
    private ServerReplay replay;
    private int files;
    private final Deque<GenericKubernetesResource> created = new ConcurrentLinkedDeque<>();
    /** The run's param-informer anchors ({@link ParamInformerAnchors}): they live until the run ends, not per file. */
    private final Deque<GenericKubernetesResource> anchors = new ConcurrentLinkedDeque<>();
    private final Map<ParamInformerAnchors.Use, Boolean> anchored = new java.util.LinkedHashMap<>();
    private java.util.function.Consumer<String> notices = m -> { };
    private final Thread cleanupOnInterrupt = new Thread(() -> {
        cleanUp();
        releaseAnchors();
    }, "aps-test-server-cleanup");

    private final boolean grantCaseUsers;
    private Duration loadTimeout = LOAD_TIMEOUT;

    private ServerTestRun(KubernetesClient client, String runId, boolean grantCaseUsers) {
        this.client = client;
        this.grantCaseUsers = grantCaseUsers;
        this.runId = runId;
        Runtime.getRuntime().addShutdownHook(cleanupOnInterrupt);
    }

    /** A refusal to run: the message says why and what to do. */
    static final class Refused extends Exception {
        Refused(String message) {
            super(message);
        }
    }

    /**
     * Connects to a kubeconfig context (null: the current one) and refuses one that does not look disposable unless
     * {@code allowShared}: the run creates policies there, however narrowly they match.
     */
    static ServerTestRun connect(String context, boolean allowShared) throws Refused {
        Config config;
        try {
            config = Config.autoConfigure(context); // null: the current context
        } catch (RuntimeException e) {
            throw new Refused("cannot read the kubeconfig" + (context == null ? "" : " context '" + context + "'") + ": " + e.getMessage());
        }
        String name = config.getCurrentContext() == null ? "" : config.getCurrentContext().getName();
        if (context != null && !context.equals(name)) {
            throw new Refused("kubeconfig has no context '" + context + "'; list them with: kubectl config get-contexts");
        }
        return connect(config, allowShared);
    }

    /** The same for a configuration already read (the behaviour differential suite's client of its own server). */
    static ServerTestRun connect(Config config, boolean allowShared) throws Refused {
        String name = config.getCurrentContext() == null ? "" : config.getCurrentContext().getName();
        String server = config.getMasterUrl();
        if (!allowShared && !looksDisposable(name, server)) {
            throw new Refused("context '" + name + "' (" + server + ") does not look like a throwaway cluster (local "
                    + "address, or a kind/k3d/minikube/envtest context): aps test --server creates policies there. "
                    + "If it is meant for this, add --allow-shared-cluster");
        }
        // nanoTime may be negative: floorMod keeps the id to 1-6 base-36 digits, as ServerReplay requires
        String runId = Long.toString(Math.floorMod(System.nanoTime(), 2_176_782_336L), 36);
        // on a throwaway cluster the run lets the cases' users make their requests; on a shared one it grants nobody
        // anything (for the seconds of a run a real user of that name would hold it): their own RBAC must allow them
        boolean grant = looksDisposable(name, server);
        return new ServerTestRun(new KubernetesClientBuilder().withConfig(config).build(), runId.toLowerCase(Locale.ROOT), grant);
    }

    /** Where the run's warnings go (the command's standard error): said once, at the end of the run. */
    ServerTestRun withNotices(java.util.function.Consumer<String> notices) {
        this.notices = notices;
        return this;
    }

    /** How long the run waits for the server to evaluate its policies (tests shorten it). */
    ServerTestRun withLoadTimeout(Duration timeout) {
        this.loadTimeout = timeout;
        return this;
    }

    static boolean looksDisposable(String context, String server) {
        String host;
        try {
            host = URI.create(server).getHost();
        } catch (RuntimeException e) {
            host = "";
        }
        boolean local = host != null && (host.equals("127.0.0.1") || host.equals("localhost") || host.equals("[::1]")
                || host.equals("::1") || host.endsWith(".localhost"));
        return local || DISPOSABLE_PREFIXES.stream().anyMatch(p -> context != null && context.startsWith(p));
    }

    /**
     * The server's results for one test file, in case order; setup failures fail every case with the reason. Cases
     * that share their policies, bindings and params run together; a file whose cases bring their own (a kaptest
     * manifest binds each case's policy with that case's param) runs each set of them apart, as a server holds one
     * binding of a name at a time.
     */
    List<CaseResult> run(PolicyTest test) {
        Map<String, List<Integer>> groups = new java.util.LinkedHashMap<>();
        for (int i = 0; i < test.cases().size(); i++) {
            TestCase c = test.cases().get(i);
            String key = c.config().objects().stream().map(o -> o.kind() + "|" + o.manifest()).toList() + "|" + c.fixtures().params();
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(i);
        }
        CaseResult[] results = new CaseResult[test.cases().size()];
        for (List<Integer> group : groups.values()) {
            PolicyTest part = new PolicyTest(test.file(), test.name(), test.format(),
                    group.stream().map(test.cases()::get).toList(), test.problems());
            List<CaseResult> partResults = runTogether(part);
            for (int i = 0; i < group.size(); i++) {
                results[group.get(i)] = partResults.get(i);
            }
        }
        return List.of(results);
    }

    private List<CaseResult> runTogether(PolicyTest test) {
        // Objects are deleted when their cases end, but the server's informers may still hold them for a moment:
        // with one id for every file the next file's probe was answered by the last one's deleted probe, and its
        // requests judged by the last one's deleted policies (measured: 1 behaviour-suite run in 3 at 1.37.2)
        replay = new ServerReplay(runId + Integer.toString(files++, 36));
        List<String> skipped = ServerReplay.skipped(test);
        anchorParamInformers(test);
        String setupProblem = setUp(test);
        List<CaseResult> results = new ArrayList<>();
        for (TestCase c : test.cases()) {
            if (c.setupError() != null || setupProblem != null) {
                String why = c.setupError() != null ? c.setupError() : setupProblem;
                results.add(new CaseResult(c.name(), c.line(), false, List.of("setup on the server: " + why), skipped, null));
                continue;
            }
            results.add(runCase(c, skipped));
        }
        cleanUp();
        return results;
    }

    private CaseResult runCase(TestCase c, List<String> notes) {
        List<String> why = new ArrayList<>();
        Optional<ServerReplay.Request> request = replay.request(c, why);
        if (request.isEmpty()) {
            List<String> n = new ArrayList<>(notes);
            n.addAll(why);
            return new CaseResult(c.name(), c.line(), true, List.of(), n, null);
        }
        ServerReplay.Request r = request.get();
        GenericKubernetesResource existing = null;
        try {
            if (r.existing() != null) {
                existing = create((ObjectNode) r.existing());
            }
            AdmissionOutcome outcome = send(r);
            List<String> differences = ServerReplay.compare(c.expect(), outcome);
            return new CaseResult(c.name(), c.line(), differences.isEmpty(), differences, notes, outcome);
        } catch (KubernetesClientException e) {
            return new CaseResult(c.name(), c.line(), false, List.of("the old object could not be created on the server ("
                    + e.getCode() + "): " + message(e)), notes, null);
        } finally {
            if (existing != null) {
                delete(existing);
            }
        }
    }

    /**
     * Before the first file whose policies use a built-in paramKind, an anchor that keeps the server's informer of
     * that kind for the rest of the run: without it the server stops the informer when one file's bindings are
     * removed, and the next file's params are not found. Best effort: a refused anchor (a policy kind the server
     * does not serve) leaves the run as it was.
     */
    private void anchorParamInformers(PolicyTest test) {
        for (ParamInformerAnchors.Use use : ParamInformerAnchors.builtInParamKinds(test)) {
            if (anchored.containsKey(use)) {
                continue;
            }
            boolean ok = true;
            for (ObjectNode o : ParamInformerAnchors.anchor(use, runId, anchored.size())) {
                try {
                    anchors.push(client.resource(Yaml.mapper().convertValue(o, GenericKubernetesResource.class)).create());
                } catch (KubernetesClientException e) {
                    ok = false;
                }
            }
            anchored.put(use, ok);
        }
    }

    /**
     * Removes the anchors, then says for each built-in paramKind whether the run's bindings were the last of it on
     * the cluster (then the server has stopped that kind's informer until it restarts).
     */
    private void releaseAnchors() {
        GenericKubernetesResource r;
        while ((r = anchors.poll()) != null) {
            deleteQuietly(r);
        }
        if (anchored.isEmpty()) {
            return;
        }
        String version;
        try {
            version = client.getKubernetesVersion().getGitVersion();
        } catch (RuntimeException e) {
            version = "";
        }
        for (ParamInformerAnchors.Use use : anchored.keySet()) {
            try {
                String kind = use.policyKind().kind();
                List<JsonNode> policies = list(use.policyApiVersion(), kind);
                List<JsonNode> bindings = list(use.policyApiVersion(), kind + "Binding");
                if (!ParamInformerAnchors.boundElsewhere(use, policies, bindings, runId)) {
                    notices.accept(ParamInformerAnchors.lastBindingWarning(use, version));
                }
            } catch (KubernetesClientException e) {
                // cannot tell (no list permission): say nothing rather than guess
            }
        }
        anchored.clear();
    }

    private List<JsonNode> list(String apiVersion, String kind) {
        return client.genericKubernetesResources(apiVersion, kind).list().getItems().stream()
                .map(i -> (JsonNode) Yaml.mapper().valueToTree(i)).toList();
    }

    /** Creates the run's objects, then waits until the server evaluates them; null when all is in place. */
    private String setUp(PolicyTest test) {
        try {
            for (ServerReplay.Setup s : replay.setup(test, grantCaseUsers)) {
                GenericKubernetesResource live = get(s.object());
                if (live != null && live.getMetadata().getDeletionTimestamp() != null) {
                    live = awaitGone(s.object()); // e.g. a namespace of the previous run, still terminating
                }
                if (live != null) {
                    if (s.reuseIfEqual() && ServerReplay.sameContent(s.object(), Yaml.mapper().valueToTree(live))) {
                        continue;
                    }
                    return s.id() + " exists on the cluster with other content than the test's fixtures say; "
                            + "run against a cluster without it, or make the fixture match";
                }
                ObjectNode labelled = s.object().deepCopy();
                labelled.with("metadata").with("labels").put(ServerReplay.RUN_LABEL, replay.runId());
                create(labelled);
            }
            return awaitLoaded(test);
        } catch (KubernetesClientException e) {
            if (e.getCode() <= 0 && String.valueOf(e.getMessage()).contains("Could not find a registered handler")) {
                // fabric8 asks discovery first: a kind in an API version the server does not serve never reaches it
                return "the server does not serve the API version of one of the test's objects (404): " + message(e);
            }
            return "the server refused the test's objects (" + e.getCode() + "): " + message(e);
        }
    }

    /**
     * Policies take effect when the server's informers have them, which no API reports: the probes of
     * {@link ServerProbes} are created last, and each is asked until it answers as loaded.
     */
    private String awaitLoaded(PolicyTest test) {
        String id = replay.runId();
        List<ServerProbes.Probe> probes = ServerProbes.of(test, id);
        for (ServerProbes.Probe p : probes) {
            p.objects().forEach(this::create);
        }
        UserInfo user = new UserInfo(ServerReplay.PROBE_USER, "", List.of(), Map.of(ServerReplay.RUN_EXTRA, List.of(ServerProbes.probeExtra(id))));
        Instant deadline = Instant.now().plus(loadTimeout);
        for (ServerProbes.Probe p : probes) {
            AdmissionOutcome last = null;
            while (Instant.now().isBefore(deadline)) {
                last = send(new ServerReplay.Request("POST", "/api/v1/namespaces/default/configmaps?dryRun=All", p.request(), user, null));
                if (p.answered(last)) {
                    break;
                }
                sleep(200);
            }
            if (!p.answered(last)) {
                // mutating webhooks run before every validating policy: one that fails closed answers the probe first
                return "the server did not start evaluating the test's policies within " + loadTimeout.toSeconds()
                        + " s; the probe of " + p.what() + " (a dry-run create of configmap default/"
                        + p.request().path("metadata").path("name").asText() + ") was last answered "
                        + (last == null ? "never" : (last.allowed() ? "allowed" : "denied: " + last.message()))
                        + ". Another admission policy or webhook on the cluster may be answering first: " + ADMISSION_CHAIN_COMMAND;
            }
        }
        return null;
    }

    /** One request as the case's user: impersonation headers, the body as JSON, the answer as an outcome. */
    private AdmissionOutcome send(ServerReplay.Request r) {
        HttpRequest.Builder b = client.getHttpClient().newHttpRequestBuilder()
                .uri(client.getMasterUrl().toString().replaceAll("/$", "") + r.path())
                .timeout(30, TimeUnit.SECONDS);
        UserInfo u = r.user();
        b.header("Impersonate-User", u.username());
        u.groups().forEach(g -> b.header("Impersonate-Group", g));
        if (!u.uid().isEmpty()) {
            b.header("Impersonate-Uid", u.uid());
        }
        u.extra().forEach((k, vs) -> vs.forEach(v -> b.header("Impersonate-Extra-" + URLEncoder.encode(k, StandardCharsets.UTF_8), v)));
        String body = r.body() == null ? null : r.body().toString();
        switch (r.method()) {
            case "POST" -> b.post("application/json", body);
            case "PUT" -> b.put("application/json", body);
            case "DELETE" -> b.delete("application/json", "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"dryRun\":[\"All\"]}");
            default -> throw new IllegalArgumentException(r.method());
        }
        try {
            HttpResponse<String> response = client.getHttpClient().sendAsync(b.build(), String.class).get(60, TimeUnit.SECONDS);
            JsonNode answer = response.body() == null || response.body().isBlank() ? Yaml.mapper().createObjectNode()
                    : Yaml.mapper().readTree(response.body());
            return replay.outcome(response.code(), answer, warnings(response.headers("Warning")));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (Exception e) {
            throw new KubernetesClientException("the request to " + r.path() + " failed: " + e.getMessage(), e);
        }
    }

    /** {@code 299 - "text"} headers (RFC 7234 warn-code, agent, quoted text), as kubectl prints them. */
    static List<String> warnings(List<String> headers) {
        List<String> out = new ArrayList<>();
        for (String h : headers == null ? List.<String>of() : headers) {
            int open = h.indexOf('"');
            int close = h.lastIndexOf('"');
            out.add(open >= 0 && close > open ? h.substring(open + 1, close).replace("\\\"", "\"").replace("\\\\", "\\") : h);
        }
        return out;
    }

    private GenericKubernetesResource create(ObjectNode object) {
        GenericKubernetesResource r = Yaml.mapper().convertValue(object, GenericKubernetesResource.class);
        GenericKubernetesResource done = client.resource(r).create();
        created.push(done);
        return done;
    }

    private GenericKubernetesResource get(ObjectNode object) {
        try {
            return client.resource(Yaml.mapper().convertValue(object, GenericKubernetesResource.class)).get();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return null;
            }
            throw e;
        }
    }

    private GenericKubernetesResource awaitGone(ObjectNode object) {
        Instant deadline = Instant.now().plus(LOAD_TIMEOUT);
        GenericKubernetesResource live = get(object);
        while (live != null && live.getMetadata().getDeletionTimestamp() != null && Instant.now().isBefore(deadline)) {
            sleep(500);
            live = get(object);
        }
        return live;
    }

    private void delete(GenericKubernetesResource r) {
        created.remove(r);
        deleteQuietly(r);
    }

    private void deleteQuietly(GenericKubernetesResource r) {
        try {
            client.resource(r).withGracePeriod(0).delete();
        } catch (KubernetesClientException e) {
            // best effort: everything the run creates carries its label, so leftovers can be found
        }
    }

    /** Removes what the run created, newest first (bindings before policies, namespaces last). */
    private void cleanUp() {
        GenericKubernetesResource r;
        while ((r = created.poll()) != null) {
            delete(r);
        }
    }

    @Override
    public void close() {
        cleanUp();
        releaseAnchors();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanupOnInterrupt);
        } catch (IllegalStateException e) {
            // already shutting down: the hook runs
        }
        client.close();
    }

    private static String message(KubernetesClientException e) {
        return e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

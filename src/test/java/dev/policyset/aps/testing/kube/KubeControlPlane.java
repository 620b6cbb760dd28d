package dev.policyset.aps.testing.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A real control plane for tests, started the way envtest starts one: etcd and kube-apiserver on loopback ports
 * (plus kube-controller-manager with only the garbage collector, the namespace controller and the
 * ValidatingAdmissionPolicy type-checking status controller), client-certificate authentication from one test CA,
 * RBAC authorization, an audit log of every request, from binaries built by {@code test/kube/build.sh}.
 *
 * <p>Our own launcher rather than fabric8's kube-api-test (7.5.2): that one binds etcd to 0.0.0.0 with no way to
 * change it (this workplace allows loopback only), waits its whole timeout when a process dies, picks random ports
 * that can collide (fabric8 #7873), needs kubectl for readiness, shares one certificate directory between
 * instances, and has no way to add users or an audit log. Here every process is watched by a small shell guard
 * that ends it when the JVM goes away, even by SIGKILL, and each instance's directory is removed on close (or
 * swept by the next start when its JVM died).
 *
 * <p>One instance per test JVM and class loader ({@link #shared()}), so tests share it: each test names its objects
 * uniquely. Quarkus tests run in a class loader per application, so each {@code @QuarkusTest} class that restarts the
 * application gets a fresh one, stopped with it ({@link #closeShared()}).
 */
public final class KubeControlPlane implements AutoCloseable {
    /**
     * What to start. {@code emulatedVersion} (e.g. "1.34") passes {@code --emulated-version}. {@code serverDefaults}:
     * no flags of ours beyond the launcher's own, so the server serves exactly what that version serves by default
     * (otherwise 1.34/1.35 get the MutatingAdmissionPolicy beta turned on, as the suite's policies need it).
     */
    public record Options(String version, boolean controllerManager, String emulatedVersion, boolean serverDefaults,
                          List<String> apiServerFlags) {
        public static Options defaults() {
            return of(KubeBinaries.version());
        }

        public static Options of(String version) {
            return new Options(version, true, null, false, List.of());
        }

        public Options emulating(String minor) {
            return new Options(version, controllerManager, minor, true, apiServerFlags);
        }

        public Options withServerDefaults() {
            return new Options(version, controllerManager, emulatedVersion, true, apiServerFlags);
        }
    }

    /** One audit event: who did what to which object, and the answer. */
    public record AuditEvent(String user, String verb, String resource, String subresource, String name, int code,
                             boolean dryRun, String uri, Instant at) {
        public boolean isWrite() {
            return Set.of("create", "update", "patch", "delete", "deletecollection").contains(verb);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ADMIN = "aps-test-admin";
    private static KubeControlPlane shared;
    private static RuntimeException sharedFailure;

    private final Options options;
    private final Path dir;
    private final KubePki pki;
    private final List<Process> processes = new ArrayList<>();
    private final int apiPort;
    private final KubePki.Issued admin;
    private KubernetesClient adminClient;
    private long auditBytesRead;
    private final List<AuditEvent> audit = new ArrayList<>();

    private KubeControlPlane(Options options) throws IOException {
        this.options = options;
        sweepStaleDirectories();
        this.dir = Files.createTempDirectory("aps-kube-");
        Files.writeString(dir.resolve("owner.pid"), Long.toString(ProcessHandle.current().pid()));
        this.pki = KubePki.create("aps-test-ca");
        this.admin = pki.client(ADMIN, List.of("system:masters"));
        this.apiPort = freePort();
    }

    /** The control plane of this JVM, started on first use with {@link Options#defaults()}; stopped at JVM exit. */
    public static synchronized KubeControlPlane shared() {
        if (sharedFailure != null) {
            throw new IllegalStateException("the shared control plane failed to start earlier in this JVM", sharedFailure);
        }
        if (shared == null) {
            KubeControlPlane plane;
            try {
                plane = start(Options.defaults());
            } catch (RuntimeException e) {
                sharedFailure = e;
                throw e;
            }
            Runtime.getRuntime().addShutdownHook(new Thread(plane::close, "aps-kube-stop"));
            keepConfigMapParamInformer(plane);
            shared = plane;
        }
        return shared;
    }

    /**
     * Before 1.37 kube-apiserver stops the ConfigMap param informer for good once no binding uses a ConfigMap
     * paramKind, and then finds no named param either (kubernetes/kubernetes#130887, docs/real-apiserver.md "The params
     * problem"): on the plane every class shares, one test's cleanup would leave the next test's ConfigMap params
     * unfound. A policy of that paramKind with a binding that matches nothing keeps the informer for the plane's life.
     * From 1.37 a named param is read directly, and tests that select params by label make their own anchor
     * ({@code aps test --server}); the plane has none there, so that the run's warning about a stopped informer is met.
     */
    private static void keepConfigMapParamInformer(KubeControlPlane plane) {
        if (dev.policyset.aps.core.model.KubeVersion.parse(plane.version()).minor() >= 37) {
            return;
        }
        for (com.fasterxml.jackson.databind.node.ObjectNode o : dev.policyset.aps.core.evaluate.suite.ParamInformerAnchors.anchor(
                new dev.policyset.aps.core.evaluate.suite.ParamInformerAnchors.Use(
                        dev.policyset.aps.core.model.AdmissionKind.VALIDATING_ADMISSION_POLICY,
                        "admissionregistration.k8s.io/v1", "v1", "ConfigMap"), "plane", 0)) {
            // not labelled as an aps test run's: tests check that runs leave none of theirs behind
            o.with("metadata").putObject("labels").put("aps.policyset.dev/test-plane", "param-informer-anchor");
            plane.admin().resource(dev.policyset.aps.core.yaml.Yaml.mapper().convertValue(o,
                    io.fabric8.kubernetes.api.model.GenericKubernetesResource.class)).create();
        }
    }

    /**
     * Stops this class loader's shared control plane now rather than at JVM exit. Each {@code @QuarkusTest}
     * application has a class loader of its own, so it gets its own "shared" plane; its test resource closes it
     * when the application stops, so that planes do not pile up while later classes run.
     */
    public static synchronized void closeShared() {
        if (shared != null) {
            shared.close();
            shared = null;
        }
    }

    /** Starts a control plane; throws with the processes' last log lines when one does not come up. */
    public static KubeControlPlane start(Options options) {
        KubeControlPlane plane;
        try {
            plane = new KubeControlPlane(options);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Instant t0 = Instant.now();
        try {
            plane.startAll();
        } catch (RuntimeException | IOException | InterruptedException e) {
            String logs = plane.logTails();
            plane.close();
            throw new IllegalStateException("control plane " + options.version() + " did not start: " + e.getMessage() + "\n" + logs, e);
        }
        System.out.printf("[aps-kube] kube-apiserver %s%s ready at %s in %d ms (dir %s)%n", options.version(),
                options.emulatedVersion() == null ? "" : " emulating " + options.emulatedVersion(), plane.url(),
                Duration.between(t0, Instant.now()).toMillis(), plane.dir);
        return plane;
    }

    private void startAll() throws IOException, InterruptedException {
        Path bin = KubeBinaries.dir(options.version());
        Path pkiDir = Files.createDirectories(dir.resolve("pki"));
        KubePki.write(pkiDir.resolve("ca.crt"), pki.caPem());
        KubePki.Issued serving = pki.serving("kube-apiserver", List.of("kubernetes", "kubernetes.default",
                "kubernetes.default.svc"), Duration.ofDays(7));
        KubePki.write(pkiDir.resolve("apiserver.crt"), serving.certPem());
        KubePki.write(pkiDir.resolve("apiserver.key"), serving.keyPem());
        KubePki.writeServiceAccountKeys(pkiDir.resolve("sa.key"), pkiDir.resolve("sa.pub"));
        Files.writeString(dir.resolve("audit-policy.yaml"), """
                apiVersion: audit.k8s.io/v1
                kind: Policy
                omitStages: [RequestReceived]
                rules:
                  - level: None
                    nonResourceURLs: ["/readyz*", "/livez*", "/healthz*", "/version", "/openapi/*", "/api", "/apis", "/apis/*"]
                  - level: Metadata
                """);

        int etcdPort = freePort();
        int peerPort = freePort();
        String etcdUrl = "http://127.0.0.1:" + etcdPort;
        launch("etcd", List.of(bin.resolve("etcd").toString(), "--name=default", "--data-dir=" + dir.resolve("etcd"),
                "--listen-client-urls=" + etcdUrl, "--advertise-client-urls=" + etcdUrl,
                "--listen-peer-urls=http://127.0.0.1:" + peerPort, "--initial-advertise-peer-urls=http://127.0.0.1:" + peerPort,
                "--initial-cluster=default=http://127.0.0.1:" + peerPort, "--unsafe-no-fsync=true", "--log-level=warn"));
        HttpClient plain = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
        await("etcd", Duration.ofSeconds(60), () -> get(plain, etcdUrl + "/health").contains("\"health\":\"true\""));

        List<String> api = new ArrayList<>(List.of(bin.resolve("kube-apiserver").toString(),
                "--etcd-servers=" + etcdUrl, "--cert-dir=" + pkiDir,
                "--tls-cert-file=" + pkiDir.resolve("apiserver.crt"), "--tls-private-key-file=" + pkiDir.resolve("apiserver.key"),
                "--secure-port=" + apiPort, "--bind-address=127.0.0.1", "--advertise-address=127.0.0.1",
                "--endpoint-reconciler-type=none", "--service-cluster-ip-range=10.0.0.0/24", "--allow-privileged=true",
                "--disable-admission-plugins=ServiceAccount", "--authorization-mode=RBAC",
                "--client-ca-file=" + pkiDir.resolve("ca.crt"),
                "--service-account-issuer=https://127.0.0.1:" + apiPort + "/",
                "--service-account-key-file=" + pkiDir.resolve("sa.pub"),
                "--service-account-signing-key-file=" + pkiDir.resolve("sa.key"),
                "--audit-policy-file=" + dir.resolve("audit-policy.yaml"), "--audit-log-path=" + dir.resolve("audit.log"),
                "--audit-log-format=json", "--audit-log-mode=blocking", "--audit-log-maxsize=0"));
        if (options.emulatedVersion() != null) {
            api.add("--emulated-version=" + options.emulatedVersion());
        }
        if (!options.serverDefaults()) {
            api.addAll(mutatingPolicyFlags(options.version()));
        }
        apiServerCommand = List.copyOf(api);
        startApiServer(options.apiServerFlags());

        Path kubeconfig = writeKubeconfig(dir.resolve("admin.kubeconfig"), admin);
        if (options.controllerManager()) {
            launch("kube-controller-manager", List.of(bin.resolve("kube-controller-manager").toString(),
                    "--kubeconfig=" + kubeconfig, "--leader-elect=false", "--secure-port=0",
                    "--controllers=garbage-collector-controller,namespace-controller,validatingadmissionpolicy-status-controller",
                    "--use-service-account-credentials=false", "--concurrent-gc-syncs=5"));
        }
    }

    private List<String> apiServerCommand;
    private Process apiServer;

    private void startApiServer(List<String> extraFlags) throws IOException, InterruptedException {
        List<String> api = new ArrayList<>(apiServerCommand);
        api.addAll(extraFlags);
        apiServer = launch("kube-apiserver", api);
        HttpClient tls = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(sslContext(false))
                .connectTimeout(Duration.ofSeconds(2)).build();
        await("kube-apiserver", Duration.ofSeconds(180), () -> get(tls, url() + "/readyz").equals("ok"));
    }

    /**
     * Restarts kube-apiserver on the same port and etcd with other extra flags, as a cluster admin changing the
     * server's flags (or an upgrade) would: clients reconnect, the stored objects stay.
     */
    public synchronized void restartApiServer(List<String> extraFlags) {
        try {
            // SIGKILL, as a crashed or replaced server: a graceful stop of kube-apiserver waits for its watchers
            ProcessHandle.of(Long.parseLong(Files.readString(dir.resolve("kube-apiserver.pid")).trim()))
                    .ifPresent(ProcessHandle::destroyForcibly);
            if (!apiServer.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                throw new IllegalStateException("kube-apiserver did not stop");
            }
            processes.remove(apiServer);
            startApiServer(extraFlags);
        } catch (IllegalStateException e) {
            throw new IllegalStateException(e.getMessage() + "\n" + logTail("kube-apiserver", 40), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Restarts kube-apiserver without {@code --emulated-version}: the cluster upgraded from the emulated minor to the
     * binary's own (what the compatibility-version upgrade path does), same etcd, same port.
     */
    public synchronized void upgradeApiServer(List<String> extraFlags) {
        apiServerCommand = apiServerCommand.stream().filter(a -> !a.startsWith("--emulated-version=")).toList();
        restartApiServer(extraFlags);
    }

    /**
     * MutatingAdmissionPolicy is GA and on from 1.36; on 1.34/1.35 it is beta and off (gate and API group version).
     * With an emulated version none are added: the server keeps that version's defaults, and a test that wants the
     * beta passes these through {@link Options#apiServerFlags()} (or {@link #restartApiServer}).
     */
    public static List<String> mutatingPolicyFlags(String version) {
        int minor = Integer.parseInt(version.split("\\.")[1]);
        if (minor >= 36) {
            return List.of();
        }
        return List.of("--feature-gates=MutatingAdmissionPolicy=true",
                "--runtime-config=admissionregistration.k8s.io/v1beta1=true,admissionregistration.k8s.io/v1alpha1=true");
    }

    /** {@code https://127.0.0.1:<port>}. */
    public String url() {
        return "https://127.0.0.1:" + apiPort;
    }

    public String version() {
        return options.version();
    }

    public Path directory() {
        return dir;
    }

    public String caPem() {
        return pki.caPem();
    }

    public KubePki pki() {
        return pki;
    }

    /** A client in {@code system:masters}, shared; do not close it. */
    public synchronized KubernetesClient admin() {
        if (adminClient == null) {
            adminClient = new KubernetesClientBuilder().withConfig(config(admin)).build();
        }
        return adminClient;
    }

    /** A client configuration for {@code user} in {@code groups} (client certificate from the test CA). */
    public Config configFor(String user, List<String> groups) {
        return config(pki.client(user, groups));
    }

    /** The fabric8 configuration of a user as system properties a Quarkus test resource returns. */
    public Map<String, String> clientProperties(String user, List<String> groups) {
        KubePki.Issued id = pki.client(user, groups);
        Map<String, String> p = new LinkedHashMap<>();
        p.put("kubernetes.master", url());
        p.put("kubernetes.certs.ca.data", b64(pki.caPem()));
        p.put("kubernetes.certs.client.data", b64(id.certPem()));
        p.put("kubernetes.certs.client.key.data", b64(id.keyPem()));
        p.put("kubernetes.certs.client.key.algo", "RSA");
        p.put("kubernetes.auth.tryKubeConfig", "false");
        p.put("kubernetes.auth.tryServiceAccount", "false");
        p.put("kubernetes.namespace", "default");
        return p;
    }

    /** A kubeconfig file for {@code user} in {@code groups}, e.g. for the packaged operator or kubectl. */
    public Path kubeconfigFor(String user, List<String> groups) {
        try {
            return writeKubeconfig(Files.createTempFile(dir, "kubeconfig-" + user.replaceAll("[^a-zA-Z0-9-]", "_") + "-", ""),
                    pki.client(user, groups));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Config config(KubePki.Issued id) {
        return new ConfigBuilder(Config.empty()).withMasterUrl(url()).withCaCertData(b64(pki.caPem()))
                .withClientCertData(b64(id.certPem())).withClientKeyData(b64(id.keyPem())).withClientKeyAlgo("RSA")
                .withRequestTimeout(30_000).withConnectionTimeout(10_000).build();
    }

    private Path writeKubeconfig(Path file, KubePki.Issued id) throws IOException {
        Files.writeString(file, """
                apiVersion: v1
                kind: Config
                clusters:
                  - name: aps-test
                    cluster: {server: "%s", certificate-authority-data: %s}
                users:
                  - name: user
                    user: {client-certificate-data: %s, client-key-data: %s}
                contexts:
                  - name: aps-test
                    context: {cluster: aps-test, user: user}
                current-context: aps-test
                """.formatted(url(), b64(pki.caPem()), b64(id.certPem()), b64(id.keyPem())));
        return file;
    }

    /**
     * The audit log so far (Metadata level, one event per request at ResponseComplete). The log is written
     * as each request completes; {@link #auditQuiet} waits until it stops growing.
     */
    public synchronized List<AuditEvent> audit() {
        Path log = dir.resolve("audit.log");
        if (!Files.exists(log)) {
            return List.copyOf(audit);
        }
        // Only what was appended since the last call (the tests poll; the log grows to tens of thousands of lines),
        // and only complete lines: the last one may still be being written.
        try (java.nio.channels.FileChannel in = java.nio.channels.FileChannel.open(log)) {
            long size = in.size();
            if (size > auditBytesRead) {
                java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(Math.toIntExact(size - auditBytesRead));
                in.read(buffer, auditBytesRead);
                byte[] bytes = buffer.array();
                int end = buffer.position();
                while (end > 0 && bytes[end - 1] != '\n') {
                    end--;
                }
                for (String line : new String(bytes, 0, end, StandardCharsets.UTF_8).split("\n")) {
                    if (!line.isBlank()) {
                        audit.add(auditEvent(JSON.readTree(line)));
                    }
                }
                auditBytesRead += end;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return List.copyOf(audit);
    }

    private static AuditEvent auditEvent(JsonNode e) {
        JsonNode ref = e.path("objectRef");
        return new AuditEvent(e.path("user").path("username").asText(), e.path("verb").asText(),
                ref.path("resource").asText(null), ref.path("subresource").asText(null), ref.path("name").asText(null),
                e.path("responseStatus").path("code").asInt(), e.path("requestURI").asText().contains("dryRun="),
                e.path("requestURI").asText(), Instant.parse(e.path("requestReceivedTimestamp").asText()));
    }

    /** The audit events from {@code user} after {@code from} (index into {@link #audit()}). */
    public List<AuditEvent> auditSince(int from, String user) {
        List<AuditEvent> all = audit();
        return all.subList(Math.min(from, all.size()), all.size()).stream().filter(e -> e.user().equals(user)).toList();
    }

    /** Waits until no audit event arrived for {@code quiet}; returns the number of events so far. */
    public int auditQuiet(Duration quiet, Duration atMost) {
        Instant deadline = Instant.now().plus(atMost);
        int size = audit().size();
        Instant stableSince = Instant.now();
        while (Instant.now().isBefore(deadline)) {
            sleep(200);
            int now = audit().size();
            if (now != size) {
                size = now;
                stableSince = Instant.now();
            } else if (Duration.between(stableSince, Instant.now()).compareTo(quiet) >= 0) {
                return size;
            }
        }
        return size;
    }

    @Override
    public synchronized void close() {
        if (adminClient != null) {
            adminClient.close();
            adminClient = null;
        }
        for (int i = processes.size() - 1; i >= 0; i--) {
            Process p = processes.get(i);
            p.destroy();
            try {
                if (!p.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        processes.clear();
        if (!Boolean.getBoolean("aps.kube.keep")) {
            deleteTree(dir);
        }
    }

    /**
     * Starts a process under a guard: the guard (sh) ends it when the JVM is gone (checked every second) and
     * passes SIGTERM on, so {@link Process#destroy()} stops the real process and a killed JVM leaves nothing behind.
     */
    private Process launch(String name, List<String> command) throws IOException {
        // SIGTERM to the guard: SIGTERM to the process, SIGKILL if it is still there 10 s later (kube-apiserver's
        // graceful shutdown can outlast a test's patience, and an orphan would keep the port).
        String stop = "kill -TERM $child 2>/dev/null; i=0; while kill -0 $child 2>/dev/null && [ $i -lt 20 ]; do sleep 0.5; "
                + "i=$((i+1)); done; kill -KILL $child 2>/dev/null; wait $child";
        String guard = "jvm=$1; pidfile=$2; shift 2; \"$@\" & child=$!; echo $child > \"$pidfile\"; "
                + "trap '" + stop + "; exit 0' TERM INT; "
                + "while kill -0 $child 2>/dev/null; do kill -0 $jvm 2>/dev/null || { " + stop + "; exit 1; }; "
                + "sleep 1 & wait $!; done; wait $child";
        List<String> argv = new ArrayList<>(List.of("sh", "-c", guard, "guard", Long.toString(ProcessHandle.current().pid()),
                dir.resolve(name + ".pid").toString()));
        argv.addAll(command);
        Path log = dir.resolve(name + ".log");
        Files.writeString(dir.resolve(name + ".cmd"), String.join(" ", command));
        Process p = new ProcessBuilder(argv).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        processes.add(p);
        return p;
    }

    private interface Probe {
        boolean ready() throws Exception;
    }

    private void await(String what, Duration timeout, Probe probe) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        Exception last = null;
        while (Instant.now().isBefore(deadline)) {
            for (Process p : processes) {
                if (!p.isAlive()) {
                    throw new IllegalStateException("a control-plane process exited with " + p.exitValue() + " while waiting for " + what);
                }
            }
            try {
                if (probe.ready()) {
                    return;
                }
            } catch (Exception e) {
                last = e;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException(what + " not ready after " + timeout.toSeconds() + " s"
                + (last == null ? "" : " (last error: " + last + ")"));
    }

    private static String get(HttpClient http, String url) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
        return r.statusCode() == 200 ? r.body().trim() : "";
    }

    /** Trusts the test CA; with {@code clientCertificate}, presents the admin certificate. */
    public SSLContext sslContext(boolean clientCertificate) {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("ca", pki.caCertificate());
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            javax.net.ssl.KeyManager[] keyManagers = null;
            if (clientCertificate) {
                KeyStore keys = KeyStore.getInstance("PKCS12");
                keys.load(null, null);
                keys.setKeyEntry("admin", admin.key(), new char[0], new java.security.cert.Certificate[] {admin.certificate()});
                javax.net.ssl.KeyManagerFactory kmf = javax.net.ssl.KeyManagerFactory.getInstance("PKIX");
                kmf.init(keys, new char[0]);
                keyManagers = kmf.getKeyManagers();
            }
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(keyManagers, tmf.getTrustManagers(), null);
            return ssl;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private String logTails() {
        StringBuilder out = new StringBuilder();
        for (String name : List.of("etcd", "kube-apiserver", "kube-controller-manager")) {
            Path log = dir.resolve(name + ".log");
            if (Files.exists(log)) {
                try {
                    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
                    out.append("--- ").append(name).append(" (last lines of ").append(log).append(")\n");
                    lines.subList(Math.max(0, lines.size() - 25), lines.size()).forEach(l -> out.append(l).append('\n'));
                } catch (IOException ignored) {
                    // the log is only extra detail
                }
            }
        }
        return out.toString();
    }

    /** The last lines of one process's log, for a failing test's message. */
    public String logTail(String process, int lines) {
        try {
            List<String> all = Files.readAllLines(dir.resolve(process + ".log"), StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static final Set<Integer> HANDED_OUT = new HashSet<>();

    /** A free loopback port not handed out before in this JVM (two processes asking at once cannot collide here). */
    public static synchronized int freePort() {
        for (int i = 0; i < 100; i++) {
            try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                if (HANDED_OUT.add(s.getLocalPort())) {
                    return s.getLocalPort();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        throw new IllegalStateException("no free port");
    }

    /** Directories of control planes whose JVM is gone (killed before it could clean up). */
    private static void sweepStaleDirectories() {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        try (Stream<Path> dirs = Files.list(tmp)) {
            for (Path d : dirs.filter(d -> d.getFileName().toString().startsWith("aps-kube-")).toList()) {
                Optional<Long> pid = readPid(d.resolve("owner.pid"));
                boolean alive = pid.isPresent() && ProcessHandle.of(pid.get()).map(ProcessHandle::isAlive).orElse(false);
                boolean young = Files.getLastModifiedTime(d).toInstant().isAfter(Instant.now().minusSeconds(60));
                if (alive || (pid.isEmpty() && young)) {
                    continue; // in use, or being created by another JVM
                }
                deleteTree(d);
            }
        } catch (IOException ignored) {
            // a sweep is housekeeping only
        }
    }

    private static Optional<Long> readPid(Path file) {
        try {
            return Optional.of(Long.parseLong(Files.readString(file).trim()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // best effort
        }
    }

    static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package dev.policyset.aps.operator;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.core.cel.KubernetesCelChecker;
import dev.policyset.aps.core.model.ClusterView;
import dev.policyset.aps.core.plan.Planner;
import dev.policyset.aps.core.plan.SetAdmission;
import dev.policyset.aps.operator.webhook.AdmissionReviewHandler;
import dev.policyset.aps.operator.webhook.ReviewObserver;
import dev.policyset.aps.operator.webhook.ServingCertificate;
import dev.policyset.aps.operator.webhook.WebhookServer;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.processing.Controller;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The operator's validating admission webhook for AdmissionPolicySets (docs/install.md, "The validating webhook"):
 * started after the operator when a serving certificate is mounted ({@link ServingCertificate#DEFAULT_LOCATIONS},
 * or {@code aps.webhook.cert-dir}), otherwise disabled with one log line saying so. It judges a set against the
 * reconciler's own informer caches (the same {@link InformerClusterView} a reconcile plans with), so a binding to
 * a policy that exists in the cluster is not refused.
 *
 * <p>Configuration: {@code aps.webhook.enabled} (default true), {@code aps.webhook.port} (9443),
 * {@code aps.webhook.cert-dir} (a directory holding {@code tls.crt} and {@code tls.key}; replaces the default
 * places), {@code aps.webhook.reload-period} (PT10S: how often the files are compared for a rotation),
 * {@code aps.webhook.certificates}: {@value #MOUNTED} (those files) or {@value #SELF_MANAGED} (the operator's own,
 * {@link SelfManagedCertificates}; the server then starts once the Secret holds a certificate).
 */
@Singleton
public class AdmissionWebhook {
    /** {@code aps.webhook.certificates}: the operator issues, rotates and injects its own (config/default). */
    public static final String SELF_MANAGED = "self-managed";
    /** {@code aps.webhook.certificates}: PEM files mounted by cert-manager's Secret or OLM. */
    public static final String MOUNTED = "mounted";
    private static final Logger LOG = Logger.getLogger(AdmissionWebhook.class);

    private final boolean enabled;
    private final int port;
    private final Optional<String> certDir;
    private final Duration reloadPeriod;
    private final String certificates;
    private final Planner planner = new Planner(new KubernetesCelChecker());
    private volatile WebhookServer server;
    private volatile SelfManagedCertificates selfManaged;

    public AdmissionWebhook(@ConfigProperty(name = "aps.webhook.enabled", defaultValue = "true") boolean enabled,
                            @ConfigProperty(name = "aps.webhook.port", defaultValue = "9443") int port,
                            @ConfigProperty(name = "aps.webhook.cert-dir") Optional<String> certDir,
                            @ConfigProperty(name = "aps.webhook.reload-period", defaultValue = "PT10S") Duration reloadPeriod,
                            @ConfigProperty(name = "aps.webhook.certificates", defaultValue = MOUNTED) String certificates) {
        this.certificates = certificates;
        this.enabled = enabled;
        this.port = port;
        this.certDir = certDir.filter(d -> !d.isBlank());
        this.reloadPeriod = reloadPeriod;
    }

    /** After {@link OperatorStartup} (priority 1): the informers the webhook reads are the operator's. */
    void onStart(@Observes @Priority(10) StartupEvent event, Vertx vertx, Instance<Operator> operator,
                 ClusterDiscovery discovery, OperatorMetrics metrics, OperatorStartup startup,
                 Instance<SelfManagedCertificates> selfManaged, LeaderElection leaderElection) {
        if (startup.failed()) {
            return; // the operator did not start and the process exits: no webhook, and no line about one
        }
        Supplier<ClusterView> cluster = () -> clusterView(operator.get(), discovery);
        if (enabled && !certificates.equals(SELF_MANAGED) && !certificates.equals(MOUNTED)) {
            LOG.errorf("Validating webhook for AdmissionPolicySets not started: aps.webhook.certificates is '%s'; set it to "
                    + "%s (the operator issues and rotates them in a Secret) or %s (cert-manager, OLM). The operator runs "
                    + "without it", certificates, SELF_MANAGED, MOUNTED);
            return;
        }
        if (enabled && certificates.equals(SELF_MANAGED)) {
            SelfManagedCertificates managed;
            try {
                managed = selfManaged.get();
            } catch (RuntimeException e) {
                // Settings that cannot work (CertificateRotation.Settings says which): one line, no stack trace.
                Throwable cause = e;
                while (cause.getCause() != null && !(cause instanceof IllegalArgumentException)) {
                    cause = cause.getCause();
                }
                LOG.errorf("Validating webhook for AdmissionPolicySets not started: %s. The operator runs without it",
                        cause.getMessage());
                return;
            }
            // Without leader election (one replica, tests) this replica is the one that writes.
            boolean elected = operator.get().getConfigurationService().getLeaderElectionConfiguration().isPresent();
            startSelfManaged(vertx, managed, elected ? leaderElection::leading : () -> true, cluster,
                    metrics::webhookReviewed);
            return;
        }
        start(vertx, cluster, metrics::webhookReviewed);
    }

    /**
     * The self-managed mode: the server starts once the Secret first holds a serving certificate (the leader writes it
     * within a reload period of winning the Lease) and serves every later one from the next handshake on.
     */
    void startSelfManaged(Vertx vertx, SelfManagedCertificates certificates, java.util.function.BooleanSupplier leader,
                          Supplier<ClusterView> cluster, ReviewObserver observer) {
        selfManaged = certificates;
        LOG.infof("Validating webhook for AdmissionPolicySets: self-managed certificates in Secret %s for %s (the leader "
                + "issues, rotates and injects them; every replica serves them); waiting for the first one",
                certificates.secret(), certificates.dnsNames());
        certificates.start(vertx, leader, source -> {
            try {
                serve(vertx, source.load(vertx), cluster, observer);
            } catch (IllegalArgumentException e) {
                LOG.errorf("Validating webhook for AdmissionPolicySets not started: %s", e.getMessage());
            }
        });
    }

    /**
     * Starts the server when enabled and a certificate is there; says in the log what it did and why. Every answered
     * review is told to {@code observer} (the metrics).
     */
    void start(Vertx vertx, Supplier<ClusterView> cluster, ReviewObserver observer) {
        if (!enabled) {
            LOG.info("Validating webhook for AdmissionPolicySets disabled (aps.webhook.enabled=false); "
                    + "the operator still validates every set before applying it");
            return;
        }
        List<List<Path>> locations = locations();
        Optional<List<Path>> files = ServingCertificate.locate(locations);
        if (files.isEmpty()) {
            LOG.infof("Validating webhook for AdmissionPolicySets disabled: no serving certificate at %s "
                    + "(aps.webhook.certificates=mounted: cert-manager or OLM mount one; aps.webhook.certificates=self-managed "
                    + "lets the operator issue its own, docs/install.md); the operator still validates every set "
                    + "before applying it", describe(locations));
            return;
        }
        ServingCertificate certificate;
        try {
            certificate = ServingCertificate.read(files.get().get(0), files.get().get(1), vertx);
        } catch (IllegalArgumentException e) {
            LOG.errorf("Validating webhook for AdmissionPolicySets not started: %s. The operator runs without it "
                    + "(failurePolicy Ignore: sets are admitted, and still validated before anything is applied)", e.getMessage());
            return;
        }
        serve(vertx, certificate, cluster, observer);
    }

    private void serve(Vertx vertx, ServingCertificate certificate, Supplier<ClusterView> cluster, ReviewObserver observer) {
        SetAdmission admission = new SetAdmission(planner);
        AdmissionReviewHandler handler = new AdmissionReviewHandler(admission, cluster);
        try {
            server = WebhookServer.start(vertx, "0.0.0.0", port, certificate, reloadPeriod, handler, observer)
                    .toCompletionStage().toCompletableFuture().join();
            LOG.infof("Validating webhook for AdmissionPolicySets listening on https port %d at %s with %s",
                    server.port(), WebhookServer.PATH, certificate.describe());
            warmUp(admission);
        } catch (RuntimeException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            LOG.errorf("Validating webhook for AdmissionPolicySets not started: cannot listen on port %d (%s). The operator "
                    + "runs without it", port, cause.getMessage());
        }
    }

    /**
     * A set judged once in the background right after start: the first judgement loads and builds the CEL
     * environments (4–5 s measured in ReviewOwnWebhookTest), close to the configuration's 5 s timeout, so without it
     * the first set written after a start on an idle cluster could time out (and be admitted: failurePolicy Ignore).
     */
    private static void warmUp(SetAdmission admission) {
        Thread thread = new Thread(() -> {
            long start = System.nanoTime();
            try {
                judgeWarmUpSet(admission);
                LOG.debugf("Validating webhook warmed up in %d ms", (System.nanoTime() - start) / 1_000_000);
            } catch (Exception | LinkageError e) {
                LOG.debugf("Validating webhook warm-up failed (the first review pays the start-up instead): %s", e);
            }
        }, "aps-webhook-warm-up");
        thread.setDaemon(true);
        thread.start();
    }

    static SetAdmission.Decision judgeWarmUpSet(SetAdmission admission) throws java.io.IOException {
        return admission.judge((com.fasterxml.jackson.databind.node.ObjectNode) WARM_UP_JSON.readTree(WARM_UP_SET), null,
                ClusterView.offline(dev.policyset.aps.core.model.KubeVersion.NEWEST));
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper WARM_UP_JSON = new com.fasterxml.jackson.databind.ObjectMapper();
    /** A set with each kind of expression, so that every environment a review needs is built once. */
    private static final String WARM_UP_SET = """
            {"apiVersion": "admission.policyset.dev/v1alpha1", "kind": "AdmissionPolicySet",
             "metadata": {"name": "aps-webhook-warm-up"},
             "spec": {
               "validatingPolicies": [{"name": "warm-up-v", "policy": {
                 "matchConstraints": {"resourceRules": [{"apiGroups": ["apps"], "apiVersions": ["v1"],
                   "operations": ["CREATE"], "resources": ["deployments"]}]},
                 "matchConditions": [{"name": "labelled", "expression": "has(object.metadata.labels)"}],
                 "variables": [{"name": "n", "expression": "object.spec.replicas"}],
                 "validations": [{"expression": "variables.n <= 5", "messageExpression": "'at most 5, not ' + string(variables.n)"}],
                 "auditAnnotations": [{"key": "n", "valueExpression": "string(variables.n)"}]}}],
               "mutatingPolicies": [{"name": "warm-up-m", "policy": {
                 "matchConstraints": {"resourceRules": [{"apiGroups": [""], "apiVersions": ["v1"],
                   "operations": ["CREATE"], "resources": ["pods"]}]},
                 "reinvocationPolicy": "Never",
                 "mutations": [{"patchType": "ApplyConfiguration", "applyConfiguration": {"expression":
                   "Object{metadata: Object.metadata{labels: {'warm': 'up'}}}"}}]}}]}}
            """;

    void onStop(@Observes ShutdownEvent event) {
        SelfManagedCertificates c = selfManaged;
        if (c != null) {
            c.stop();
        }
        WebhookServer s = server;
        if (s != null) {
            s.close();
        }
    }

    /** The port it listens on, when it runs. */
    public Optional<Integer> port() {
        WebhookServer s = server;
        return s == null ? Optional.empty() : Optional.of(s.port());
    }

    List<List<Path>> locations() {
        return certDir.map(d -> List.of(List.of(Path.of(d, "tls.crt"), Path.of(d, "tls.key"))))
                .orElse(ServingCertificate.DEFAULT_LOCATIONS);
    }

    private static String describe(List<List<Path>> locations) {
        return String.join(" or ", locations.stream().map(p -> p.get(0) + " + " + p.get(1).getFileName()).toList());
    }

    /**
     * What a reconcile would see: the controller's informer caches and the current discovery answer. Throws while
     * the operator has not started (the handler then admits the set and says it was not judged). Any replica can
     * judge, leader or not: JOSDK 5's {@code Controller.start} starts the event sources (the informers) on every
     * replica and only the event processing on the leader.
     */
    @SuppressWarnings("unchecked")
    static ClusterView clusterView(Operator operator, ClusterDiscovery discovery) {
        Controller<AdmissionPolicySet> controller = (Controller<AdmissionPolicySet>) operator
                .getRegisteredController(AdmissionPolicySetReconciler.NAME)
                .filter(Controller.class::isInstance)
                .orElseThrow(() -> new IllegalStateException("the operator's controller is not running yet"));
        return new InformerClusterView(controller.getEventSourceManager(), discovery.managedKinds(), discovery.snapshot());
    }
}

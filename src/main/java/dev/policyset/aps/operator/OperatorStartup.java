package dev.policyset.aps.operator;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.Operator;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

/**
 * Starts the operator once the cluster answers (QOSDK's own start is off: {@code quarkus.operator-sdk.start-operator=false}).
 * No reachable API server, or no AdmissionPolicySet CRD, is one clear line and exit code 1, not a stack
 * trace from an informer.
 */
@Singleton
public class OperatorStartup {
    private static final Logger LOG = Logger.getLogger(OperatorStartup.class);
    /** Held so that the level set on it stays (java.util.logging keeps loggers only weakly). */
    private static final java.util.logging.Logger QUARKUS_LOG = java.util.logging.Logger.getLogger("io.quarkus");
    private volatile boolean started;
    private volatile boolean failed;

    void onStart(@Observes @Priority(1) StartupEvent event, KubernetesClient client, ClusterDiscovery discovery, Instance<Operator> operator) {
        String server = client.getConfiguration().getMasterUrl();
        // Probe without the client's retry backoff (ten retries take ~30 s against a name that does not resolve).
        try (KubernetesClient probe = new KubernetesClientBuilder().withConfig(new ConfigBuilder(client.getConfiguration())
                .withRequestRetryBackoffLimit(0).withConnectionTimeout(5_000).withRequestTimeout(10_000).build()).build()) {
            probe.getKubernetesVersion();
        } catch (RuntimeException e) {
            discovery.unreachable();
            fail("cannot reach the Kubernetes API server at " + server + " (" + rootMessage(e) + "). "
                    + "Point KUBECONFIG at a cluster (or run in-cluster) and start again.");
            return;
        }
        try {
            client.resources(AdmissionPolicySet.class).list(new ListOptionsBuilder().withLimit(1L).build());
        } catch (RuntimeException e) {
            discovery.unreachable();
            if (e instanceof KubernetesClientException k && k.getCode() == 404) {
                fail("the AdmissionPolicySet CRD is not installed on " + server
                        + ": kubectl apply -f crds/ (or install the bundle), then start again.");
            } else {
                fail(explain("cannot list AdmissionPolicySets on " + server, e));
            }
            return;
        }
        discovery.snapshot();
        LOG.infof("Starting the Admission Policy Operator against %s", server);
        try {
            operator.get().start();
            started = true;
        } catch (RuntimeException e) {
            fail(explain("could not start watching the cluster", e));
        }
    }

    /**
     * What failed and what to do, by cause: RBAC is named only when the API server refused (401/403) or JOSDK found
     * no Lease permission; an object that does not decode is a version mismatch, not a permission problem.
     */
    static String explain(String what, Throwable e) {
        String cause = " (" + rootMessage(e) + ")";
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof com.fasterxml.jackson.core.JsonProcessingException) {
                return what + cause + ": a stored object does not match this operator's classes; install the CRD "
                        + "of this operator version (crds/), or the operator version that matches the CRD.";
            }
            int code = t instanceof KubernetesClientException k ? k.getCode() : 0;
            if (code == 401 || code == 403 || String.valueOf(t.getMessage()).contains("No permission to lease")) {
                return what + cause + "; check the operator's RBAC (config/rbac) and, for leader election, the Lease "
                        + "namespace (aps.leader-election.namespace).";
            }
        }
        return what + cause + "; check that the API server is healthy and reachable, then start again.";
    }

    /**
     * QOSDK stops only an operator it started itself. Leader election is told first, so that the end of
     * leadership that {@code Operator.stop()} causes releases the Lease instead of exiting (see {@link LeaderElection}).
     */
    void onStop(@Observes io.quarkus.runtime.ShutdownEvent event, Instance<Operator> operator, LeaderElection leaderElection,
                ImpactScans scans) {
        scans.stop(); // a running scan ends before its next list request, not after the whole cluster
        if (started) {
            leaderElection.stopping();
            operator.get().stop();
        }
    }

    /** True once startup has failed: the process is on its way out, so nothing else may start or say it did. */
    public boolean failed() {
        return failed;
    }

    private void fail(String message) {
        failed = true;
        LOG.error("Admission Policy Operator not started: " + message);
        // Quarkus finishes its start before asyncExit takes effect and would then log "started ... Listening on:
        // http://0.0.0.0:8080", the opposite of the line above; its own INFO lines are silenced for the way out.
        QUARKUS_LOG.setLevel(java.util.logging.Level.WARNING);
        Quarkus.asyncExit(1);
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }
}

package dev.policyset.aps.operator;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Optional;
import java.util.UUID;

/**
 * Leader election through a Lease ({@code aps.leader-election.lease-name}, in {@code aps.leader-election.namespace}
 * or the operator's own namespace). QOSDK activates it for the profiles in
 * {@code quarkus.operator-sdk.activate-leader-election-for-profiles} (default {@code prod}), so two replicas
 * never reconcile at once while dev and test runs need no Lease.
 *
 * <p>Two things JOSDK 5.2.1 does not do on a clean shutdown, done here:
 * <ul>
 *   <li><b>No {@code System.exit} while stopping.</b> {@code Operator.stop()} cancels the leader elector, whose
 *       stop callback ({@code LeaderElectionManager.stopLeading}) calls {@code System.exit(1)} when
 *       {@link #isExitOnStopLeading()} is true. Called from a shutdown hook that deadlocks the JVM (the hook
 *       waits for itself); called from {@code Quarkus.asyncExit} it turns a clean stop into exit code 1. So exit
 *       on a lost lease only while running: losing the lease then must end the process, or two replicas
 *       would reconcile at once.
 *   <li><b>Release the lease.</b> JOSDK builds its elector with {@code releaseOnCancel=false}, so a stopped
 *       leader keeps the Lease until it expires (15 s) and the next replica waits that long. When the elector
 *       stops because we are stopping, this does what fabric8's {@code LeaderElector.release()} does: if the
 *       Lease still names us, write holder {@code ""}, duration 1 s, renew time now. The elector is already
 *       stopped at that point (its {@code stopped} flag is set under the lock that guards renewal), so nothing
 *       renews after the release.
 * </ul>
 */
@Singleton
public class LeaderElection extends LeaderElectionConfiguration {
    private static final Logger LOG = Logger.getLogger(LeaderElection.class);

    private final KubernetesClient client;
    private volatile boolean stopping;
    private volatile boolean leading;

    public LeaderElection(KubernetesClient client) {
        super(ConfigProvider.getConfig().getOptionalValue("aps.leader-election.lease-name", String.class)
                        .orElse("admission-policy-operator-lease"),
                ConfigProvider.getConfig().getOptionalValue("aps.leader-election.namespace", String.class).orElse(null),
                LEASE_DURATION_DEFAULT_VALUE, RENEW_DEADLINE_DEFAULT_VALUE, RETRY_PERIOD_DEFAULT_VALUE,
                identity(), null, true);
        this.client = client;
    }

    /** Called before the operator is stopped: from now on, the end of leadership is expected. */
    public void stopping() {
        stopping = true;
    }

    @Override
    public boolean isExitOnStopLeading() {
        return !stopping;
    }

    @Override
    public Optional<LeaderCallbacks> getLeaderCallbacks() {
        // JOSDK calls these before its own handling (LeaderElectionManager.leaderCallbacks).
        return Optional.of(new LeaderCallbacks(() -> {
            leading = true;
            LOG.infof("Leading as %s", getIdentity().orElseThrow());
        }, this::onStopLeading, leader -> {}));
    }

    /** True while this replica holds the Lease (only meaningful when leader election is active). */
    public boolean leading() {
        return leading;
    }

    private void onStopLeading() {
        leading = false;
        if (!stopping) {
            LOG.errorf("Lost the leader lease %s as %s; exiting so that no two replicas reconcile at once",
                    getLeaseName(), getIdentity().orElseThrow());
            return;
        }
        String namespace = getLeaseNamespace().orElseGet(() -> client.getConfiguration().getNamespace());
        try {
            LeaseLock lock = new LeaseLock(namespace, getLeaseName(), getIdentity().orElseThrow());
            LeaderElectionRecord current = lock.get(client);
            if (current == null || !lock.identity().equals(current.getHolderIdentity())) {
                return;
            }
            ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
            lock.update(client, new LeaderElectionRecord("", Duration.ofSeconds(1), now, now, current.getLeaderTransitions()));
            LOG.infof("Released the leader lease %s/%s", namespace, getLeaseName());
        } catch (KubernetesClientException e) {
            // A conflict means someone else wrote the Lease: then it is not ours to release. Either way it expires.
            LOG.warnf("Could not release the leader lease %s/%s (%s); it expires in %s s", namespace, getLeaseName(),
                    e.getMessage(), getLeaseDuration().toSeconds());
        }
    }

    /** As JOSDK would choose it (HOSTNAME, the pod name in a cluster), but fixed here so the release can name it. */
    private static String identity() {
        String host = System.getenv("HOSTNAME");
        return host == null || host.isBlank() ? UUID.randomUUID().toString() : host;
    }
}

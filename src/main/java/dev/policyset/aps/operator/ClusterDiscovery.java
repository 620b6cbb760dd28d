package dev.policyset.aps.operator;

import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.model.MutatingPolicyVersions;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.VersionInfo;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the cluster serves: its version and the MutatingAdmissionPolicy versions. Read at start-up, then again
 * when a reconcile finds the answer older than {@code aps.discovery.refresh} (default 5 minutes; a few requests
 * for the whole operator, not per set), or at once after {@link #invalidate()} (an apply answered 404). So a
 * cluster upgrade that starts serving MutatingAdmissionPolicy, or a newer version of it, needs no restart;
 * which version to use is core's {@link MutatingPolicyVersions}.
 */
@ApplicationScoped
public class ClusterDiscovery {
    private static final Logger LOG = Logger.getLogger(ClusterDiscovery.class);
    private static final Pattern NUMBER = Pattern.compile("(\\d+)");

    private final KubernetesClient client;
    private final Duration refresh;
    private volatile Snapshot snapshot;
    private volatile long readAt;

    /** @param mutatingPolicyVersion newest served MAP version; empty when none is served */
    public record Snapshot(Optional<String> mutatingPolicyVersion, KubeVersion kubeVersion, boolean reachable) {}

    public ClusterDiscovery(KubernetesClient client,
                            @ConfigProperty(name = "aps.discovery.refresh", defaultValue = "PT5M") Duration refresh) {
        this.client = client;
        this.refresh = refresh;
    }

    /** The current answer, read again when it is older than the refresh interval. */
    public Snapshot snapshot() {
        Snapshot s = snapshot;
        if (s == null || (s.reachable() && System.nanoTime() - readAt > refresh.toNanos())) {
            synchronized (this) {
                if (snapshot == null || snapshot == s) {
                    Snapshot next = discover();
                    if (s != null && !next.equals(s)) {
                        LOG.infof("Cluster discovery changed: %s -> %s", describe(s), describe(next));
                    }
                    snapshot = next.reachable() || s == null ? next : s;
                    readAt = System.nanoTime();
                }
                s = snapshot;
            }
        }
        return s;
    }

    /** Forget the answer: the next {@link #snapshot()} asks the cluster (an apply found a version gone). */
    public void invalidate() {
        readAt = System.nanoTime() - refresh.toNanos() - 1;
    }

    /** The start-up check found no cluster: answer without asking it (the operator is about to exit). */
    public synchronized void unreachable() {
        snapshot = new Snapshot(Optional.empty(), KubeVersion.NEWEST, false);
    }

    public ManagedKinds managedKinds() {
        return new ManagedKinds(snapshot().mutatingPolicyVersion());
    }

    private Snapshot discover() {
        try {
            KubeVersion version = serverVersion();
            Set<String> served = new HashSet<>();
            for (String v : MutatingPolicyVersions.NEWEST_FIRST) {
                APIResourceList list = client.getApiResources(AdmissionKind.GROUP + "/" + v);
                if (list != null && list.getResources() != null && list.getResources().stream()
                        .anyMatch(r -> AdmissionKind.MUTATING_ADMISSION_POLICY.plural().equals(r.getName()))) {
                    served.add(v);
                }
            }
            Snapshot s = new Snapshot(MutatingPolicyVersions.newestOf(served), version, true);
            if (snapshot == null) {
                LOG.infof("Cluster %s", describe(s));
            }
            return s;
        } catch (RuntimeException e) {
            // At start-up the start-up check reports an unreachable cluster in one line; later the old answer stays.
            LOG.debugf(e, "Discovery failed");
            return new Snapshot(Optional.empty(), KubeVersion.NEWEST, false);
        }
    }

    private static String describe(Snapshot s) {
        return s.kubeVersion() + ": MutatingAdmissionPolicy " + s.mutatingPolicyVersion()
                .map(v -> "served at " + AdmissionKind.GROUP + "/" + v).orElse("not served");
    }

    private KubeVersion serverVersion() {
        try {
            VersionInfo info = client.getKubernetesVersion();
            if (info != null && info.getMajor() != null && info.getMinor() != null) {
                Matcher major = NUMBER.matcher(info.getMajor());
                Matcher minor = NUMBER.matcher(info.getMinor());
                if (major.find() && minor.find()) {
                    KubeVersion v = new KubeVersion(Integer.parseInt(major.group(1)), Integer.parseInt(minor.group(1)));
                    return v.compareTo(KubeVersion.NEWEST) > 0 ? KubeVersion.NEWEST : v;
                }
            }
        } catch (RuntimeException e) {
            LOG.debugf(e, "Could not read the server version");
        }
        return KubeVersion.NEWEST;
    }
}

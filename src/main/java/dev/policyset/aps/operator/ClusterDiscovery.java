package dev.policyset.aps.operator;

import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.model.AdmissionKind;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.VersionInfo;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the cluster serves, read once at start-up (informers are created for exactly these versions; a
 * cluster upgrade that adds a MutatingAdmissionPolicy version is picked up on the operator's next start).
 */
@ApplicationScoped
public class ClusterDiscovery {
    private static final Logger LOG = Logger.getLogger(ClusterDiscovery.class);
    private static final Pattern MINOR = Pattern.compile("(\\d+)");

    private final KubernetesClient client;
    private volatile Snapshot snapshot;

    /** @param mutatingPolicyVersion newest served MAP version; empty when none is served */
    public record Snapshot(Optional<String> mutatingPolicyVersion, KubeVersion kubeVersion, boolean reachable) {}

    public ClusterDiscovery(KubernetesClient client) {
        this.client = client;
    }

    public Snapshot snapshot() {
        Snapshot s = snapshot;
        if (s == null) {
            synchronized (this) {
                if (snapshot == null) {
                    snapshot = discover();
                }
                s = snapshot;
            }
        }
        return s;
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
            Optional<String> map = Optional.empty();
            for (String v : List.of("v1", "v1beta1", "v1alpha1")) {
                APIResourceList list = client.getApiResources(AdmissionKind.GROUP + "/" + v);
                if (list != null && list.getResources() != null && list.getResources().stream()
                        .anyMatch(r -> AdmissionKind.MUTATING_ADMISSION_POLICY.plural().equals(r.getName()))) {
                    map = Optional.of(v);
                    break;
                }
            }
            LOG.infof("Cluster %s: MutatingAdmissionPolicy %s", version,
                    map.map(v -> "served at " + AdmissionKind.GROUP + "/" + v).orElse("not served"));
            return new Snapshot(map, version, true);
        } catch (RuntimeException e) {
            // The start-up check reports an unreachable cluster in one line and exits; nothing to add here.
            LOG.debugf(e, "Discovery failed");
            return new Snapshot(Optional.empty(), KubeVersion.NEWEST, false);
        }
    }

    private KubeVersion serverVersion() {
        try {
            VersionInfo info = client.getKubernetesVersion();
            if (info != null && info.getMajor() != null && info.getMinor() != null) {
                Matcher major = MINOR.matcher(info.getMajor());
                Matcher minor = MINOR.matcher(info.getMinor());
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

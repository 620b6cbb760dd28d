package dev.policyset.aps.core.validate;

import dev.policyset.aps.core.model.ClusterView;
import dev.policyset.aps.core.model.KubeVersion;

import java.util.Set;

/**
 * What the validator knows beyond its input.
 *
 * @param kubeVersion     the target server version (rules and CEL environment follow it)
 * @param clusterPolicies {@code Kind/name} of policies known to exist outside the input, so a binding to one
 *                        of them is not APS401 (besides those the cluster view holds)
 * @param cluster         what the cluster holds, for the rules that need it (APS401, APS403, APS601);
 *                        {@link ClusterView#offline} for the CLI
 */
public record ValidationOptions(KubeVersion kubeVersion, Set<String> clusterPolicies, ClusterView cluster) {
    public ValidationOptions {
        clusterPolicies = Set.copyOf(clusterPolicies);
        cluster = cluster == null ? ClusterView.offline(kubeVersion) : cluster;
    }

    public ValidationOptions(KubeVersion kubeVersion, Set<String> clusterPolicies) {
        this(kubeVersion, clusterPolicies, ClusterView.offline(kubeVersion));
    }

    public static ValidationOptions offline(KubeVersion version) {
        return new ValidationOptions(version, Set.of());
    }

    /** Validation against a cluster: its version, and its objects for the rules that look. */
    public static ValidationOptions against(ClusterView cluster) {
        return new ValidationOptions(cluster.kubeVersion(), Set.of(), cluster);
    }
}

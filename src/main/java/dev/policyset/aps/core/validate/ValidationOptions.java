package dev.policyset.aps.core.validate;

import dev.policyset.aps.core.model.KubeVersion;

import java.util.Set;

/**
 * What the validator knows beyond its input.
 *
 * @param kubeVersion     the target server version (rules and CEL environment follow it)
 * @param clusterPolicies {@code Kind/name} of policies that exist in the cluster (the operator fills this;
 *                        the CLI leaves it empty), so a binding to one of them is not APS401
 */
public record ValidationOptions(KubeVersion kubeVersion, Set<String> clusterPolicies) {
    public ValidationOptions {
        clusterPolicies = Set.copyOf(clusterPolicies);
    }

    public static ValidationOptions offline(KubeVersion version) {
        return new ValidationOptions(version, Set.of());
    }
}

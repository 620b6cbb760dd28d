package dev.policyset.aps.core.validate;

import dev.policyset.aps.core.model.ClusterView;
import dev.policyset.aps.core.model.Exemption;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.schema.BuiltinSchemas;
import dev.policyset.aps.core.schema.SchemaSource;

import java.time.LocalDate;
import java.util.List;
import java.util.Set;

/**
 * What the validator knows beyond its input.
 *
 * @param kubeVersion     the target server version (rules and CEL environment follow it)
 * @param clusterPolicies {@code Kind/name} of policies known to exist outside the input, so a binding to one
 *                        of them is not APS401 (besides those the cluster view holds)
 * @param cluster         what the cluster holds, for the rules that need it (APS401, APS403, APS601);
 *                        {@link ClusterView#offline} for the CLI
 * @param schemas         the schemas of the resources policies match, for type checking (APS602, APS603): the
 *                        built-in kinds by default; the CLI adds CRDs, the operator the cluster's {@code /openapi/v3}
 * @param waivers         a repository's waivers for the bare objects of the input ({@code .aps.yaml}; CLI only)
 * @param today           the date waiver expiries are judged on (time passed in: core reads no clock); null: none
 *                        expires
 */
public record ValidationOptions(KubeVersion kubeVersion, Set<String> clusterPolicies, ClusterView cluster,
                                SchemaSource schemas, List<Exemption> waivers, LocalDate today) {
    public ValidationOptions {
        clusterPolicies = Set.copyOf(clusterPolicies);
        cluster = cluster == null ? ClusterView.offline(kubeVersion) : cluster;
        schemas = schemas == null ? BuiltinSchemas.instance() : schemas;
        waivers = waivers == null ? List.of() : List.copyOf(waivers);
    }

    public ValidationOptions(KubeVersion kubeVersion, Set<String> clusterPolicies, ClusterView cluster,
                             SchemaSource schemas) {
        this(kubeVersion, clusterPolicies, cluster, schemas, List.of(), null);
    }

    /** The same options with a repository's waivers, judged on {@code today}. */
    public ValidationOptions withWaivers(List<Exemption> repositoryWaivers, LocalDate today) {
        return new ValidationOptions(kubeVersion, clusterPolicies, cluster, schemas, repositoryWaivers, today);
    }

    public ValidationOptions(KubeVersion kubeVersion, Set<String> clusterPolicies, ClusterView cluster) {
        this(kubeVersion, clusterPolicies, cluster, null);
    }

    /** The same options with other schemas (e.g. the input's CRDs before the built-in kinds). */
    public ValidationOptions withSchemas(SchemaSource schemas) {
        return new ValidationOptions(kubeVersion, clusterPolicies, cluster, schemas, waivers, today);
    }

    public ValidationOptions(KubeVersion kubeVersion, Set<String> clusterPolicies) {
        this(kubeVersion, clusterPolicies, ClusterView.offline(kubeVersion));
    }

    public static ValidationOptions offline(KubeVersion version) {
        return new ValidationOptions(version, Set.of());
    }

    /** Validation against a cluster: its version, and its objects for the rules that look. */
    public static ValidationOptions against(ClusterView cluster) {
        return new ValidationOptions(cluster.kubeVersion(), Set.of(), cluster, cluster.schemas());
    }
}

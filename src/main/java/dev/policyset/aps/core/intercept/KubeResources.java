package dev.policyset.aps.core.intercept;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the interception model needs to know about the built-in API: which groups are served by the API server
 * itself, which core-group resources exist, which resources are cluster-scoped, and which resources of other
 * groups the API server treats as the same resource (matchPolicy Equivalent). Kept deliberately small and
 * explicit; a resource missing here is treated as "could be either" (the rules then err on the side of reporting).
 */
public final class KubeResources {
    /** Groups served by kube-apiserver itself (not CRDs or aggregated APIs). */
    static final Set<String> BUILTIN_GROUPS = Set.of("", "apps", "batch", "autoscaling", "policy",
            "networking.k8s.io", "rbac.authorization.k8s.io", "coordination.k8s.io", "discovery.k8s.io",
            "storage.k8s.io", "scheduling.k8s.io", "node.k8s.io", "certificates.k8s.io",
            "admissionregistration.k8s.io", "apiextensions.k8s.io", "apiregistration.k8s.io", "events.k8s.io",
            "flowcontrol.apiserver.k8s.io", "authentication.k8s.io", "authorization.k8s.io", "resource.k8s.io",
            "internal.apiserver.k8s.io", "storagemigration.k8s.io");

    /** Every resource of the core group {@code ""} (apiVersion v1). */
    public static final Set<String> CORE_RESOURCES = Set.of("pods", "services", "configmaps", "secrets", "namespaces",
            "nodes", "persistentvolumes", "persistentvolumeclaims", "serviceaccounts", "endpoints", "events",
            "limitranges", "resourcequotas", "replicationcontrollers", "podtemplates", "componentstatuses",
            "bindings");

    /** Built-in cluster-scoped resources (a namespaceSelector does not apply to them, except to namespaces). */
    static final Set<String> CLUSTER_SCOPED = Set.of("nodes", "namespaces", "persistentvolumes",
            "componentstatuses", "clusterroles", "clusterrolebindings", "customresourcedefinitions",
            "storageclasses", "csidrivers", "csinodes", "volumeattachments", "volumeattributesclasses",
            "priorityclasses", "runtimeclasses", "certificatesigningrequests", "clustertrustbundles",
            "tokenreviews", "subjectaccessreviews", "selfsubjectaccessreviews", "selfsubjectrulesreviews",
            "selfsubjectreviews", "validatingwebhookconfigurations", "mutatingwebhookconfigurations",
            "validatingadmissionpolicies", "validatingadmissionpolicybindings", "mutatingadmissionpolicies",
            "mutatingadmissionpolicybindings", "apiservices", "flowschemas", "prioritylevelconfigurations",
            "ingressclasses", "ipaddresses", "servicecidrs", "deviceclasses", "resourceslices",
            "storageversionmigrations");

    /** Built-in namespaced resources (used to decide whether a rule can match requests inside a namespace). */
    static final Set<String> NAMESPACED = Set.of("pods", "services", "configmaps", "secrets",
            "persistentvolumeclaims", "serviceaccounts", "endpoints", "events", "limitranges", "resourcequotas",
            "replicationcontrollers", "podtemplates", "bindings", "deployments", "replicasets", "statefulsets",
            "daemonsets", "controllerrevisions", "jobs", "cronjobs", "horizontalpodautoscalers",
            "poddisruptionbudgets", "networkpolicies", "ingresses", "roles", "rolebindings", "leases",
            "endpointslices", "csistoragecapacities", "localsubjectaccessreviews", "resourceclaims",
            "resourceclaimtemplates");

    /** Built-in namespaced resources by API group (the safety rules enumerate them). */
    public static final Map<String, List<String>> NAMESPACED_BY_GROUP = orderedMap(
            "", List.of("pods", "services", "configmaps", "secrets", "persistentvolumeclaims", "serviceaccounts",
                    "endpoints", "events", "limitranges", "resourcequotas", "replicationcontrollers", "podtemplates"),
            "apps", List.of("deployments", "replicasets", "statefulsets", "daemonsets", "controllerrevisions"),
            "batch", List.of("jobs", "cronjobs"),
            "autoscaling", List.of("horizontalpodautoscalers"),
            "policy", List.of("poddisruptionbudgets"),
            "networking.k8s.io", List.of("networkpolicies", "ingresses"),
            "rbac.authorization.k8s.io", List.of("roles", "rolebindings"),
            "coordination.k8s.io", List.of("leases"),
            "discovery.k8s.io", List.of("endpointslices"),
            "events.k8s.io", List.of("events"),
            "storage.k8s.io", List.of("csistoragecapacities"),
            "resource.k8s.io", List.of("resourceclaims", "resourceclaimtemplates"));

    private static Map<String, List<String>> orderedMap(Object... pairs) {
        Map<String, List<String>> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            @SuppressWarnings("unchecked") List<String> v = (List<String>) pairs[i + 1];
            m.put((String) pairs[i], v);
        }
        return java.util.Collections.unmodifiableMap(m);
    }

    /**
     * The same resource served under another group, as the API server's EquivalentResourceMapper reports it for
     * the versions this project supports (1.32+): {@code events.k8s.io} events are stored with core events
     * ({@code pkg/registry/events/rest/storage_events.go} reuses the core event store). Every other version of
     * the same group and resource is equivalent too (handled by the matcher, not listed here). The
     * {@code extensions/v1beta1} and {@code apps/v1beta*} equivalents of deployments, daemonsets, replicasets,
     * ingresses and networkpolicies were removed by 1.22 and are not modelled: no supported cluster serves them.
     */
    static final Map<String, List<String>> EQUIVALENT_GROUPS = Map.of(
            "/events", List.of("events.k8s.io/events"),
            "events.k8s.io/events", List.of("/events"));

    private KubeResources() {}

    /** Other {@code group/resource} pairs the API server treats as the same resource (empty for most). */
    static List<String> equivalentsOf(String group, String resource) {
        return EQUIVALENT_GROUPS.getOrDefault(group + "/" + resource, List.of());
    }

    public static boolean isBuiltinGroup(String group) {
        return BUILTIN_GROUPS.contains(group);
    }

    /** True unless the resource is known to be cluster-scoped. */
    public static boolean mayBeNamespaced(String resource) {
        return !CLUSTER_SCOPED.contains(resource);
    }

    /** True unless the resource is known to be namespaced. */
    public static boolean mayBeClusterScoped(String resource) {
        return !NAMESPACED.contains(resource);
    }
}

package dev.policyset.aps.core.validate.safety;

import java.util.Set;

/**
 * What the safety rules need to know about the built-in API: which groups are served by the API server
 * itself, which core-group resources exist, and which resources are cluster-scoped. Kept deliberately
 * small and explicit; a resource missing here is treated as "could be either" (the rules then err on the
 * side of reporting).
 */
final class KubeResources {
    /** Groups served by kube-apiserver itself (not CRDs or aggregated APIs). */
    static final Set<String> BUILTIN_GROUPS = Set.of("", "apps", "batch", "autoscaling", "policy",
            "networking.k8s.io", "rbac.authorization.k8s.io", "coordination.k8s.io", "discovery.k8s.io",
            "storage.k8s.io", "scheduling.k8s.io", "node.k8s.io", "certificates.k8s.io",
            "admissionregistration.k8s.io", "apiextensions.k8s.io", "apiregistration.k8s.io", "events.k8s.io",
            "flowcontrol.apiserver.k8s.io", "authentication.k8s.io", "authorization.k8s.io", "resource.k8s.io",
            "internal.apiserver.k8s.io", "storagemigration.k8s.io");

    /** Every resource of the core group {@code ""} (apiVersion v1). */
    static final Set<String> CORE_RESOURCES = Set.of("pods", "services", "configmaps", "secrets", "namespaces",
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

    private KubeResources() {}

    static boolean isBuiltinGroup(String group) {
        return BUILTIN_GROUPS.contains(group);
    }

    /** True unless the resource is known to be cluster-scoped. */
    static boolean mayBeNamespaced(String resource) {
        return !CLUSTER_SCOPED.contains(resource);
    }

    /** True unless the resource is known to be namespaced. */
    static boolean mayBeClusterScoped(String resource) {
        return !NAMESPACED.contains(resource);
    }
}

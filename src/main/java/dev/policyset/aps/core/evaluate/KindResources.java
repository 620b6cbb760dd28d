package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Kind to resource and scope, offline: what discovery tells the API server. Built-in kinds whose plural is not
 * the regular one are listed; any other kind gets the regular English plural of its lower-cased name (what
 * CRDs almost always declare). A test case can name its resource explicitly when that guess is wrong.
 */
public final class KindResources {
    private static final Map<String, String> IRREGULAR = Map.ofEntries(
            Map.entry("Endpoints", "endpoints"),
            Map.entry("PodSecurityPolicy", "podsecuritypolicies"),
            Map.entry("NetworkPolicy", "networkpolicies"),
            Map.entry("PriorityClass", "priorityclasses"),
            Map.entry("StorageClass", "storageclasses"),
            Map.entry("IngressClass", "ingressclasses"),
            Map.entry("RuntimeClass", "runtimeclasses"),
            Map.entry("DeviceClass", "deviceclasses"),
            Map.entry("ResourceQuota", "resourcequotas"),
            Map.entry("HTTPProxy", "httpproxies"));

    /** Built-in cluster-scoped kinds. */
    private static final Set<String> CLUSTER_SCOPED = Set.of("Namespace", "Node", "PersistentVolume",
            "ComponentStatus", "ClusterRole", "ClusterRoleBinding", "CustomResourceDefinition", "StorageClass",
            "CSIDriver", "CSINode", "VolumeAttachment", "VolumeAttributesClass", "PriorityClass", "RuntimeClass",
            "CertificateSigningRequest", "ClusterTrustBundle", "TokenReview", "SubjectAccessReview",
            "SelfSubjectAccessReview", "SelfSubjectRulesReview", "SelfSubjectReview",
            "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration", "ValidatingAdmissionPolicy",
            "ValidatingAdmissionPolicyBinding", "MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding",
            "APIService", "FlowSchema", "PriorityLevelConfiguration", "IngressClass", "IPAddress", "ServiceCIDR",
            "DeviceClass", "ResourceSlice", "StorageVersionMigration");

    private KindResources() {}

    /** The plural resource name of a kind. */
    public static String resourceOf(String kind) {
        String known = IRREGULAR.get(kind);
        if (known != null) {
            return known;
        }
        String lower = kind.toLowerCase(Locale.ROOT);
        if (lower.endsWith("s") || lower.endsWith("x") || lower.endsWith("ch") || lower.endsWith("sh")) {
            return lower + "es";
        }
        if (lower.endsWith("y") && lower.length() > 1 && "aeiou".indexOf(lower.charAt(lower.length() - 2)) < 0) {
            return lower.substring(0, lower.length() - 1) + "ies";
        }
        return lower + "s";
    }

    /** {@code apps/v1} to {@code apps}; {@code v1} to the core group {@code ""}. */
    public static String groupOf(String apiVersion) {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    public static String versionOf(String apiVersion) {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
    }

    public static boolean isClusterScopedKind(String kind) {
        return CLUSTER_SCOPED.contains(kind);
    }

    /**
     * Whether a param kind is cluster-scoped: built-in kinds from the table; for others, whether every param
     * object of that kind in the fixtures has no namespace (the fixtures are all we know of it).
     */
    static boolean isClusterScoped(String apiVersion, String kind, List<ObjectNode> params) {
        if (CLUSTER_SCOPED.contains(kind)) {
            return true;
        }
        if (!groupOf(apiVersion).isEmpty() && !groupOf(apiVersion).contains(".") || groupOf(apiVersion).endsWith(".k8s.io")
                || groupOf(apiVersion).isEmpty()) {
            return false; // a built-in group: namespaced unless listed above
        }
        List<ObjectNode> ofKind = params.stream().filter(p -> p.path("apiVersion").asText("").equals(apiVersion)
                && p.path("kind").asText("").equals(kind)).toList();
        return !ofKind.isEmpty() && ofKind.stream().allMatch(p -> p.path("metadata").path("namespace").asText("").isEmpty());
    }
}

package dev.policyset.aps.core.intercept;

import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Every resource kube-apiserver serves itself, with its group, scope and versions, for Kubernetes 1.30 to 1.37: the
 * union of {@code api/discovery/aggregated_v2.json} of k8s.io/kubernetes 1.34 to 1.37 (every API enabled), the core
 * group of {@code api/discovery/api__v1.json}, and the {@code resource.k8s.io} alphas that 1.30 to 1.33 served and
 * 1.34 removed. Versions are newest stable first (the first is what a suggestion uses).
 *
 * <p>{@link #check} says whether a resource a user typed is one of these, a typo of one (a singular, a wrong or
 * missing group: refused with the nearest), or may be a custom resource (its group has a dot and is not built
 * in: its scope is not known here). A CustomResourceDefinition's group must contain a dot
 * ({@code apiextensions/validation.go}) and cannot be one of the built-in groups, so a dotless or built-in group
 * with a resource not in this table is certainly a mistake.
 */
public final class BuiltinResources {
    /** One built-in resource. */
    public record Resource(String group, String resource, boolean namespaced, List<String> versions) {
        /** {@code [group/]version/resource}, in the given version when it serves it, else in its preferred one. */
        public String spelled(String version) {
            String v = versions.contains(version) ? version : versions.get(0);
            return (group.isEmpty() ? "" : group + "/") + v + "/" + resource;
        }
    }

    /** What {@link #check} found. */
    public enum Status { BUILTIN, MISSPELT, NOT_BUILTIN }

    /**
     * @param resource   for {@code BUILTIN}, the resource; for {@code MISSPELT} and {@code NOT_BUILTIN}, the nearest
     *                   built-in one, if any
     * @param problem    for {@code MISSPELT}: what is wrong (without the suggestion)
     */
    public record Check(Status status, Optional<Resource> resource, String problem) {}

    private static final boolean NAMESPACED = true;
    private static final boolean CLUSTER = false;

    static final List<Resource> TABLE = List.of(
            r("", "bindings", NAMESPACED, "v1"),
            r("", "componentstatuses", CLUSTER, "v1"),
            r("", "configmaps", NAMESPACED, "v1"),
            r("", "endpoints", NAMESPACED, "v1"),
            r("", "events", NAMESPACED, "v1"),
            r("", "limitranges", NAMESPACED, "v1"),
            r("", "namespaces", CLUSTER, "v1"),
            r("", "nodes", CLUSTER, "v1"),
            r("", "persistentvolumeclaims", NAMESPACED, "v1"),
            r("", "persistentvolumes", CLUSTER, "v1"),
            r("", "pods", NAMESPACED, "v1"),
            r("", "podtemplates", NAMESPACED, "v1"),
            r("", "replicationcontrollers", NAMESPACED, "v1"),
            r("", "resourcequotas", NAMESPACED, "v1"),
            r("", "secrets", NAMESPACED, "v1"),
            r("", "serviceaccounts", NAMESPACED, "v1"),
            r("", "services", NAMESPACED, "v1"),
            r("admissionregistration.k8s.io", "mutatingadmissionpolicies", CLUSTER, "v1", "v1beta1", "v1alpha1"),
            r("admissionregistration.k8s.io", "mutatingadmissionpolicybindings", CLUSTER, "v1", "v1beta1", "v1alpha1"),
            r("admissionregistration.k8s.io", "mutatingwebhookconfigurations", CLUSTER, "v1"),
            r("admissionregistration.k8s.io", "validatingadmissionpolicies", CLUSTER, "v1"),
            r("admissionregistration.k8s.io", "validatingadmissionpolicybindings", CLUSTER, "v1"),
            r("admissionregistration.k8s.io", "validatingwebhookconfigurations", CLUSTER, "v1"),
            r("apiextensions.k8s.io", "customresourcedefinitions", CLUSTER, "v1"),
            r("apiregistration.k8s.io", "apiservices", CLUSTER, "v1"),
            r("apps", "controllerrevisions", NAMESPACED, "v1"),
            r("apps", "daemonsets", NAMESPACED, "v1"),
            r("apps", "deployments", NAMESPACED, "v1"),
            r("apps", "replicasets", NAMESPACED, "v1"),
            r("apps", "statefulsets", NAMESPACED, "v1"),
            r("authentication.k8s.io", "selfsubjectreviews", CLUSTER, "v1"),
            r("authentication.k8s.io", "tokenreviews", CLUSTER, "v1"),
            r("authorization.k8s.io", "localsubjectaccessreviews", NAMESPACED, "v1"),
            r("authorization.k8s.io", "selfsubjectaccessreviews", CLUSTER, "v1"),
            r("authorization.k8s.io", "selfsubjectrulesreviews", CLUSTER, "v1"),
            r("authorization.k8s.io", "subjectaccessreviews", CLUSTER, "v1"),
            r("autoscaling", "horizontalpodautoscalers", NAMESPACED, "v2", "v1"),
            r("batch", "cronjobs", NAMESPACED, "v1"),
            r("batch", "jobs", NAMESPACED, "v1"),
            r("certificates.k8s.io", "certificatesigningrequests", CLUSTER, "v1"),
            r("certificates.k8s.io", "clustertrustbundles", CLUSTER, "v1", "v1beta1", "v1alpha1"),
            r("certificates.k8s.io", "podcertificaterequests", NAMESPACED, "v1", "v1beta1", "v1alpha1"),
            r("coordination.k8s.io", "leasecandidates", NAMESPACED, "v1beta1", "v1alpha2"),
            r("coordination.k8s.io", "leases", NAMESPACED, "v1"),
            r("discovery.k8s.io", "endpointslices", NAMESPACED, "v1"),
            r("events.k8s.io", "events", NAMESPACED, "v1"),
            r("flowcontrol.apiserver.k8s.io", "flowschemas", CLUSTER, "v1"),
            r("flowcontrol.apiserver.k8s.io", "prioritylevelconfigurations", CLUSTER, "v1"),
            r("internal.apiserver.k8s.io", "storageversions", CLUSTER, "v1alpha1"),
            r("lifecycle.k8s.io", "evictionrequests", NAMESPACED, "v1alpha1"),
            r("lifecycle.k8s.io", "evictions", NAMESPACED, "v1alpha1"),
            r("networking.k8s.io", "ingressclasses", CLUSTER, "v1"),
            r("networking.k8s.io", "ingresses", NAMESPACED, "v1"),
            r("networking.k8s.io", "ipaddresses", CLUSTER, "v1", "v1beta1"),
            r("networking.k8s.io", "networkpolicies", NAMESPACED, "v1"),
            r("networking.k8s.io", "servicecidrs", CLUSTER, "v1", "v1beta1"),
            r("node.k8s.io", "runtimeclasses", CLUSTER, "v1"),
            r("policy", "poddisruptionbudgets", NAMESPACED, "v1"),
            r("rbac.authorization.k8s.io", "clusterrolebindings", CLUSTER, "v1"),
            r("rbac.authorization.k8s.io", "clusterroles", CLUSTER, "v1"),
            r("rbac.authorization.k8s.io", "rolebindings", NAMESPACED, "v1"),
            r("rbac.authorization.k8s.io", "roles", NAMESPACED, "v1"),
            r("resource.k8s.io", "deviceclasses", CLUSTER, "v1", "v1beta2", "v1beta1"),
            r("resource.k8s.io", "devicetaintrules", CLUSTER, "v1", "v1beta2", "v1alpha3"),
            r("resource.k8s.io", "podschedulingcontexts", NAMESPACED, "v1alpha3", "v1alpha2"),
            r("resource.k8s.io", "resourceclaimparameters", NAMESPACED, "v1alpha2"),
            r("resource.k8s.io", "resourceclaims", NAMESPACED, "v1", "v1beta2", "v1beta1"),
            r("resource.k8s.io", "resourceclaimtemplates", NAMESPACED, "v1", "v1beta2", "v1beta1"),
            r("resource.k8s.io", "resourceclasses", CLUSTER, "v1alpha2"),
            r("resource.k8s.io", "resourceclassparameters", NAMESPACED, "v1alpha2"),
            r("resource.k8s.io", "resourcepoolstatusrequests", CLUSTER, "v1alpha3"),
            r("resource.k8s.io", "resourceslices", CLUSTER, "v1", "v1beta2", "v1beta1"),
            r("scheduling.k8s.io", "compositepodgroups", NAMESPACED, "v1alpha3"),
            r("scheduling.k8s.io", "podgroups", NAMESPACED, "v1beta1", "v1alpha3", "v1alpha2"),
            r("scheduling.k8s.io", "priorityclasses", CLUSTER, "v1"),
            r("scheduling.k8s.io", "workloads", NAMESPACED, "v1beta1", "v1alpha3", "v1alpha2", "v1alpha1"),
            r("storage.k8s.io", "csidrivers", CLUSTER, "v1"),
            r("storage.k8s.io", "csinodes", CLUSTER, "v1"),
            r("storage.k8s.io", "csistoragecapacities", NAMESPACED, "v1"),
            r("storage.k8s.io", "storageclasses", CLUSTER, "v1"),
            r("storage.k8s.io", "volumeattachments", CLUSTER, "v1"),
            r("storage.k8s.io", "volumeattributesclasses", CLUSTER, "v1", "v1beta1", "v1alpha1"),
            r("storagemigration.k8s.io", "storageversionmigrations", CLUSTER, "v1", "v1beta1", "v1alpha1")
);

    /** Kubernetes API version names: v1, v2beta1, v1alpha3. */
    private static final Pattern KUBE_VERSION = Pattern.compile("v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?");

    private static final Set<String> GROUPS = groups();

    private BuiltinResources() {}

    /** The built-in resource {@code group/resource}, if it is one. */
    public static Optional<Resource> find(String group, String resource) {
        return TABLE.stream().filter(r -> r.group().equals(group) && r.resource().equals(resource)).findFirst();
    }

    public static boolean isBuiltinGroup(String group) {
        return GROUPS.contains(group);
    }

    /** Whether {@code group/version/resource} (as typed) is a built-in resource, a typo of one, or may be custom. */
    public static Check check(String group, String version, String resource) {
        Optional<Resource> exact = find(group, resource);
        Optional<Resource> nearest = exact.isPresent() ? exact : nearest(group, version, resource);
        boolean builtinGroup = isBuiltinGroup(group);
        if (!builtinGroup && GROUPS.contains(version) && KUBE_VERSION.matcher(group).matches()) {
            return misspelt(nearest, "the group comes first: GROUP/VERSION/RESOURCE");
        }
        if ((builtinGroup || !group.contains(".")) && !KUBE_VERSION.matcher(version).matches()) {
            Optional<Resource> inGroup = GROUPS.contains(version) ? nearest(version, "", resource) : nearest;
            return misspelt(inGroup, version + " is not an API version (v1, v1beta1, ...)"
                    + (GROUPS.contains(version) ? "; " + version + " is a group, and the version follows it" : ""));
        }
        if (exact.isPresent()) {
            return new Check(Status.BUILTIN, exact, "");
        }
        if (builtinGroup) {
            return misspelt(nearest, (group.isEmpty() ? "the core group" : "group " + group) + " has no resource "
                    + resource + (nearest.isPresent() && nearest.get().resource().equals(resource)
                    ? " (" + resource + " are in group " + nearest.get().group() + ")" : ""));
        }
        if (!group.contains(".")) {
            return misspelt(nearest, group + " is not a built-in API group, and a custom resource's group has a dot "
                    + "(example.com)");
        }
        // A custom resource may share a built-in plural (Knative's services): suggest only for a look-alike group.
        return new Check(Status.NOT_BUILTIN, nearest.filter(r -> levenshtein(group, r.group()) <= 2), "");
    }

    /** The resources of a built-in group, in table order. */
    public static List<String> resourcesOf(String group) {
        return TABLE.stream().filter(r -> r.group().equals(group)).map(Resource::resource).toList();
    }

    private static Check misspelt(Optional<Resource> nearest, String problem) {
        return new Check(Status.MISSPELT, nearest, problem);
    }

    /**
     * The built-in resource closest to what was typed: the same resource in another group, a singular, or a name
     * within two edits; in the typed group first. Empty when nothing is that close.
     */
    private static Optional<Resource> nearest(String group, String version, String resource) {
        String typed = resource.toLowerCase(Locale.ROOT);
        return TABLE.stream()
                .filter(r -> distance(typed, r.resource()) <= 2)
                .min(Comparator.comparingInt((Resource r) -> 2 * distance(typed, r.resource())
                        + (r.group().equals(group) ? 0 : 1) + (r.versions().contains(version) ? 0 : 1)));
    }

    /**
     * 0 the same, 1 a singular of it, else the edit distance; 3 for anything further, and for two edits in a name
     * under six letters (foos is not a typo of pods).
     */
    private static int distance(String typed, String known) {
        if (typed.equals(known)) {
            return 0;
        }
        if (known.equals(typed + "s") || known.equals(typed + "es")
                || typed.endsWith("y") && known.equals(typed.substring(0, typed.length() - 1) + "ies")) {
            return 1;
        }
        int edits = levenshtein(typed, known);
        return edits > 2 || edits == 2 && Math.min(typed.length(), known.length()) < 6 ? 3 : edits;
    }

    private static int levenshtein(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                cur[j] = Math.min(Math.min(cur[j - 1], prev[j]) + 1, prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    private static Resource r(String group, String resource, boolean namespaced, String... versions) {
        return new Resource(group, resource, namespaced, List.of(versions));
    }

    private static Set<String> groups() {
        Set<String> groups = new LinkedHashSet<>();
        TABLE.forEach(r -> groups.add(r.group()));
        return Set.copyOf(groups);
    }
}

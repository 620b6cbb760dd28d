package dev.policyset.aps.core.chain;

import dev.policyset.aps.core.intercept.AdmissionRequest;
import dev.policyset.aps.core.intercept.Operation;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * An in-tree admission plugin that kube-apiserver enables by default, in its compiled order.
 *
 * <p>The order and the default set are {@code AllOrderedPlugins} and {@code DefaultOffAdmissionPlugins}
 * ({@code defaultOnPlugins}) of {@code k8s.io/kubernetes pkg/kubeapiserver/options/plugins.go}; the API server runs
 * the mutating half of every enabled plugin in that order, then (after schema validation) the validating half in the
 * same order. Plugins that are off by default (AlwaysPullImages, PodNodeSelector, NodeRestriction, EventRateLimit,
 * ...) are not listed: a cluster that enables them runs them at their place in the same order. The resources and
 * operations are what each plugin's {@code Handles} and {@code Admit}/{@code Validate} look at
 * ({@code plugin/pkg/admission/...}); this table is kept small and explicit, and a plugin is shown only for the
 * requests it acts on.
 *
 * @param name       the plugin's name, as {@code --enable-admission-plugins} spells it
 * @param mutates    it implements {@code MutationInterface}
 * @param validates  it implements {@code ValidationInterface}
 * @param resources  {@code group/resource[/subresource]} it acts on ({@code core} for the core group); empty: every
 *                   resource and subresource
 * @param namespaced it acts on namespaced requests only (and on Namespace objects)
 * @param operations the operations it acts on
 * @param does       what it does, for the listing
 */
public record BuiltinPlugin(String name, boolean mutates, boolean validates, Set<String> resources, boolean namespaced,
                            Set<Operation> operations, String does) {
    private static final Set<Operation> ALL = EnumSet.allOf(Operation.class);
    private static final Set<Operation> CREATE = EnumSet.of(Operation.CREATE);
    private static final Set<Operation> WRITES = EnumSet.of(Operation.CREATE, Operation.UPDATE);

    /** The default-enabled plugins in {@code AllOrderedPlugins} order; the four policy/webhook plugins are steps of their own. */
    public static final List<BuiltinPlugin> DEFAULT_ENABLED = List.of(
            new BuiltinPlugin("NamespaceLifecycle", false, true, Set.of(), true, ALL,
                    "refuses new objects in a namespace that is terminating or missing, and deleting the system namespaces"),
            new BuiltinPlugin("LimitRanger", true, true, Set.of("core/pods", "core/persistentvolumeclaims"), true, WRITES,
                    "applies and enforces the namespace's LimitRange defaults and limits"),
            new BuiltinPlugin("ServiceAccount", true, true, Set.of("core/pods"), true, WRITES,
                    "sets the pod's service account and its token volume"),
            new BuiltinPlugin("TaintNodesByCondition", true, false, Set.of("core/nodes"), false, CREATE,
                    "taints a new node not-ready"),
            new BuiltinPlugin("PodSecurity", false, true, Set.of("core/pods", "core/namespaces", "apps/deployments",
                    "apps/replicasets", "apps/statefulsets", "apps/daemonsets", "batch/jobs", "batch/cronjobs",
                    "core/replicationcontrollers", "core/podtemplates"), false, WRITES,
                    "enforces the namespace's pod-security.kubernetes.io level on pods; warns (and audits) for workload templates"),
            new BuiltinPlugin("Priority", true, true, Set.of("core/pods", "scheduling.k8s.io/priorityclasses"), false, WRITES,
                    "resolves priorityClassName to a priority"),
            new BuiltinPlugin("DefaultTolerationSeconds", true, false, Set.of("core/pods"), true, CREATE,
                    "adds the default not-ready/unreachable tolerations"),
            new BuiltinPlugin("DefaultStorageClass", true, false, Set.of("core/persistentvolumeclaims"), true, CREATE,
                    "sets the default StorageClass"),
            new BuiltinPlugin("StorageObjectInUseProtection", true, false,
                    Set.of("core/persistentvolumes", "core/persistentvolumeclaims"), false, CREATE,
                    "adds the in-use protection finalizer"),
            new BuiltinPlugin("PersistentVolumeClaimResize", false, true, Set.of("core/persistentvolumeclaims"), true,
                    EnumSet.of(Operation.UPDATE), "refuses a resize the StorageClass does not allow"),
            new BuiltinPlugin("RuntimeClass", true, true, Set.of("core/pods"), true, CREATE,
                    "adds the RuntimeClass overhead and scheduling"),
            new BuiltinPlugin("CertificateApproval", false, true, Set.of("certificates.k8s.io/certificatesigningrequests/approval"),
                    false, EnumSet.of(Operation.UPDATE), "checks the user may approve for the signer"),
            new BuiltinPlugin("CertificateSigning", false, true, Set.of("certificates.k8s.io/certificatesigningrequests/status"),
                    false, EnumSet.of(Operation.UPDATE), "checks the user may sign for the signer"),
            new BuiltinPlugin("ClusterTrustBundleAttest", false, true, Set.of("certificates.k8s.io/clustertrustbundles"),
                    false, WRITES, "checks the user may attest for the signer"),
            new BuiltinPlugin("CertificateSubjectRestriction", false, true,
                    Set.of("certificates.k8s.io/certificatesigningrequests"), false, CREATE,
                    "refuses system:masters in kube-apiserver-client requests"),
            new BuiltinPlugin("DefaultIngressClass", true, false, Set.of("networking.k8s.io/ingresses"), true, CREATE,
                    "sets the default IngressClass"),
            new BuiltinPlugin("PodTopologyLabels", true, false, Set.of("core/pods/binding"), true, CREATE,
                    "copies the node's topology labels to the pod on binding (feature gate PodTopologyLabelsAdmission)"));

    /** Whether this plugin acts on the request (its resource, scope and operation). */
    public boolean actsOn(AdmissionRequest r) {
        if (r.operations().stream().noneMatch(operations::contains)) {
            return false;
        }
        if (namespaced && r.namespace().isEmpty() && !r.isNamespaceObject()) {
            return false;
        }
        String key = (r.group().isEmpty() ? "core" : r.group()) + "/" + r.resource()
                + (r.subresource().isEmpty() ? "" : "/" + r.subresource());
        return resources.isEmpty() || resources.contains(key);
    }
}

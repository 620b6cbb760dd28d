package dev.policyset.aps.core.chain;

import dev.policyset.aps.core.intercept.AdmissionRequest;
import dev.policyset.aps.core.intercept.Operation;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * An in-tree admission plugin that kube-apiserver enables by default, in its compiled order, with what each of its
 * two halves acts on.
 *
 * <p>The order and the default set are {@code AllOrderedPlugins} and {@code DefaultOffAdmissionPlugins}
 * ({@code defaultOnPlugins}) of {@code k8s.io/kubernetes pkg/kubeapiserver/options/plugins.go}; the API server runs
 * the mutating half ({@code Admit}) of every enabled plugin in that order, then (after schema validation) the
 * validating half ({@code Validate}) in the same order. Plugins that are off by default (AlwaysPullImages,
 * PodNodeSelector, NodeRestriction, EventRateLimit, ...) are not listed, nor are default-on plugins whose feature
 * gate is alpha and off by default, so that they do nothing (PodGroupProtection and PodGroupWorkloadExists:
 * GenericWorkload; NodeDeclaredFeatureValidator: NodeDeclaredFeatures; JobValidation: WorkloadWithJob); a cluster
 * that enables them runs them at their place in the same order.
 *
 * <p>Each {@link Target} is what one half's own filter lets through: the plugin's {@code admission.NewHandler(...)}
 * operations narrowed by the resource, subresource and operation checks at the top of its {@code Admit} or
 * {@code Validate} ({@code plugin/pkg/admission/...}; the file is named on each entry). A plugin is listed for a
 * request only when one of its halves would act on it, not merely be called.
 *
 * @param name       the plugin's name, as {@code --enable-admission-plugins} spells it
 * @param mutating   what its {@code Admit} acts on; empty: it has no mutating half (or it never acts)
 * @param validating what its {@code Validate} acts on; empty: no validating half
 * @param source     the upstream file whose filters the targets mirror
 * @param does       what it does, for the listing
 */
public record BuiltinPlugin(String name, List<Target> mutating, List<Target> validating, String source, String does) {
    private static final Set<Operation> CREATE = EnumSet.of(Operation.CREATE);
    private static final Set<Operation> UPDATE = EnumSet.of(Operation.UPDATE);
    private static final Set<Operation> DELETE = EnumSet.of(Operation.DELETE);
    private static final Set<Operation> WRITES = EnumSet.of(Operation.CREATE, Operation.UPDATE);

    public BuiltinPlugin {
        mutating = List.copyOf(mutating);
        validating = List.copyOf(validating);
    }

    /**
     * What one half of a plugin acts on.
     *
     * @param resource       {@code group/resource[/subresource]} ({@code core} for the core group), or {@value #ANY} for
     *                       every resource and subresource
     * @param operations     the operations it acts on
     * @param namespacedOnly only requests in a namespace (not cluster-scoped objects, not Namespace objects)
     * @param except         {@code group/resource} left out of {@value #ANY}
     */
    public record Target(String resource, Set<Operation> operations, boolean namespacedOnly, Set<String> except) {
        public static final String ANY = "*";

        public Target {
            operations = Set.copyOf(operations);
            except = Set.copyOf(except);
        }

        static Target of(String resource, Set<Operation> operations) {
            return new Target(resource, operations, false, Set.of());
        }

        public boolean matches(AdmissionRequest r) {
            if (r.operations().stream().noneMatch(operations::contains)) {
                return false;
            }
            if (namespacedOnly && (r.namespace().isEmpty() || r.isNamespaceObject())) {
                return false;
            }
            String group = r.group().isEmpty() ? "core" : r.group();
            if (resource.equals(ANY)) {
                return !except.contains(group + "/" + r.resource());
            }
            return resource.equals(group + "/" + r.resource() + (r.subresource().isEmpty() ? "" : "/" + r.subresource()));
        }
    }

    private static List<Target> on(Set<Operation> operations, String... resources) {
        return java.util.Arrays.stream(resources).map(res -> Target.of(res, operations)).toList();
    }

    private static List<Target> all(List<Target> a, List<Target> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }

    /** The workload resources whose pod template PodSecurity checks ({@code DefaultPodSpecExtractor}). */
    private static final String[] POD_TEMPLATES = {"core/replicationcontrollers", "core/podtemplates", "apps/replicasets",
            "apps/deployments", "apps/statefulsets", "apps/daemonsets", "batch/jobs", "batch/cronjobs"};

    /** The default-enabled plugins in {@code AllOrderedPlugins} order; the four policy/webhook plugins and ResourceQuota are steps of their own. */
    public static final List<BuiltinPlugin> DEFAULT_ENABLED = List.of(
            // Admit only (no Validate); Handles Create, Update, Delete. Cluster-scoped objects, DELETE of namespaced
            // objects and localsubjectaccessreviews pass untouched; a Namespace is checked only on DELETE.
            new BuiltinPlugin("NamespaceLifecycle",
                    List.of(new Target(Target.ANY, WRITES, true, Set.of("authorization.k8s.io/localsubjectaccessreviews")),
                            Target.of("core/namespaces", DELETE)),
                    List.of(), "k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go",
                    "refuses new objects in a namespace that is missing or terminating, writes to a missing one, and "
                            + "deleting the default, kube-system and kube-public namespaces"),
            // DefaultLimitRangerActions.SupportsAttributes: pods on CREATE and pods/resize on UPDATE (not pod
            // updates), PVCs on CREATE and UPDATE, no other subresource; MutateLimit changes pods only.
            new BuiltinPlugin("LimitRanger",
                    all(on(CREATE, "core/pods"), on(UPDATE, "core/pods/resize")),
                    all(all(on(CREATE, "core/pods"), on(UPDATE, "core/pods/resize")), on(WRITES, "core/persistentvolumeclaims")),
                    "plugin/pkg/admission/limitranger/admission.go",
                    "applies the namespace's LimitRange defaults to pods and enforces its limits on pods and claims"),
            // Admit mutates pods on CREATE only; Validate also checks pods/ephemeralcontainers on UPDATE.
            new BuiltinPlugin("ServiceAccount", on(CREATE, "core/pods"),
                    all(on(CREATE, "core/pods"), on(UPDATE, "core/pods/ephemeralcontainers")),
                    "plugin/pkg/admission/serviceaccount/admission.go",
                    "sets the pod's service account and token volume; checks the secrets that ephemeral containers use"),
            new BuiltinPlugin("TaintNodesByCondition", on(CREATE, "core/nodes"), List.of(),
                    "plugin/pkg/admission/nodetaint/admission.go", "taints a new node not-ready"),
            // Validate only. Pods: every subresource but exec, attach, binding, eviction, log, portforward, proxy and
            // status (pod-security-admission ignoredPodSubresources); namespaces and pod templates without subresource.
            new BuiltinPlugin("PodSecurity", List.of(),
                    all(on(WRITES, "core/pods", "core/pods/ephemeralcontainers", "core/pods/resize", "core/namespaces"),
                            on(WRITES, POD_TEMPLATES)),
                    "plugin/pkg/admission/security/podsecurity/admission.go",
                    "enforces the namespace's pod-security.kubernetes.io level on pods; warns (and audits) for workload templates"),
            // Admit resolves priority on pods (CREATE; keeps it on UPDATE); Validate checks priorityclasses.
            new BuiltinPlugin("Priority", on(WRITES, "core/pods"), on(WRITES, "scheduling.k8s.io/priorityclasses"),
                    "plugin/pkg/admission/priority/admission.go",
                    "resolves priorityClassName to a priority; allows one global default PriorityClass"),
            new BuiltinPlugin("DefaultTolerationSeconds", on(WRITES, "core/pods"), List.of(),
                    "plugin/pkg/admission/defaulttolerationseconds/admission.go",
                    "adds the default not-ready/unreachable tolerations"),
            new BuiltinPlugin("DefaultStorageClass", on(CREATE, "core/persistentvolumeclaims"), List.of(),
                    "plugin/pkg/admission/storage/storageclass/setdefault/admission.go", "sets the default StorageClass"),
            // Admit: PVs, PVCs and (feature gate VolumeAttributesClass, GA in 1.34) VolumeAttributesClasses.
            new BuiltinPlugin("StorageObjectInUseProtection", on(CREATE, "core/persistentvolumes",
                    "core/persistentvolumeclaims", "storage.k8s.io/volumeattributesclasses"), List.of(),
                    "plugin/pkg/admission/storage/storageobjectinuseprotection/admission.go",
                    "adds the in-use protection finalizer"),
            new BuiltinPlugin("PersistentVolumeClaimResize", List.of(), on(UPDATE, "core/persistentvolumeclaims"),
                    "plugin/pkg/admission/storage/persistentvolume/resize/admission.go",
                    "refuses a resize the StorageClass does not allow"),
            new BuiltinPlugin("RuntimeClass", on(CREATE, "core/pods"), on(CREATE, "core/pods"),
                    "plugin/pkg/admission/runtimeclass/admission.go", "adds the RuntimeClass overhead and scheduling"),
            new BuiltinPlugin("CertificateApproval", List.of(),
                    on(UPDATE, "certificates.k8s.io/certificatesigningrequests/approval"),
                    "plugin/pkg/admission/certificates/approval/admission.go", "checks the user may approve for the signer"),
            new BuiltinPlugin("CertificateSigning", List.of(),
                    on(UPDATE, "certificates.k8s.io/certificatesigningrequests/status"),
                    "plugin/pkg/admission/certificates/signing/admission.go", "checks the user may sign for the signer"),
            new BuiltinPlugin("ClusterTrustBundleAttest", List.of(), on(WRITES, "certificates.k8s.io/clustertrustbundles"),
                    "plugin/pkg/admission/certificates/ctbattest/admission.go", "checks the user may attest for the signer"),
            new BuiltinPlugin("CertificateSubjectRestriction", List.of(),
                    on(CREATE, "certificates.k8s.io/certificatesigningrequests"),
                    "plugin/pkg/admission/certificates/subjectrestriction/admission.go",
                    "refuses system:masters in kube-apiserver-client requests"),
            new BuiltinPlugin("DefaultIngressClass", on(CREATE, "networking.k8s.io/ingresses"), List.of(),
                    "plugin/pkg/admission/network/defaultingressclass/admission.go", "sets the default IngressClass"),
            // shouldAdmit: pods/binding, and pods themselves (a pod created with spec.nodeName set).
            new BuiltinPlugin("PodTopologyLabels", on(CREATE, "core/pods/binding", "core/pods"), List.of(),
                    "plugin/pkg/admission/podtopologylabels/admission.go",
                    "copies the node's topology labels to a pod bound to it (feature gate PodTopologyLabelsAdmission)"),
            new BuiltinPlugin("PodResizeValidator", List.of(), on(UPDATE, "core/pods/resize"),
                    "plugin/pkg/admission/podresize/admission.go",
                    "refuses a resize the pod's node cannot fit or run (newer API servers; feature gate InPlacePodVerticalScaling)"));

    public boolean mutates() {
        return !mutating.isEmpty();
    }

    public boolean validates() {
        return !validating.isEmpty();
    }

    /** Whether its mutating half acts on the request. */
    public boolean mutatesOn(AdmissionRequest r) {
        return mutating.stream().anyMatch(t -> t.matches(r));
    }

    /** Whether its validating half acts on the request. */
    public boolean validatesOn(AdmissionRequest r) {
        return validating.stream().anyMatch(t -> t.matches(r));
    }

    /** Whether either half acts on the request. */
    public boolean actsOn(AdmissionRequest r) {
        return mutatesOn(r) || validatesOn(r);
    }
}

package dev.policyset.aps.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySetStatus;
import dev.policyset.aps.api.v1alpha1.DeletionPolicy;
import dev.policyset.aps.api.v1alpha1.ResourceStatus;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.PolicySet;
import dev.policyset.aps.core.model.PolicySetReader;
import dev.policyset.aps.core.render.RenderOptions;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.render.Renderer;
import dev.policyset.aps.core.status.Outcome;
import dev.policyset.aps.core.status.StatusCalculator;
import dev.policyset.aps.core.validate.Finding;
import dev.policyset.aps.core.validate.ValidationOptions;
import dev.policyset.aps.core.validate.ValidationReport;
import dev.policyset.aps.core.validate.ValidationSubject;
import dev.policyset.aps.core.validate.Validator;
import dev.policyset.aps.core.validate.cel.CelChecker;
import dev.policyset.aps.core.validate.cel.KubernetesCelChecker;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.MaxReconciliationInterval;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.quarkiverse.operatorsdk.annotations.RBACRule;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Reconciles an AdmissionPolicySet all or nothing: read → render → validate → ownership check → server-side
 * dry run → server-side apply → prune → status. Any error finding, foreign object or dry-run rejection stops
 * the pass before the first write, so the objects of the last good generation stay exactly as they were.
 *
 * <p>Deletion uses a finalizer (JOSDK {@link Cleaner}) plus owner references. The finalizer is what makes
 * {@code deletionPolicy: Orphan} possible: ownership must be removed before the set is gone, or the garbage
 * collector deletes the objects. For {@code Delete} it removes bindings before their policies (a policy
 * without a binding is harmless; a binding without a policy is a finding); owner references stay as the
 * backstop if the finalizer is ever removed by hand.
 *
 * <p>Drift: one label-filtered informer per owned kind maps events back to the set by its label, so an
 * edited or deleted object triggers a reconcile that restores it. Live objects are compared with "desired is
 * contained in actual" ({@link Convergence}); a reconcile that finds everything in place writes nothing, and
 * status is written only when it differs from what is stored.
 *
 * <p>RBAC: server-side apply and its dry run are PATCH requests, and the API server also checks {@code create}
 * when an apply creates the object; {@code delete} is for prune and deletion. Leader election's Lease grant is a
 * namespaced Role in config/rbac, not part of this cluster-wide role.
 */
@ControllerConfiguration(name = AdmissionPolicySetReconciler.NAME,
        maxReconciliationInterval = @MaxReconciliationInterval(interval = 10, timeUnit = TimeUnit.MINUTES))
@RBACRule(apiGroups = AdmissionKind.GROUP,
        resources = {"validatingadmissionpolicies", "validatingadmissionpolicybindings",
                "mutatingadmissionpolicies", "mutatingadmissionpolicybindings",
                "validatingwebhookconfigurations", "mutatingwebhookconfigurations"},
        verbs = {"get", "list", "watch", "create", "patch", "delete"})
@RBACRule(apiGroups = "", resources = "events", verbs = {"create"})
public class AdmissionPolicySetReconciler implements Reconciler<AdmissionPolicySet>, Cleaner<AdmissionPolicySet> {
    public static final String NAME = "admissionpolicyset";
    /** Rule for the API server's type-checking warnings read back from a VAP's status. */
    public static final String TYPE_CHECK_RULE = "APS601";
    /** Rule for a generated object that exists and is not the set's (DESIGN §4). */
    public static final String OWNERSHIP_RULE = "APS403";

    private static final Logger LOG = Logger.getLogger(AdmissionPolicySetReconciler.class);
    private static final ObjectMapper JSON = Serialization.jsonMapper();

    private final KubernetesClient client;
    private final ClusterDiscovery discovery;
    private final ClusterObjects objects;
    private final EventRecorder events;
    private final OperatorMetrics metrics;
    private final CelChecker cel = new KubernetesCelChecker();
    private final Clock clock;
    private final int maxFindings;
    private final Duration conflictRecheck;
    private final Map<String, List<Finding>> lastFindings = new ConcurrentHashMap<>();
    /** Per set uid: what the last successful pass applied (in memory; rebuilt by the next good generation). */
    private final Map<String, LastGood> lastGood = new ConcurrentHashMap<>();

    private record Target(AdmissionKind kind, String version, String name, GenericKubernetesResource desired) {}

    private record LastGood(long generation, List<Target> objects) {}

    public AdmissionPolicySetReconciler(KubernetesClient client, ClusterDiscovery discovery, ClusterObjects objects,
                                        EventRecorder events, OperatorMetrics metrics,
                                        @ConfigProperty(name = "aps.status.max-findings", defaultValue = "50") int maxFindings,
                                        @ConfigProperty(name = "aps.conflict-recheck", defaultValue = "PT1M") Duration conflictRecheck) {
        this.client = client;
        this.discovery = discovery;
        this.objects = objects;
        this.events = events;
        this.metrics = metrics;
        this.clock = Clock.systemUTC();
        this.maxFindings = maxFindings;
        this.conflictRecheck = conflictRecheck;
    }

    @Override
    public List<EventSource<?, AdmissionPolicySet>> prepareEventSources(EventSourceContext<AdmissionPolicySet> context) {
        List<EventSource<?, AdmissionPolicySet>> sources = new ArrayList<>();
        ManagedKinds kinds = discovery.managedKinds();
        for (AdmissionKind kind : kinds.served()) {
            var config = InformerEventSourceConfiguration
                    .from(ManagedKinds.gvk(kind, kinds.versionOf(kind).orElseThrow()), AdmissionPolicySet.class)
                    .withName(ManagedKinds.eventSourceName(kind))
                    .withLabelSelector(AdmissionPolicySet.SET_LABEL)
                    .withSecondaryToPrimaryMapper((GenericKubernetesResource r) -> {
                        String set = ClusterObjects.label(r);
                        return set == null || set.isEmpty() ? Set.of() : Set.of(new ResourceID(set));
                    })
                    .build();
            sources.add(new InformerEventSource<>(config, context));
        }
        return sources;
    }

    // ---------------------------------------------------------------------------------------------- reconcile

    @Override
    public UpdateControl<AdmissionPolicySet> reconcile(AdmissionPolicySet set, Context<AdmissionPolicySet> context) {
        Pass pass = new Pass(set, context);
        Outcome outcome = pass.run();
        if (outcome == Outcome.VALIDATION_FAILED || outcome == Outcome.OWNERSHIP_CONFLICT
                || outcome == Outcome.DRY_RUN_REJECTED || outcome == Outcome.MUTATING_POLICY_NOT_SERVED) {
            pass.repairLastGood();
        }
        metrics.reconciled(outcome);
        lastFindings.put(set.getMetadata().getName(), pass.findings);
        metrics.observe(set.getMetadata().getName(), pass.findings, pass.rows.size());
        boolean written = writeStatus(set, outcome, pass.detail, pass.findings, pass.rows);
        if (written && outcome != Outcome.APPLIED && outcome != Outcome.PAUSED) {
            events.warning(set, reasonOf(outcome), pass.detail.isEmpty() ? outcome.name() : pass.detail);
        }
        UpdateControl<AdmissionPolicySet> control = UpdateControl.noUpdate();
        if (outcome == Outcome.OWNERSHIP_CONFLICT) {
            // A hand-made object carries no set label, so its removal raises no event for us: look again later.
            control.rescheduleAfter(conflictRecheck);
        }
        return control;
    }

    @Override
    public ErrorStatusUpdateControl<AdmissionPolicySet> updateErrorStatus(AdmissionPolicySet set,
                                                                          Context<AdmissionPolicySet> context, Exception e) {
        metrics.reconciled(Outcome.API_ERROR);
        String detail = "API request failed (" + describe(e) + "); retrying with backoff, no object was deleted";
        LOG.warnf("AdmissionPolicySet %s: %s", set.getMetadata().getName(), detail);
        List<ResourceStatus> rows = set.getStatus() == null ? List.of() : set.getStatus().getResources();
        try {
            writeStatus(set, Outcome.API_ERROR, detail,
                    lastFindings.getOrDefault(set.getMetadata().getName(), List.of()), rows);
        } catch (RuntimeException statusFailure) {
            LOG.debugf("Could not write error status: %s", statusFailure.getMessage());
        }
        return ErrorStatusUpdateControl.noStatusUpdate();
    }

    /** One reconcile of one set; fields collect what status reports. */
    private final class Pass {
        final AdmissionPolicySet set;
        final Context<AdmissionPolicySet> context;
        final String name;
        final long generation;
        final List<Finding> findings = new ArrayList<>();
        final List<ResourceStatus> rows = new ArrayList<>();
        String detail = "";

        Pass(AdmissionPolicySet set, Context<AdmissionPolicySet> context) {
            this.set = set;
            this.context = context;
            this.name = set.getMetadata().getName();
            this.generation = Optional.ofNullable(set.getMetadata().getGeneration()).orElse(0L);
        }

        Outcome run() {
            if (set.getSpec() != null && Boolean.TRUE.equals(set.getSpec().getPaused())) {
                if (set.getStatus() != null && set.getStatus().getResources() != null) {
                    rows.addAll(set.getStatus().getResources());
                }
                return Outcome.PAUSED;
            }
            JsonNode document = JSON.valueToTree(set);
            PolicySetReader.Result read = PolicySetReader.read(document);
            findings.addAll(read.findings());
            if (read.set().isEmpty()) {
                detail = "the set itself is invalid: " + firstError();
                return Outcome.VALIDATION_FAILED;
            }
            PolicySet policySet = read.set().get();
            ClusterDiscovery.Snapshot cluster = discovery.snapshot();
            ManagedKinds kinds = discovery.managedKinds();
            if (!policySet.mutatingPolicies().isEmpty() && kinds.mutatingPolicyVersion().isEmpty()) {
                findings.add(Finding.error("api/NotSupported", AdmissionPolicySet.KIND + "/" + name, "spec.mutatingPolicies",
                        "this cluster serves no MutatingAdmissionPolicy API version (admissionregistration.k8s.io v1, "
                                + "v1beta1 or v1alpha1); enable it or remove spec.mutatingPolicies"));
                return Outcome.MUTATING_POLICY_NOT_SERVED;
            }
            RenderOptions options = kinds.mutatingPolicyVersion().map(RenderOptions::new)
                    .orElseGet(() -> RenderOptions.forKubeVersion(cluster.kubeVersion()));
            List<RenderedObject> rendered = Renderer.render(policySet, options);
            Map<String, GenericKubernetesResource> live = new HashMap<>();
            for (RenderedObject o : rendered) {
                cached(o.kind(), o.name()).ifPresent(r -> live.put(o.id(), r));
            }

            ValidationOptions validation = new ValidationOptions(cluster.kubeVersion(), clusterPolicies(rendered, kinds));
            List<ValidationSubject> subjects = rendered.stream()
                    .map(o -> new ValidationSubject(o, policySet.name(), policySet.safety())).toList();
            ValidationReport report = new Validator(validation, cel).validate(subjects);
            findings.addAll(report.findings());
            findings.addAll(typeCheckWarnings(rendered, live));
            if (report.hasErrors()) {
                rendered.forEach(o -> rows.add(row(o, "Pending", "not applied: the set has error findings")));
                detail = report.findings().stream().filter(Finding::isError).count()
                        + " error finding(s) block the apply; first: " + firstError();
                return Outcome.VALIDATION_FAILED;
            }

            // Ownership: every object must be absent or carry this set's label. Cached first; a name the
            // informers do not know (a hand-made object carries no set label) is asked for once.
            Map<String, GenericKubernetesResource> desired = new java.util.LinkedHashMap<>();
            boolean conflict = false;
            for (RenderedObject o : rendered) {
                desired.put(o.id(), desiredObject(o));
                GenericKubernetesResource actual = live.get(o.id());
                if (actual == null) {
                    actual = lookupForeign(o, kinds);
                    if (actual != null) {
                        live.put(o.id(), actual);
                    }
                }
                if (actual != null && !name.equals(ClusterObjects.label(actual))) {
                    String owner = ClusterObjects.label(actual);
                    findings.add(Finding.error(OWNERSHIP_RULE, o.id(), "metadata.name",
                            o.id() + " already exists and " + (owner == null ? "was not created by an AdmissionPolicySet"
                                    : "belongs to AdmissionPolicySet " + owner)
                                    + "; the set never takes over an object it does not own: rename the member, or delete "
                                    + "or release the existing object"));
                    conflict = true;
                }
            }
            if (conflict) {
                for (RenderedObject o : rendered) {
                    boolean foreign = live.containsKey(o.id()) && !name.equals(ClusterObjects.label(live.get(o.id())));
                    rows.add(row(o, foreign ? "Conflict" : "Pending", foreign ? "exists and is not owned by this set" : "not applied"));
                }
                detail = "nothing applied: " + findings.stream().filter(f -> OWNERSHIP_RULE.equals(f.rule()))
                        .map(Finding::object).toList() + " exist(s) and belong(s) to someone else (APS403)";
                return Outcome.OWNERSHIP_CONFLICT;
            }

            List<RenderedObject> changed = new ArrayList<>();
            for (RenderedObject o : rendered) {
                GenericKubernetesResource actual = live.get(o.id());
                if (actual == null || !inSync(desired.get(o.id()), actual)) {
                    changed.add(o);
                }
            }

            // Dry run everything that would be written, before writing anything.
            Map<String, String> rejected = new HashMap<>();
            for (RenderedObject o : changed) {
                String version = kinds.versionOf(o.kind()).orElseThrow();
                try {
                    objects.dryRun(o.kind(), version, desired.get(o.id()));
                } catch (KubernetesClientException e) {
                    if (isTransient(e)) {
                        throw e;
                    }
                    List<Finding> rejection = rejectionFindings(o.id(), e);
                    findings.addAll(rejection);
                    rejected.put(o.id(), rejection.get(0).message());
                }
            }
            if (!rejected.isEmpty()) {
                for (RenderedObject o : rendered) {
                    rows.add(row(o, rejected.containsKey(o.id()) ? "Rejected" : "Pending",
                            rejected.getOrDefault(o.id(), "not applied: another object was rejected")));
                }
                detail = "nothing applied: the API server rejected the dry run of " + rejected.keySet() + ": "
                        + rejected.values().iterator().next();
                return Outcome.DRY_RUN_REJECTED;
            }

            boolean driftRepair = wasAppliedAtThisGeneration();
            Set<String> applied = new LinkedHashSet<>();
            for (RenderedObject o : changed) {
                String version = kinds.versionOf(o.kind()).orElseThrow();
                long start = System.nanoTime();
                GenericKubernetesResource result = objects.apply(o.kind(), version, desired.get(o.id()));
                metrics.applied(Duration.ofNanos(System.nanoTime() - start));
                applied.add(o.id());
                eventSource(o.kind()).ifPresent(es -> {
                    ResourceID id = new ResourceID(o.name());
                    GenericKubernetesResource before = live.get(o.id());
                    if (before == null) {
                        es.handleRecentResourceCreate(id, result);
                    } else {
                        es.handleRecentResourceUpdate(id, result, before);
                    }
                });
            }
            List<String> pruned = prune(policySet, rendered, kinds);

            for (RenderedObject o : rendered) {
                String message = "";
                if (driftRepair && applied.contains(o.id())) {
                    message = "restored after a change made outside the set";
                } else if (!applied.contains(o.id())) {
                    message = previousMessage(o).orElse("");
                }
                rows.add(row(o, "Applied", message));
            }
            if (!applied.isEmpty()) {
                if (driftRepair) {
                    events.normal(set, EventRecorder.DRIFT_REPAIRED, "restored " + applied + " to generation " + generation);
                } else {
                    events.normal(set, EventRecorder.APPLIED, "applied " + applied.size() + " object(s) of generation "
                            + generation + ": " + applied);
                }
            }
            if (!pruned.isEmpty()) {
                events.normal(set, EventRecorder.PRUNED, "deleted " + pruned + ": no longer in the set");
            }
            List<Target> targets = new ArrayList<>();
            for (RenderedObject o : rendered) {
                targets.add(new Target(o.kind(), kinds.versionOf(o.kind()).orElseThrow(), o.name(), desired.get(o.id())));
            }
            lastGood.put(set.getMetadata().getUid(), new LastGood(generation, targets));
            return Outcome.APPLIED;
        }

        /**
         * While the current generation is blocked, the last good generation's objects are still the set's
         * promise: an owned object edited or deleted by hand is restored to what that generation applied
         * (dry run first; an object that is someone else's by now is left alone). Known only to this process:
         * after a restart, repair waits for the next good generation.
         */
        void repairLastGood() {
            LastGood good = lastGood.get(set.getMetadata().getUid());
            if (good == null) {
                return;
            }
            List<Target> drifted = new ArrayList<>();
            for (Target t : good.objects()) {
                GenericKubernetesResource actual = cached(t.kind(), t.name()).orElse(null);
                if (actual != null && !name.equals(ClusterObjects.label(actual))) {
                    continue;
                }
                if (actual == null || !inSync(t.desired(), actual)) {
                    drifted.add(t);
                }
            }
            if (drifted.isEmpty()) {
                return;
            }
            for (Target t : drifted) {
                try {
                    objects.dryRun(t.kind(), t.version(), t.desired());
                } catch (KubernetesClientException e) {
                    if (isTransient(e)) {
                        throw e;
                    }
                    LOG.warnf("AdmissionPolicySet %s: not restoring %s/%s of generation %d: dry run rejected: %s",
                            name, t.kind().kind(), t.name(), good.generation(), e.getMessage());
                    return;
                }
            }
            List<String> restored = new ArrayList<>();
            for (Target t : drifted) {
                objects.apply(t.kind(), t.version(), t.desired());
                restored.add(t.kind().kind() + "/" + t.name());
            }
            events.normal(set, EventRecorder.DRIFT_REPAIRED, "restored " + restored + " to the last good generation "
                    + good.generation() + " (generation " + generation + " is blocked)");
        }

        private String firstError() {
            return findings.stream().filter(Finding::isError).findFirst()
                    .map(f -> f.rule() + " " + f.object() + (f.field().isEmpty() ? "" : " " + f.field()) + ": " + f.message())
                    .orElse("");
        }

        private Optional<GenericKubernetesResource> cached(AdmissionKind kind, String objectName) {
            return eventSource(kind).flatMap(es -> es.get(new ResourceID(objectName)));
        }

        @SuppressWarnings("unchecked")
        private Optional<InformerEventSource<GenericKubernetesResource, AdmissionPolicySet>> eventSource(AdmissionKind kind) {
            try {
                return Optional.of((InformerEventSource<GenericKubernetesResource, AdmissionPolicySet>) context
                        .eventSourceRetriever().getEventSourceFor(GenericKubernetesResource.class,
                                ManagedKinds.eventSourceName(kind)));
            } catch (RuntimeException e) {
                return Optional.empty();
            }
        }

        /** A name not in the informer caches: absent, or an object without a set label (hand-made). */
        private GenericKubernetesResource lookupForeign(RenderedObject o, ManagedKinds kinds) {
            return objects.get(o.kind(), kinds.versionOf(o.kind()).orElseThrow(), o.name()).orElse(null);
        }

        /** {@code Kind/name} of policies bound by the set but not generated by it, that exist in the cluster. */
        private Set<String> clusterPolicies(List<RenderedObject> rendered, ManagedKinds kinds) {
            Set<String> generated = new HashSet<>();
            rendered.forEach(o -> generated.add(o.id()));
            Set<String> found = new HashSet<>();
            for (RenderedObject o : rendered) {
                AdmissionKind policyKind = switch (o.kind()) {
                    case VALIDATING_ADMISSION_POLICY_BINDING -> AdmissionKind.VALIDATING_ADMISSION_POLICY;
                    case MUTATING_ADMISSION_POLICY_BINDING -> AdmissionKind.MUTATING_ADMISSION_POLICY;
                    default -> null;
                };
                String policy = o.manifest().path("spec").path("policyName").asText("");
                if (policyKind == null || policy.isEmpty() || generated.contains(policyKind.kind() + "/" + policy)) {
                    continue;
                }
                String id = policyKind.kind() + "/" + policy;
                if (!found.contains(id) && (cached(policyKind, policy).isPresent()
                        || objects.get(policyKind, kinds.versionOf(policyKind).orElseThrow(), policy).isPresent())) {
                    found.add(id);
                }
            }
            return found;
        }

        private GenericKubernetesResource desiredObject(RenderedObject o) {
            ObjectNode manifest = o.manifest().deepCopy();
            ObjectNode metadata = (ObjectNode) manifest.get("metadata");
            ObjectNode ref = metadata.putArray("ownerReferences").addObject();
            ref.put("apiVersion", AdmissionPolicySet.API_VERSION);
            ref.put("kind", AdmissionPolicySet.KIND);
            ref.put("name", name);
            ref.put("uid", set.getMetadata().getUid());
            ref.put("controller", true);
            return JSON.convertValue(manifest, GenericKubernetesResource.class);
        }

        /** Status of this generation says every object was applied: a change now is drift, not an update. */
        private boolean wasAppliedAtThisGeneration() {
            AdmissionPolicySetStatus s = set.getStatus();
            return s != null && Objects.equals(s.getObservedGeneration(), generation) && s.getConditions() != null
                    && s.getConditions().stream().anyMatch(c -> "Applied".equals(c.getType()) && "True".equals(c.getStatus()));
        }

        private Optional<String> previousMessage(RenderedObject o) {
            if (set.getStatus() == null || set.getStatus().getResources() == null) {
                return Optional.empty();
            }
            return set.getStatus().getResources().stream()
                    .filter(r -> o.kind().kind().equals(r.getKind()) && o.name().equals(r.getName())
                            && o.apiVersion().equals(r.getApiVersion()) && "Applied".equals(r.getState()))
                    .map(ResourceStatus::getMessage).filter(Objects::nonNull).findFirst();
        }

        /** Deletes owned objects the set no longer renders: only after a fully successful apply, bindings first. */
        private List<String> prune(PolicySet policySet, List<RenderedObject> rendered, ManagedKinds kinds) {
            List<String> pruned = new ArrayList<>();
            if (!policySet.prune()) {
                return pruned;
            }
            Set<String> keep = new HashSet<>();
            rendered.forEach(o -> keep.add(o.id()));
            for (AdmissionKind kind : kinds.removalOrder()) {
                for (GenericKubernetesResource r : owned(kind)) {
                    String id = kind.kind() + "/" + r.getMetadata().getName();
                    if (!keep.contains(id)) {
                        objects.delete(kind, kinds.versionOf(kind).orElseThrow(), r.getMetadata().getName());
                        pruned.add(id);
                    }
                }
            }
            return pruned;
        }

        private List<GenericKubernetesResource> owned(AdmissionKind kind) {
            return eventSource(kind).map(es -> es.list(r -> name.equals(ClusterObjects.label(r))).toList()).orElse(List.of());
        }
    }

    /** Findings from the VAP status the API server writes after type-checking each applied expression. */
    private static List<Finding> typeCheckWarnings(List<RenderedObject> rendered, Map<String, GenericKubernetesResource> live) {
        List<Finding> warnings = new ArrayList<>();
        for (RenderedObject o : rendered) {
            if (o.kind() != AdmissionKind.VALIDATING_ADMISSION_POLICY || !live.containsKey(o.id())) {
                continue;
            }
            Object status = live.get(o.id()).getAdditionalProperties().get("status");
            JsonNode list = JSON.valueToTree(status).path("typeChecking").path("expressionWarnings");
            for (JsonNode w : list) {
                warnings.add(Finding.warning(TYPE_CHECK_RULE, o.id(), w.path("fieldRef").asText(""),
                        "the API server's type check warns: " + w.path("warning").asText("")
                                + "; fix the expression (it may fail at admission time)"));
            }
        }
        return warnings;
    }

    /** Live object carries the set's label, owner reference and every rendered field. */
    static boolean inSync(GenericKubernetesResource desired, GenericKubernetesResource actual) {
        JsonNode want = JSON.valueToTree(desired);
        JsonNode have = JSON.valueToTree(actual);
        String uid = want.path("metadata").path("ownerReferences").path(0).path("uid").asText();
        boolean referenced = false;
        for (JsonNode ref : have.path("metadata").path("ownerReferences")) {
            referenced |= uid.equals(ref.path("uid").asText());
        }
        if (!referenced) {
            return false;
        }
        ObjectNode wantWithoutRefs = want.deepCopy();
        ((ObjectNode) wantWithoutRefs.get("metadata")).remove("ownerReferences");
        return Convergence.contains(have, wantWithoutRefs);
    }

    private static ResourceStatus row(RenderedObject o, String state, String message) {
        return new ResourceStatus(o.apiVersion(), o.kind().kind(), o.name(), state, message);
    }

    // ---------------------------------------------------------------------------------------------- status

    /** Computes the status and writes it only when it differs from the stored one. Returns whether it wrote. */
    private boolean writeStatus(AdmissionPolicySet set, Outcome outcome, String detail, List<Finding> findings,
                                List<ResourceStatus> rows) {
        long generation = Optional.ofNullable(set.getMetadata().getGeneration()).orElse(0L);
        AdmissionPolicySetStatus next = StatusCalculator.compute(new StatusCalculator.Input(
                generation, outcome, detail, findings, rows, set.getStatus(), Instant.now(clock), maxFindings));
        if (set.getStatus() != null && JSON.valueToTree(set.getStatus()).equals(JSON.valueToTree(next))) {
            return false;
        }
        AdmissionPolicySet copy = Serialization.clone(set);
        copy.setStatus(next);
        try {
            client.resource(copy).updateStatus();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
            // The cached set is older than the stored one (e.g. our own finalizer write). The status describes
            // this generation, so it still holds if the generation did not move; otherwise the next reconcile writes.
            AdmissionPolicySet latest = client.resources(AdmissionPolicySet.class).withName(set.getMetadata().getName()).get();
            if (latest == null || !Objects.equals(latest.getMetadata().getGeneration(), set.getMetadata().getGeneration())) {
                return false;
            }
            latest.setStatus(next);
            client.resource(latest).updateStatus();
        }
        return true;
    }

    private static String reasonOf(Outcome outcome) {
        return switch (outcome) {
            case VALIDATION_FAILED -> "ValidationFailed";
            case OWNERSHIP_CONFLICT -> "OwnershipConflict";
            case DRY_RUN_REJECTED -> "DryRunRejected";
            case MUTATING_POLICY_NOT_SERVED -> "MutatingPolicyNotServed";
            case API_ERROR -> "ApiError";
            case PAUSED -> "Paused";
            case APPLIED -> "Applied";
        };
    }

    // ---------------------------------------------------------------------------------------------- errors

    /** Conflicts, throttling, server errors and I/O failures are retried (JOSDK's backoff); the rest is an answer. */
    static boolean isTransient(KubernetesClientException e) {
        int code = e.getCode();
        return code == 0 || code == 409 || code == 429 || code >= 500;
    }

    /** The dry run's refusal as findings, in the API server's own terms ({@code api/<reason>} on its field). */
    static List<Finding> rejectionFindings(String objectId, KubernetesClientException e) {
        List<Finding> out = new ArrayList<>();
        Status status = e.getStatus();
        String prefix = "server-side dry run rejected: ";
        if (status != null && status.getDetails() != null && status.getDetails().getCauses() != null) {
            for (StatusCause cause : status.getDetails().getCauses()) {
                out.add(Finding.error("api/" + causeType(cause.getReason()), objectId,
                        cause.getField() == null ? "" : cause.getField(), prefix + cause.getMessage()));
            }
        }
        if (out.isEmpty()) {
            String reason = status != null && status.getReason() != null && !status.getReason().isEmpty()
                    ? status.getReason() : "Rejected";
            String message = status != null && status.getMessage() != null ? status.getMessage() : e.getMessage();
            out.add(Finding.error("api/" + reason, objectId, "", prefix + message));
        }
        return out;
    }

    private static String causeType(String reason) {
        if (reason == null) {
            return "Invalid";
        }
        return switch (reason) {
            case "FieldValueRequired" -> "Required";
            case "FieldValueNotSupported" -> "NotSupported";
            case "FieldValueDuplicate" -> "Duplicate";
            case "FieldValueForbidden" -> "Forbidden";
            case "FieldValueTooMany" -> "TooMany";
            case "FieldValueTooLong" -> "TooLong";
            case "FieldValueNotFound" -> "NotFound";
            case "FieldValueInvalid" -> "Invalid";
            default -> reason.startsWith("FieldValue") ? reason.substring("FieldValue".length()) : reason;
        };
    }

    private static String describe(Exception e) {
        if (e instanceof KubernetesClientException k) {
            String message = k.getStatus() != null && k.getStatus().getMessage() != null ? k.getStatus().getMessage() : k.getMessage();
            return (k.getCode() == 0 ? "no response" : "HTTP " + k.getCode()) + ": " + message;
        }
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    // ---------------------------------------------------------------------------------------------- deletion

    @Override
    public DeleteControl cleanup(AdmissionPolicySet set, Context<AdmissionPolicySet> context) {
        String name = set.getMetadata().getName();
        ManagedKinds kinds = discovery.managedKinds();
        boolean orphan = set.getSpec() != null && set.getSpec().getDeletionPolicy() == DeletionPolicy.Orphan;
        List<String> done = new ArrayList<>();
        for (AdmissionKind kind : kinds.removalOrder()) {
            String version = kinds.versionOf(kind).orElseThrow();
            List<GenericKubernetesResource> owned;
            try {
                @SuppressWarnings("unchecked")
                var es = (InformerEventSource<GenericKubernetesResource, AdmissionPolicySet>) context.eventSourceRetriever()
                        .getEventSourceFor(GenericKubernetesResource.class, ManagedKinds.eventSourceName(kind));
                owned = es.list(r -> name.equals(ClusterObjects.label(r))).toList();
            } catch (RuntimeException e) {
                owned = List.of();
            }
            for (GenericKubernetesResource r : owned) {
                if (orphan) {
                    objects.orphan(kind, version, r, set.getMetadata().getUid());
                } else {
                    objects.delete(kind, version, r.getMetadata().getName());
                }
                done.add(kind.kind() + "/" + r.getMetadata().getName());
            }
        }
        if (!done.isEmpty()) {
            events.normal(set, orphan ? EventRecorder.ORPHANED : EventRecorder.DELETED,
                    (orphan ? "released " : "deleted ") + done + " (deletionPolicy " + (orphan ? "Orphan" : "Delete") + ")");
        }
        metrics.forget(name);
        lastFindings.remove(name);
        lastGood.remove(set.getMetadata().getUid());
        return DeleteControl.defaultDelete();
    }
}

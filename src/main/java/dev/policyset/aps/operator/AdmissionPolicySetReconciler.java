package dev.policyset.aps.operator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySetStatus;
import dev.policyset.aps.core.cel.KubernetesCelChecker;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.plan.Plan;
import dev.policyset.aps.core.plan.PlanInput;
import dev.policyset.aps.core.plan.Planner;
import dev.policyset.aps.core.plan.Release;
import dev.policyset.aps.core.status.Conditions;
import dev.policyset.aps.core.status.Outcome;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
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
import io.javaoperatorsdk.operator.processing.event.EventSourceRetriever;
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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Reconciles an AdmissionPolicySet as gather → plan → apply: the informer caches give core a
 * {@link InformerClusterView}; core's {@link Planner} decides everything (findings, writes, removals, rows,
 * status, events); {@link PlanExecutor} checks every write with the server first (dry runs), hands refusals back
 * to core, then applies and prunes. This class keeps no per-set state: the last good generation lives in {@code status.lastApplied}.
 *
 * <p>Deletion uses a finalizer (JOSDK {@link Cleaner}) plus owner references: {@code deletionPolicy: Orphan}
 * needs the ownership removed before the set is gone, or the garbage collector deletes the objects.
 *
 * <p>The impact scan runs off the reconcile ({@link ImpactScans}): a reconcile that applied a generation asks for a
 * scan when one is due and never waits for it; the planner gates Deny on the last finished scan in
 * {@code status.impact}, and a finished scan reconciles the set again. The scan reads paged lists, so the scanned kinds
 * need only {@code list}.
 *
 * <p>RBAC: server-side apply and its dry run are PATCH requests, and the API server also checks {@code create}
 * when an apply creates the object; {@code delete} is for prune and deletion. Leader election's Lease grant is a
 * namespaced Role in config/rbac, not part of this cluster-wide role.
 */
@ControllerConfiguration(name = AdmissionPolicySetReconciler.NAME,
        maxReconciliationInterval = @MaxReconciliationInterval(interval = 10, timeUnit = TimeUnit.MINUTES),
        informer = @Informer(itemStore = CompactItemStore.Sets.class))
@RBACRule(apiGroups = AdmissionKind.GROUP,
        resources = {"validatingadmissionpolicies", "validatingadmissionpolicybindings",
                "mutatingadmissionpolicies", "mutatingadmissionpolicybindings",
                "validatingwebhookconfigurations", "mutatingwebhookconfigurations"},
        verbs = {"get", "list", "watch", "create", "patch", "delete"})
@RBACRule(apiGroups = "", resources = "events", verbs = {"create"})
@RBACRule(apiGroups = "", resources = {"namespaces", "pods"}, verbs = {"list"})
@RBACRule(apiGroups = "apps", resources = {"deployments", "statefulsets", "daemonsets", "replicasets"}, verbs = {"list"})
@RBACRule(apiGroups = "batch", resources = {"jobs", "cronjobs"}, verbs = {"list"})
public class AdmissionPolicySetReconciler implements Reconciler<AdmissionPolicySet>, Cleaner<AdmissionPolicySet> {
    public static final String NAME = "admissionpolicyset";

    private static final Logger LOG = Logger.getLogger(AdmissionPolicySetReconciler.class);
    private static final ObjectMapper JSON = Serialization.jsonMapper();

    private final KubernetesClient client;
    private final ClusterDiscovery discovery;
    private final ClusterSchemas schemas;
    private final PlanExecutor executor;
    private final EventRecorder events;
    private final OperatorMetrics metrics;
    private final ImpactScanner impact;
    private final ImpactScans scans;
    private final PolicyReportWriter reports;
    private final Planner planner;
    private final Clock clock = Clock.systemUTC();
    private final int maxFindings;
    private final Duration conflictRecheck;
    /** Informers registered so far, by event source name (kind and version); changes when discovery does. */
    private final Set<String> informers = new HashSet<>();

    public AdmissionPolicySetReconciler(KubernetesClient client, ClusterDiscovery discovery, ClusterSchemas schemas,
                                        PlanExecutor executor, EventRecorder events, OperatorMetrics metrics,
                                        ImpactScanner impact, ImpactScans scans, PolicyReportWriter reports,
                                        @ConfigProperty(name = "aps.status.max-findings", defaultValue = "50") int maxFindings,
                                        @ConfigProperty(name = "aps.conflict-recheck", defaultValue = "PT1M") Duration conflictRecheck,
                                        @ConfigProperty(name = "aps.contested.max-repairs", defaultValue = "3") int maxRepairs,
                                        @ConfigProperty(name = "aps.param-informer-anchors.enabled", defaultValue = "true") boolean paramInformerAnchors) {
        this.planner = new Planner(new KubernetesCelChecker(), maxRepairs, paramInformerAnchors);
        this.client = client;
        this.discovery = discovery;
        this.schemas = schemas;
        this.executor = executor;
        this.events = events;
        this.metrics = metrics;
        this.impact = impact;
        this.scans = scans;
        this.reports = reports;
        this.maxFindings = maxFindings;
        this.conflictRecheck = conflictRecheck;
    }

    @Override
    public List<EventSource<?, AdmissionPolicySet>> prepareEventSources(EventSourceContext<AdmissionPolicySet> context) {
        ManagedKinds kinds = discovery.managedKinds();
        List<EventSource<?, AdmissionPolicySet>> sources = new ArrayList<>();
        for (AdmissionKind kind : kinds.served()) {
            sources.add(informer(kind, kinds.versionOf(kind).orElseThrow(), context));
        }
        synchronized (informers) {
            informers.addAll(kinds.eventSourceNames());
        }
        sources.add(scans.eventSource());
        return sources;
    }

    /**
     * One informer per served kind over all its objects (not only labelled ones: ownership and APS401 look at the
     * others too; a cluster has tens to hundreds of them). Events map back to a set by its label.
     */
    private static InformerEventSource<GenericKubernetesResource, AdmissionPolicySet> informer(
            AdmissionKind kind, String version, EventSourceContext<AdmissionPolicySet> context) {
        var config = InformerEventSourceConfiguration
                .from(ManagedKinds.gvk(kind, version), AdmissionPolicySet.class)
                .withName(ManagedKinds.eventSourceName(kind, version))
                .withSecondaryToPrimaryMapper((GenericKubernetesResource r) -> {
                    String set = ClusterObjects.label(r);
                    return set == null || set.isEmpty() ? Set.of() : Set.of(new ResourceID(set));
                })
                .withItemStore(CompactItemStore.ownedObjects())
                .build();
        InformerEventSource<GenericKubernetesResource, AdmissionPolicySet> source = new InformerEventSource<>(config, context);
        // Before it starts: an index by set, so that gathering one set's objects reads that set's entries, not
        // every object of the kind (at 1,000 sets a scan per reconcile made gathering quadratic in the sets).
        source.addIndexers(Map.of(InformerClusterView.BY_SET, r -> {
            String set = ClusterObjects.label(r);
            return set == null || set.isEmpty() ? List.of() : List.of(set);
        }));
        return source;
    }

    /** Informers follow discovery: a kind served at a new version gets its informer, an old version's goes. */
    private ManagedKinds informersFor(Context<AdmissionPolicySet> context) {
        ManagedKinds kinds = discovery.managedKinds();
        Set<String> wanted = kinds.eventSourceNames();
        synchronized (informers) {
            if (!informers.equals(wanted)) {
                EventSourceRetriever<AdmissionPolicySet> retriever = context.eventSourceRetriever();
                for (AdmissionKind kind : kinds.served()) {
                    String version = kinds.versionOf(kind).orElseThrow();
                    if (informers.add(ManagedKinds.eventSourceName(kind, version))) {
                        LOG.infof("Watching %s at %s/%s", kind.kind(), AdmissionKind.GROUP, version);
                        retriever.dynamicallyRegisterEventSource(
                                informer(kind, version, retriever.eventSourceContextForDynamicRegistration()));
                    }
                }
                for (String gone : List.copyOf(informers)) {
                    if (!wanted.contains(gone)) {
                        retriever.dynamicallyDeRegisterEventSource(gone);
                        informers.remove(gone);
                    }
                }
            }
        }
        return kinds;
    }

    @Override
    public UpdateControl<AdmissionPolicySet> reconcile(AdmissionPolicySet cached, Context<AdmissionPolicySet> context) {
        AdmissionPolicySet set = scans.withLatest(withOwnStatus(cached));
        ManagedKinds kinds = informersFor(context);
        InformerClusterView view = new InformerClusterView(context.eventSourceRetriever(), kinds, discovery.snapshot(),
                schemas.current());
        Plan plan = executor.execute(planner.plan(input(set), view), view);
        plan.events().forEach(e -> events.record(set, e));
        finish(set, plan);
        if (impact.enabled() && plan.outcome() == Outcome.APPLIED && plan.scanned() != null) {
            scans.requestIfDue(set, plan.scanned(), view.kubeVersion());
        }
        UpdateControl<AdmissionPolicySet> control = UpdateControl.noUpdate();
        if (plan.outcome() == Outcome.OWNERSHIP_CONFLICT) {
            // A hand-made object carries no set label, so its removal raises no event for this set: look again later.
            control.rescheduleAfter(conflictRecheck);
        } else if (impact.enabled()) {
            // the next impact scan is due then (changes of the scanned objects do not reconcile)
            control.rescheduleAfter(impact.interval());
        }
        return control;
    }

    @Override
    public ErrorStatusUpdateControl<AdmissionPolicySet> updateErrorStatus(AdmissionPolicySet set,
                                                                          Context<AdmissionPolicySet> context, Exception e) {
        String detail = "API request failed (" + describe(e) + "); retrying with backoff, no object was deleted";
        LOG.warnf("AdmissionPolicySet %s: %s", set.getMetadata().getName(), detail);
        try {
            finish(set, Plan.apiError(generation(set), detail, set.getStatus()));
        } catch (RuntimeException statusFailure) {
            LOG.debugf("Could not write error status: %s", statusFailure.getMessage());
        }
        return ErrorStatusUpdateControl.noStatusUpdate();
    }

    /** Metrics, the status (written only when it changed) and, with a changed status, the outcome's warning. */
    private void finish(AdmissionPolicySet set, Plan plan) {
        metrics.reconciled(plan.outcome());
        metrics.observe(set.getMetadata().getName(), plan.findings(), plan.objects().size());
        AdmissionPolicySetStatus next = plan.status(Instant.now(clock), maxFindings);
        metrics.impact(set.getMetadata().getName(), next.getImpact());
        metrics.ready(set.getMetadata().getName(), next.getConditions().stream()
                .anyMatch(c -> Conditions.READY.equals(c.getType()) && "True".equals(c.getStatus())));
        if (writeStatus(set, next)) {
            plan.warning().ifPresent(w -> events.record(set, w));
        }
    }

    /** The status this operator last wrote for a set, and the set's resourceVersion it wrote it from. */
    private record Written(String fromResourceVersion, AdmissionPolicySetStatus status) {}

    private final Map<String, Written> written = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * The set with the status we last wrote, when the cache has not seen that write yet: the events of our own
     * applies can start the next reconcile before the set's own watch delivers our status update (a busy machine),
     * and that reconcile, reading the old status, would plan from it and write the same status again (two status
     * writes per new set, seen in AdmissionPolicySetReconcilerTest under load).
     */
    private AdmissionPolicySet withOwnStatus(AdmissionPolicySet set) {
        Written w = written.get(set.getMetadata().getName());
        if (w == null) {
            return set;
        }
        if (!Objects.equals(w.fromResourceVersion(), set.getMetadata().getResourceVersion())) {
            // The cache has moved past the set we wrote from (to our status write, at the latest): the copy is no
            // longer needed (one status copy per set kept for ever is heap that grows with the sets).
            written.remove(set.getMetadata().getName(), w);
            return set;
        }
        AdmissionPolicySet copy = Serialization.clone(set);
        copy.setStatus(JSON.convertValue(w.status(), AdmissionPolicySetStatus.class));
        return copy;
    }

    /** Writes the status only when it differs from the stored one; returns whether it wrote. */
    private boolean writeStatus(AdmissionPolicySet set, AdmissionPolicySetStatus next) {
        boolean wrote = writeStatusRequest(set, next);
        if (wrote) {
            written.put(set.getMetadata().getName(), new Written(set.getMetadata().getResourceVersion(),
                    JSON.convertValue(next, AdmissionPolicySetStatus.class)));
        }
        return wrote;
    }

    private boolean writeStatusRequest(AdmissionPolicySet set, AdmissionPolicySetStatus next) {
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
            // status.impact is the scan executor's (ImpactScans): keep what is stored, never an older copy
            next.setImpact(latest.getStatus() == null ? next.getImpact() : latest.getStatus().getImpact());
            latest.setStatus(next);
            client.resource(latest).updateStatus();
        }
        return true;
    }

    private static long generation(AdmissionPolicySet set) {
        Long g = set.getMetadata().getGeneration();
        return g == null ? 0 : g;
    }

    private static String describe(Exception e) {
        if (e instanceof KubernetesClientException k) {
            String message = k.getStatus() != null && k.getStatus().getMessage() != null ? k.getStatus().getMessage() : k.getMessage();
            return (k.getCode() == 0 ? "no response" : "HTTP " + k.getCode()) + ": " + message;
        }
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    @Override
    public DeleteControl cleanup(AdmissionPolicySet set, Context<AdmissionPolicySet> context) {
        InformerClusterView view = new InformerClusterView(context.eventSourceRetriever(), informersFor(context),
                discovery.snapshot());
        Release release = Planner.release(input(set), view);
        executor.release(release, set.getMetadata().getUid(), view);
        release.event().ifPresent(e -> events.record(set, e));
        metrics.forget(set.getMetadata().getName());
        if (impact.reports()) {
            reports.forget(set.getMetadata().getName());
        }
        written.remove(set.getMetadata().getName());
        scans.forget(set);
        return DeleteControl.defaultDelete();
    }

    private static PlanInput input(AdmissionPolicySet set) {
        return new PlanInput((ObjectNode) JSON.valueToTree(set), set.getStatus());
    }
}

package dev.policyset.aps.operator;

import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.plan.ApplyConflict;
import dev.policyset.aps.core.plan.DryRunRejection;
import dev.policyset.aps.core.plan.ParamPolicyStaging;
import dev.policyset.aps.core.plan.Plan;
import dev.policyset.aps.core.plan.Planner;
import dev.policyset.aps.core.plan.Release;
import dev.policyset.aps.core.plan.Removal;
import dev.policyset.aps.core.plan.RepairGuard;
import dev.policyset.aps.core.plan.Write;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Apply: carries a plan out and reports what the server said; it decides nothing (core re-plans on a refusal).
 */
@ApplicationScoped
public class PlanExecutor {
    private final ClusterObjects objects;
    private final ClusterDiscovery discovery;
    private final OperatorMetrics metrics;
    private final StagingRefusals stagingRefusals = new StagingRefusals(Clock.systemUTC());

    public PlanExecutor(ClusterObjects objects, ClusterDiscovery discovery, OperatorMetrics metrics) {
        this.objects = objects;
        this.discovery = discovery;
        this.metrics = metrics;
    }

    /**
     * Carries the plan out and returns it as it came to be. Every write but the first is dry-run; a refusal goes
     * back to core ({@link Planner#afterDryRun}) and nothing is written. The first write needs no dry run: it is
     * applied first, so if the server refuses it nothing has been written either, and core re-plans the same way
     * (one request saved per changed set). Then the other writes are applied in order, and the removals deleted.
     * New policies that a binding's {@code paramRef} names are created before the dry run (the server reads them to
     * authorize the binding; {@link ParamPolicyStaging}) and deleted again if the generation is refused.
     * Transient failures throw (JOSDK retries with backoff); a 404 also asks discovery again.
     */
    public Plan execute(Plan plan, InformerClusterView view) {
        List<Write> staged = ParamPolicyStaging.stagedFirst(plan.writes());
        List<DryRunRejection> remembered = staged.isEmpty() ? List.of() : stagingRefusals.recent(plan.writes());
        if (!remembered.isEmpty()) {
            return Planner.afterDryRun(plan, remembered); // the same staged generation, refused moments ago
        }
        for (int i = 0; i < staged.size(); i++) {
            try {
                apply(staged.get(i), view);
            } catch (KubernetesClientException e) {
                if (isTransient(e) || notServed(e)) {
                    throw e;
                }
                rollBack(staged.subList(0, i));
                List<DryRunRejection> refusal = List.of(rejection(staged.get(i).id(), e, false));
                stagingRefusals.remember(plan.writes(), refusal);
                return Planner.afterDryRun(plan, refusal);
            }
        }
        List<Write> writes = ParamPolicyStaging.rest(plan.writes(), staged);
        // with nothing staged the first write is its own check: applied first, a refusal leaves nothing written
        int unchecked = staged.isEmpty() ? Math.min(1, writes.size()) : 0;
        List<DryRunRejection> rejections = dryRun(writes.subList(unchecked, writes.size()));
        if (!rejections.isEmpty()) {
            rollBack(staged);
            if (!staged.isEmpty()) {
                stagingRefusals.remember(plan.writes(), rejections);
            }
            return Planner.afterDryRun(plan, rejections);
        }
        List<ApplyConflict> conflicts = new ArrayList<>();
        for (int i = 0; i < writes.size(); i++) {
            Write w = writes.get(i);
            try {
                apply(w, view);
            } catch (KubernetesClientException e) {
                if (!w.forced() && e.getCode() == 409) {
                    // the contested-field guard's expected answer: the other manager keeps its fields
                    conflicts.add(conflict(w.id(), e));
                    continue;
                }
                if (i < unchecked && !isTransient(e) && !notServed(e)) {
                    return Planner.afterDryRun(plan, List.of(rejection(w.id(), e, false)));
                }
                throw e;
            }
        }
        for (Removal r : plan.removals()) {
            objects.delete(r.kind(), versionOf(r.kind()), r.name());
        }
        return RepairGuard.afterConflicts(plan, conflicts);
    }

    /** Undoes staged creates of a refused generation: policies without bindings, so nothing was ever enforced. */
    private void rollBack(List<Write> created) {
        for (Removal r : ParamPolicyStaging.rollback(created)) {
            objects.delete(r.kind(), versionOf(r.kind()), r.name());
        }
    }

    private List<DryRunRejection> dryRun(List<Write> writes) {
        List<DryRunRejection> rejections = new ArrayList<>();
        for (Write w : writes) {
            try {
                objects.dryRun(w.kind(), w.version(), resource(w));
            } catch (KubernetesClientException e) {
                if (isTransient(e) || notServed(e)) {
                    throw e;
                }
                rejections.add(rejection(w.id(), e, true));
            }
        }
        return rejections;
    }

    /** One server-side apply; the result goes into the informer cache at once (the next reconcile sees it). */
    private void apply(Write w, InformerClusterView view) {
        // read before the write: JOSDK caches our result only if the informer still holds this version, so a
        // change someone made right after ours (already in the informer) is not hidden behind our older result
        GenericKubernetesResource before = view.cached(w.kind(), w.name()).orElse(null);
        long start = System.nanoTime();
        GenericKubernetesResource result = w.forced() ? objects.apply(w.kind(), w.version(), resource(w))
                : objects.applyUnforced(w.kind(), w.version(), resource(w));
        metrics.applied(Duration.ofNanos(System.nanoTime() - start));
        view.source(w.kind()).ifPresent(es -> {
            if (before == null) {
                es.handleRecentResourceCreate(new ResourceID(w.name()), result);
            } else {
                es.handleRecentResourceUpdate(new ResourceID(w.name()), result, before);
            }
        });
    }

    /** At the set's deletion: each object of the release deleted, or released (label and owner reference removed). */
    public void release(Release release, String setUid, InformerClusterView view) {
        for (Removal r : release.objects()) {
            if (release.orphan()) {
                view.cached(r.kind(), r.name()).ifPresent(o -> objects.orphan(r.kind(), versionOf(r.kind()), o, setUid));
            } else {
                objects.delete(r.kind(), versionOf(r.kind()), r.name());
            }
        }
    }

    /** Conflicts, throttling, server errors and I/O failures are retried (JOSDK's backoff); the rest is an answer. */
    static boolean isTransient(KubernetesClientException e) {
        int code = e.getCode();
        return code == 0 || code == 409 || code == 429 || code >= 500;
    }

    /** A 404 on a write: the version is no longer served; ask discovery again before the retry. */
    private boolean notServed(KubernetesClientException e) {
        if (e.getCode() == 404) {
            discovery.invalidate();
            return true;
        }
        return false;
    }

    private String versionOf(AdmissionKind kind) {
        return discovery.managedKinds().versionOf(kind).orElseThrow();
    }

    static DryRunRejection rejection(String objectId, KubernetesClientException e, boolean dryRun) {
        Status status = e.getStatus();
        List<DryRunRejection.Cause> causes = new ArrayList<>();
        if (status != null && status.getDetails() != null && status.getDetails().getCauses() != null) {
            status.getDetails().getCauses().forEach(c -> causes.add(new DryRunRejection.Cause(c.getReason(), c.getField(), c.getMessage())));
        }
        String message = status != null && status.getMessage() != null ? status.getMessage() : e.getMessage();
        return new DryRunRejection(objectId, e.getCode(), status == null ? null : status.getReason(), message, causes, dryRun);
    }

    /** A 409 to an apply without force, in the server's words (message and per-field causes). */
    static ApplyConflict conflict(String objectId, KubernetesClientException e) {
        DryRunRejection r = rejection(objectId, e, false);
        return new ApplyConflict(objectId, r.message(), r.causes());
    }

    private static GenericKubernetesResource resource(Write w) {
        return Serialization.jsonMapper().convertValue(w.object(), GenericKubernetesResource.class);
    }
}

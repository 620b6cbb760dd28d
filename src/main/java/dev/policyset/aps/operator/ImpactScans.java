package dev.policyset.aps.operator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.api.v1alpha1.ImpactStatus;
import dev.policyset.aps.core.impact.ImpactScan;
import dev.policyset.aps.core.impact.ImpactStatuses;
import dev.policyset.aps.core.impact.OpenReports;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.render.RenderedObject;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Runs the impact scans on the operator's own thread, never in a reconcile: a reconcile that applied a generation
 * asks for a scan when one is due ({@link ImpactScanner#due}) and returns at once.
 *
 * <ul>
 *   <li><b>One scan at a time</b>, in the order asked; the queue holds at most one request per set (a newer
 *       generation's replaces an older one's), so it is bounded by the number of sets.</li>
 *   <li><b>A spec change abandons the running scan of the old generation</b> at its next page (its counts would
 *       describe policies the set no longer has, and the new generation's Deny gate needs its own scan), and the new
 *       generation is scanned next, after the scans already waiting. A blocked or paused new generation asks for
 *       nothing, so the scan of the generation that stays applied goes on.</li>
 *   <li><b>Status</b>: only {@code status.impact}, by a JSON patch of that field (tested against the set's uid, so a
 *       set deleted and created again under the same name is not written), so the reconciler's conditions are never
 *       overwritten; the reconciler writes its whole status with the stored resourceVersion (a conflict re-reads it
 *       and keeps the stored {@code status.impact}). Progress at most every {@code aps.impact.progress-interval};
 *       the counts stay the last finished scan's until this one finishes.</li>
 *   <li><b>Then a reconcile</b> of the set (an inbound event), which reads the new scan through
 *       {@link #withLatest} even before the set's informer has seen the patch, so the Deny gate can release.</li>
 *   <li><b>Leader only</b>: requests come from reconciles, and only the leader reconciles (a lost lease ends the
 *       process). <b>Shutdown</b> stops the running scan before its next list request.</li>
 * </ul>
 */
@ApplicationScoped
public class ImpactScans {
    private static final Logger LOG = Logger.getLogger(ImpactScans.class);
    private static final ObjectMapper JSON = Serialization.jsonMapper();

    /** A scan asked for: the set's generation, its rendered policies and bindings, the cluster's version. */
    record Request(String set, String uid, long generation, List<RenderedObject> configuration, KubeVersion version,
                   ImpactStatus last) {}

    /** A failed scan of a generation: retried after aps.impact.interval, not at every reconcile. */
    private record Failure(long generation, Instant at) {}

    private final KubernetesClient client;
    private final ImpactScanner config;
    private final OperatorMetrics metrics;
    private final PolicyReportWriter reports;
    private final Clock clock = Clock.systemUTC();
    private final SimpleInboundEventSource<AdmissionPolicySet> scanned = new SimpleInboundEventSource<>("impact-scans");
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "aps-impact-scan");
        t.setDaemon(true);
        return t;
    });

    private final Object lock = new Object();
    /** Waiting requests by set uid, oldest first. Guarded by {@link #lock}, as are the next two. */
    private final Map<String, Request> pending = new LinkedHashMap<>();
    private Request running;
    private boolean draining;
    private volatile boolean abandon;
    private volatile boolean stopped;
    /** The status.impact this operator last wrote, by set uid (the set's cache may not have it yet). */
    private final Map<String, ImpactStatus> written = new ConcurrentHashMap<>();
    private final Map<String, Failure> failures = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicInteger abandoned = new java.util.concurrent.atomic.AtomicInteger();

    public ImpactScans(KubernetesClient client, ImpactScanner config, OperatorMetrics metrics, PolicyReportWriter reports) {
        this.client = client;
        this.config = config;
        this.metrics = metrics;
        this.reports = reports;
    }

    /** Reconciles a set when its scan has finished (registered by the reconciler). */
    EventSource<Void, AdmissionPolicySet> eventSource() {
        return scanned;
    }

    /**
     * The set with the {@code status.impact} this operator last wrote for it, when that differs from the cached one
     * (the informer has not delivered the patch yet); otherwise the set itself.
     */
    AdmissionPolicySet withLatest(AdmissionPolicySet set) {
        ImpactStatus ours = written.get(set.getMetadata().getUid());
        if (ours == null || set.getStatus() == null
                || Objects.equals(JSON.valueToTree(ours), JSON.valueToTree(set.getStatus().getImpact()))) {
            return set;
        }
        AdmissionPolicySet copy = Serialization.clone(set);
        copy.getStatus().setImpact(JSON.convertValue(ours, ImpactStatus.class));
        return copy;
    }

    /** Asks for a scan of the set's applied generation if one is due; never waits for it. */
    void requestIfDue(AdmissionPolicySet set, List<RenderedObject> configuration, KubeVersion version) {
        Instant now = clock.instant();
        if (!config.due(set, now)) {
            return;
        }
        String uid = set.getMetadata().getUid();
        long generation = set.getMetadata().getGeneration() == null ? 0 : set.getMetadata().getGeneration();
        Failure failed = failures.get(uid);
        if (failed != null && failed.generation() == generation && failed.at().plus(config.interval()).isAfter(now)) {
            return;
        }
        request(new Request(set.getMetadata().getName(), uid, generation, configuration, version,
                set.getStatus() == null ? null : set.getStatus().getImpact()));
    }

    void request(Request r) {
        synchronized (lock) {
            if (stopped) {
                return;
            }
            if (running != null && running.uid().equals(r.uid())) {
                if (running.generation() >= r.generation()) {
                    return; // already scanning it (or a newer one: a late reconcile of an older generation asks nothing)
                }
                LOG.infof("AdmissionPolicySet %s: abandoning the impact scan of generation %d; generation %d is "
                        + "scanned next", r.set(), running.generation(), r.generation());
                abandon = true;
            }
            Request queued = pending.get(r.uid());
            if (queued != null && queued.generation() >= r.generation()) {
                return;
            }
            pending.put(r.uid(), r);
            if (!draining) {
                draining = true;
                worker.execute(this::drain);
            }
        }
    }

    /** The set is deleted: its waiting scan goes, its running one stops. */
    void forget(AdmissionPolicySet set) {
        String uid = set.getMetadata().getUid();
        synchronized (lock) {
            pending.remove(uid);
            if (running != null && running.uid().equals(uid)) {
                abandon = true;
            }
        }
        written.remove(uid);
        failures.remove(uid);
    }

    /** Shutdown: nothing new starts; the running scan ends before its next list request. */
    @PreDestroy
    void stop() {
        stopped = true;
        abandon = true;
        worker.shutdownNow();
    }

    /** Scans stopped before they finished because their set changed or went (tests). */
    int abandoned() {
        return abandoned.get();
    }

    private void drain() {
        while (true) {
            Request next;
            synchronized (lock) {
                Iterator<Request> it = pending.values().iterator();
                if (stopped || !it.hasNext()) {
                    draining = false;
                    return;
                }
                next = it.next();
                it.remove();
                running = next;
                abandon = false;
            }
            try {
                scan(next);
            } catch (RuntimeException e) {
                LOG.errorf(e, "AdmissionPolicySet %s: impact scan failed unexpectedly", next.set());
            } finally {
                synchronized (lock) {
                    running = null;
                }
            }
        }
    }

    private void scan(Request r) {
        Instant started = clock.instant();
        String startedAt = rfc3339(started);
        ImpactStatus last = written.getOrDefault(r.uid(), r.last());
        long[] lastProgress = {System.nanoTime()};
        ClusterObjectPages[] source = new ClusterObjectPages[1];
        source[0] = new ClusterObjectPages(client, config.kinds(), config.pageSize(), () -> stopped || abandon, () -> {
            if (System.nanoTime() - lastProgress[0] >= config.progressInterval().toNanos()) {
                lastProgress[0] = System.nanoTime();
                patch(r, ImpactStatuses.running(last, progress(startedAt, source[0])));
            }
        });
        if (!patch(r, ImpactStatuses.running(last, progress(startedAt, source[0])))) {
            return; // the set is gone (or was created again): nothing to scan for
        }
        OpenReports.Options reporting = config.reporting(r.set(), started);
        try {
            ImpactScan.SourceScan scan = ImpactScan.scan(r.configuration(), source[0], r.version(),
                    new ImpactScan.Options(config.maxObjects(), config.samples(), null, reporting != null));
            ImpactStatus result = ImpactStatuses.of(scan, r.configuration(), r.generation(), startedAt);
            ImpactStatus done = ImpactStatuses.finished(result, progress(startedAt, source[0]), rfc3339(clock.instant()));
            failures.remove(r.uid());
            if (!patch(r, done)) {
                return;
            }
            LOG.infof("AdmissionPolicySet %s: impact scan of generation %d finished: %d object(s) in %d page(s), %d ms "
                            + "(%d ms reading pages)", r.set(), r.generation(), source[0].objects(), source[0].pages(),
                    java.time.Duration.between(started, clock.instant()).toMillis(), source[0].readingMillis());
            metrics.impact(r.set(), done);
            if (reporting != null) {
                reports.write(r.set(), OpenReports.of(scan.report(), reporting));
            }
            scanned.propagateEvent(new ResourceID(r.set()));
        } catch (CancellationException e) {
            if (!stopped) {
                abandoned.incrementAndGet();
            }
            LOG.infof("AdmissionPolicySet %s: impact scan of generation %d stopped after %d object(s)%s", r.set(),
                    r.generation(), source[0].objects(), stopped ? " (shutdown)" : "");
        } catch (RuntimeException e) {
            if (stopped) {
                // shutdown closes the client under a running list: that is the stop, not a failure of the scan
                LOG.infof("AdmissionPolicySet %s: impact scan of generation %d stopped by shutdown", r.set(), r.generation());
                return;
            }
            failures.put(r.uid(), new Failure(r.generation(), started));
            String why = describe(e);
            LOG.warnf("AdmissionPolicySet %s: impact scan of generation %d failed: %s", r.set(), r.generation(), why);
            patch(r, ImpactStatuses.failed(last, progress(startedAt, source[0]), rfc3339(clock.instant()), why));
        }
    }

    private static ImpactStatuses.Progress progress(String startedAt, ClusterObjectPages source) {
        return new ImpactStatuses.Progress(startedAt, source.objects(), source.pages(), source.inconsistent());
    }

    /**
     * {@code status.impact} := status, if the set is still the one scanned (its uid); returns whether it was written.
     * A JSON patch of the one field: the reconciler's conditions and rows are not touched.
     */
    private boolean patch(Request r, ImpactStatus status) {
        ArrayNode ops = JSON.createArrayNode();
        ops.addObject().put("op", "test").put("path", "/metadata/uid").put("value", r.uid());
        ops.addObject().put("op", "add").put("path", "/status/impact").set("value", JSON.valueToTree(status));
        try {
            client.resources(AdmissionPolicySet.class).withName(r.set()).subresource("status")
                    .patch(PatchContext.of(PatchType.JSON), ops.toString());
            written.put(r.uid(), status);
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404 || e.getCode() == 422) {
                LOG.debugf("AdmissionPolicySet %s: impact status not written (%d): the set is gone or was replaced",
                        r.set(), e.getCode());
                return false;
            }
            LOG.warnf("AdmissionPolicySet %s: could not write status.impact (%s); the next scan writes it", r.set(),
                    describe(e));
            return false;
        }
    }

    static String describe(RuntimeException e) {
        if (e instanceof KubernetesClientException k) {
            String message = k.getStatus() != null && k.getStatus().getMessage() != null ? k.getStatus().getMessage()
                    : k.getMessage();
            String hint = k.getCode() == 403 ? "; grant list on it in the operator's ClusterRole (config/rbac) or "
                    + "leave its kind out of aps.impact.kinds" : "";
            return (k.getCode() <= 0 ? "no response" : "HTTP " + k.getCode()) + ": " + message + hint;
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static String rfc3339(Instant t) {
        return t.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}

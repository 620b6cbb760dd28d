package dev.policyset.aps.operator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.api.v1alpha1.ImpactStatus;
import dev.policyset.aps.core.evaluate.KindResources;
import dev.policyset.aps.core.impact.ExistingObjectSource;
import dev.policyset.aps.core.impact.OpenReports;
import dev.policyset.aps.core.plan.PlanInput;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import io.javaoperatorsdk.operator.processing.event.EventSourceRetriever;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Gather for the impact scan: one informer per kind in {@code aps.impact.kinds} (over every object of that kind,
 * cluster-wide; events from them never trigger a reconcile), read as core's {@link ExistingObjectSource}; and the
 * rate limit: a set is scanned when its generation has no scan yet or its last scan is older than
 * {@code aps.impact.interval}. Core decides which kinds a set's policies need and runs the scan.
 */
@ApplicationScoped
public class ImpactScanner {
    private static final ObjectMapper JSON = Serialization.jsonMapper();
    private static final String PREFIX = "impact.";

    private final boolean enabled;
    private final Duration interval;
    private final int maxObjects;
    private final int samples;
    private final List<GroupVersionKind> kinds;
    private final boolean reports;
    private final Set<String> reportResults;
    private final int reportMaxResults;

    public ImpactScanner(@ConfigProperty(name = "aps.impact.enabled", defaultValue = "true") boolean enabled,
                         @ConfigProperty(name = "aps.impact.interval", defaultValue = "PT10M") Duration interval,
                         @ConfigProperty(name = "aps.impact.max-objects", defaultValue = "5000") int maxObjects,
                         @ConfigProperty(name = "aps.impact.samples", defaultValue = "5") int samples,
                         @ConfigProperty(name = "aps.impact.kinds", defaultValue = DEFAULT_KINDS) List<String> kinds,
                         @ConfigProperty(name = "aps.reports.enabled", defaultValue = "false") boolean reports,
                         @ConfigProperty(name = "aps.reports.results", defaultValue = "fail,error,warn") String reportResults,
                         @ConfigProperty(name = "aps.reports.max-results", defaultValue = "1000") int reportMaxResults) {
        this.enabled = enabled;
        this.reports = reports;
        this.reportResults = OpenReports.parseFilter(reportResults);
        this.reportMaxResults = reportMaxResults;
        // checked at start-up: a bad filter or cap stops the operator with the key's name, not the first scan
        new OpenReports.Options("check", this.reportResults, reportMaxResults, Instant.EPOCH, java.util.Map.of());
        this.interval = interval;
        this.maxObjects = maxObjects;
        this.samples = samples;
        this.kinds = kinds.stream().map(String::trim).filter(k -> !k.isEmpty()).map(ImpactScanner::parse).toList();
    }

    /** The kinds the operator's ClusterRole lets it list and watch (config/rbac/role.yaml). */
    public static final String DEFAULT_KINDS = "v1/Namespace,v1/Pod,apps/v1/Deployment,apps/v1/StatefulSet,"
            + "apps/v1/DaemonSet,apps/v1/ReplicaSet,batch/v1/Job,batch/v1/CronJob";

    static GroupVersionKind parse(String gvk) {
        String[] parts = gvk.split("/");
        if (parts.length == 2) {
            return new GroupVersionKind("", parts[0], parts[1]);
        }
        if (parts.length == 3) {
            return new GroupVersionKind(parts[0], parts[1], parts[2]);
        }
        throw new IllegalArgumentException("aps.impact.kinds: " + gvk + " is not [GROUP/]VERSION/Kind, e.g. apps/v1/Deployment");
    }

    public boolean enabled() {
        return enabled;
    }

    public Duration interval() {
        return interval;
    }

    /** One informer per kind; their events map to no set (a pod's change is not a reason to reconcile). */
    List<EventSource<?, AdmissionPolicySet>> eventSources(EventSourceContext<AdmissionPolicySet> context) {
        List<EventSource<?, AdmissionPolicySet>> sources = new ArrayList<>();
        if (!enabled) {
            return sources;
        }
        for (GroupVersionKind gvk : kinds) {
            var config = InformerEventSourceConfiguration.from(gvk, AdmissionPolicySet.class)
                    .withName(name(gvk))
                    .withSecondaryToPrimaryMapper((GenericKubernetesResource r) -> Set.of())
                    .build();
            sources.add(new InformerEventSource<>(config, context));
        }
        return sources;
    }

    /** The scan this reconcile should run, or empty when the set's last scan is recent enough for its generation. */
    Optional<PlanInput.Scan> due(AdmissionPolicySet set, EventSourceRetriever<AdmissionPolicySet> sources, Instant now) {
        if (!enabled || Boolean.TRUE.equals(set.getSpec() == null ? null : set.getSpec().getPaused())) {
            return Optional.empty();
        }
        ImpactStatus last = set.getStatus() == null ? null : set.getStatus().getImpact();
        Long generation = set.getMetadata().getGeneration();
        if (last != null && last.getGeneration() != null && last.getGeneration().equals(generation)
                && !olderThan(last.getScannedAt(), now, interval)) {
            return Optional.empty();
        }
        String name = set.getMetadata().getName();
        OpenReports.Options reporting = !reports ? null : new OpenReports.Options(reportName(name), reportResults,
                reportMaxResults, now, java.util.Map.of(AdmissionPolicySet.SET_LABEL, name));
        return Optional.of(new PlanInput.Scan(source(sources), now.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString(),
                maxObjects, samples, reporting));
    }

    /** Whether scans also produce policy reports ({@code aps.reports.enabled}). */
    public boolean reports() {
        return reports;
    }

    /** {@code aps-<set>}: one name per set, so reports of several sets in one namespace do not collide. */
    static String reportName(String set) {
        String name = "aps-" + set;
        return name.length() <= 253 ? name : set;
    }

    private static boolean olderThan(String time, Instant now, Duration interval) {
        try {
            return time == null || !Instant.parse(time).plus(interval).isAfter(now);
        } catch (DateTimeParseException e) {
            return true;
        }
    }

    ExistingObjectSource source(EventSourceRetriever<AdmissionPolicySet> sources) {
        return new ExistingObjectSource() {
            @Override
            public List<Resource> resources() {
                return kinds.stream().map(k -> new Resource(k.getGroup(), k.getVersion(), KindResources.resourceOf(k.getKind())))
                        .toList();
            }

            @Override
            public int count(Resource resource) {
                return informer(resource).map(es -> (int) es.list().count()).orElse(0);
            }

            @Override
            public List<ObjectNode> list(Resource resource, int limit) {
                GroupVersionKind gvk = gvk(resource);
                return informer(resource).map(es -> es.list().limit(limit).map(r -> {
                    ObjectNode o = (ObjectNode) JSON.valueToTree(r);
                    o.put("apiVersion", gvk.apiVersion());
                    o.put("kind", gvk.getKind());
                    return o;
                }).toList()).orElse(List.of());
            }

            private GroupVersionKind gvk(Resource resource) {
                return kinds.stream().filter(k -> k.getGroup().equals(resource.group()) && k.getVersion().equals(resource.version())
                        && KindResources.resourceOf(k.getKind()).equals(resource.resource())).findFirst().orElseThrow();
            }

            @SuppressWarnings("unchecked")
            private Optional<InformerEventSource<GenericKubernetesResource, AdmissionPolicySet>> informer(Resource resource) {
                try {
                    return Optional.of((InformerEventSource<GenericKubernetesResource, AdmissionPolicySet>) sources
                            .getEventSourceFor(GenericKubernetesResource.class, name(gvk(resource))));
                } catch (RuntimeException e) {
                    return Optional.empty();
                }
            }
        };
    }

    static String name(GroupVersionKind gvk) {
        return PREFIX + KindResources.resourceOf(gvk.getKind()) + "." + (gvk.getGroup().isEmpty() ? "core" : gvk.getGroup())
                + "." + gvk.getVersion();
    }
}

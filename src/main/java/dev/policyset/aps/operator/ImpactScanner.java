package dev.policyset.aps.operator;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.api.v1alpha1.ImpactStatus;
import dev.policyset.aps.core.impact.OpenReports;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The impact scan's configuration ({@code aps.impact.*}, {@code aps.reports.*}) and its rate: a set is due for a scan
 * when its generation has no finished scan yet or its last finished scan is older than {@code aps.impact.interval}.
 * {@link ImpactScans} runs the scans; core decides which kinds a set's policies need and evaluates them.
 */
@ApplicationScoped
public class ImpactScanner {
    private final boolean enabled;
    private final Duration interval;
    private final int maxObjects;
    private final int samples;
    private final int pageSize;
    private final Duration progressInterval;
    private final List<GroupVersionKind> kinds;
    private final boolean reports;
    private final Set<String> reportResults;
    private final int reportMaxResults;

    public ImpactScanner(@ConfigProperty(name = "aps.impact.enabled", defaultValue = "true") boolean enabled,
                         @ConfigProperty(name = "aps.impact.interval", defaultValue = "PT10M") Duration interval,
                         @ConfigProperty(name = "aps.impact.max-objects", defaultValue = "0") int maxObjects,
                         @ConfigProperty(name = "aps.impact.samples", defaultValue = "5") int samples,
                         @ConfigProperty(name = "aps.impact.page-size", defaultValue = "500") int pageSize,
                         @ConfigProperty(name = "aps.impact.progress-interval", defaultValue = "PT5S") Duration progressInterval,
                         @ConfigProperty(name = "aps.impact.kinds", defaultValue = DEFAULT_KINDS) List<String> kinds,
                         @ConfigProperty(name = "aps.reports.enabled", defaultValue = "false") boolean reports,
                         @ConfigProperty(name = "aps.reports.results", defaultValue = "fail,error,warn") String reportResults,
                         @ConfigProperty(name = "aps.reports.max-results", defaultValue = "1000") int reportMaxResults) {
        if (pageSize < 1) {
            throw new IllegalArgumentException("aps.impact.page-size: " + pageSize + " is not a page size; give the "
                    + "objects per list request, at least 1 (default 500)");
        }
        if (maxObjects < 0) {
            throw new IllegalArgumentException("aps.impact.max-objects: " + maxObjects + " is negative; give 0 (no "
                    + "limit, the default) or the most objects one scan evaluates");
        }
        this.enabled = enabled;
        this.reports = reports;
        this.reportResults = OpenReports.parseFilter(reportResults);
        this.reportMaxResults = reportMaxResults;
        // checked at start-up: a bad filter or cap stops the operator with the key's name, not the first scan
        new OpenReports.Options("check", this.reportResults, reportMaxResults, Instant.EPOCH, Map.of());
        this.interval = interval;
        this.maxObjects = maxObjects;
        this.samples = samples;
        this.pageSize = pageSize;
        this.progressInterval = progressInterval;
        this.kinds = kinds.stream().map(String::trim).filter(k -> !k.isEmpty()).map(ImpactScanner::parse).toList();
    }

    /** The kinds the operator's ClusterRole lets it list (config/rbac/role.yaml). */
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

    /** Objects evaluated per scan at most; 0: no limit. */
    int maxObjects() {
        return maxObjects;
    }

    int samples() {
        return samples;
    }

    /** Objects per list request ({@code limit}). */
    int pageSize() {
        return pageSize;
    }

    /** How often a running scan writes its progress into status at most. */
    Duration progressInterval() {
        return progressInterval;
    }

    List<GroupVersionKind> kinds() {
        return kinds;
    }

    /**
     * Whether the set's generation needs a scan, by its last finished scan ({@code status.impact.generation} and
     * {@code scannedAt}; a running or failed scan's progress fields do not count). Paused sets are not scanned.
     */
    boolean due(AdmissionPolicySet set, Instant now) {
        if (!enabled || Boolean.TRUE.equals(set.getSpec() == null ? null : set.getSpec().getPaused())) {
            return false;
        }
        ImpactStatus last = set.getStatus() == null ? null : set.getStatus().getImpact();
        Long generation = set.getMetadata().getGeneration();
        return last == null || last.getGeneration() == null || !last.getGeneration().equals(generation)
                || olderThan(last.getScannedAt(), now, interval);
    }

    /** The policy report options of one scan, or null when reports are off. */
    OpenReports.Options reporting(String set, Instant now) {
        return !reports ? null : new OpenReports.Options(reportName(set), reportResults, reportMaxResults, now,
                Map.of(AdmissionPolicySet.SET_LABEL, set));
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

    static boolean olderThan(String time, Instant now, Duration interval) {
        try {
            return time == null || !Instant.parse(time).plus(interval).isAfter(now);
        } catch (DateTimeParseException e) {
            return true;
        }
    }
}

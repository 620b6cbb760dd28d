package dev.policyset.aps.operator;

import dev.policyset.aps.core.plan.DryRunRejection;
import dev.policyset.aps.core.plan.Write;
import dev.policyset.aps.core.util.BoundedMaps;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Remembers generations whose staged param policies were refused, so that the refusal is not asked again at once.
 * Staging creates a policy before the dry run and the rollback deletes it again: both are events on objects the set
 * owns, so each refusal started the next reconcile, which staged, was refused and rolled back again: a loop of
 * create, dry run and delete against the API server for as long as the generation stays refused (seen as a test that
 * found the rolled-back policy back again). Within {@link #RETRY} the same writes get the remembered refusal without a
 * request; after it they are asked again, so a permission granted later is still found (on the next resync or event).
 */
final class StagingRefusals {
    static final Duration RETRY = Duration.ofSeconds(60);

    private record Refusal(Instant at, List<DryRunRejection> rejections) {}

    private final Map<List<Write>, Refusal> refused = BoundedMaps.leastRecentlyUsed(1_000);
    private final Clock clock;

    StagingRefusals(Clock clock) {
        this.clock = clock;
    }

    /** The refusal remembered for exactly these writes, if it is younger than {@link #RETRY}. */
    List<DryRunRejection> recent(List<Write> writes) {
        Refusal r = refused.get(writes);
        if (r == null || !clock.instant().isBefore(r.at().plus(RETRY))) {
            return List.of();
        }
        return r.rejections();
    }

    void remember(List<Write> writes, List<DryRunRejection> rejections) {
        refused.put(List.copyOf(writes), new Refusal(clock.instant(), List.copyOf(rejections)));
    }
}

package dev.policyset.aps.core.plan;

import java.util.List;
import java.util.Optional;

/**
 * What the set's deletion does to its objects: delete them ({@code deletionPolicy: Delete}) or release them
 * ({@code Orphan}: set label and owner reference removed, the objects stay), bindings before their policies.
 */
public record Release(boolean orphan, List<Removal> objects) {
    public static final String DELETED = "Deleted";
    public static final String ORPHANED = "Orphaned";

    public Release {
        objects = List.copyOf(objects);
    }

    /** The Normal event once done; none when the set owned nothing. */
    public Optional<PlanEvent> event() {
        if (objects.isEmpty()) {
            return Optional.empty();
        }
        List<String> ids = objects.stream().map(Removal::id).toList();
        return Optional.of(orphan
                ? new PlanEvent(false, ORPHANED, "released " + ids + " (deletionPolicy Orphan)")
                : new PlanEvent(false, DELETED, "deleted " + ids + " (deletionPolicy Delete)"));
    }
}

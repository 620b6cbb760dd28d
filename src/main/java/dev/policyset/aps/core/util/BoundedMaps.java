package dev.policyset.aps.core.util;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The caches of validation (environments, compile results, planned programs, cost analyses, type checks): the
 * operator is long-running and validates the same expressions on every reconcile, so results are kept, bounded.
 */
public final class BoundedMaps {
    private BoundedMaps() {}

    /** A thread-safe map that forgets its least recently used entry past {@code maxEntries}. */
    public static <K, V> Map<K, V> leastRecentlyUsed(int maxEntries) {
        return leastRecentlyUsed(() -> maxEntries);
    }

    /** As {@link #leastRecentlyUsed(int)}, with a bound read at every insertion (a run may raise it). */
    public static <K, V> Map<K, V> leastRecentlyUsed(java.util.function.IntSupplier maxEntries) {
        return Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > maxEntries.getAsInt();
            }
        });
    }
}

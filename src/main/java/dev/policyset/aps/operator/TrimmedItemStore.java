package dev.policyset.aps.operator;

import dev.policyset.aps.core.plan.ManagedFieldOwners;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;

import java.util.List;
import java.util.stream.Stream;

/**
 * The informer cache of an owned kind, without what nobody reads: {@code metadata.managedFields} when only the
 * operator's own field manager (and status writers) appear in it. {@link ManagedFieldOwners#others} reads
 * managedFields to find fields another manager owns alone; with no other manager on the object's main resource it
 * answers "none" whether or not our own entry is there, so dropping the list changes no plan. Our own entry
 * mirrors everything the set renders and was about a third of each cached object. An object another manager has
 * touched keeps its whole list (our entry is then needed to tell "theirs alone" from "shared").
 *
 * <p>Objects are trimmed in place as the informer stores them, before its handlers see them, so the cache and
 * the events agree.
 */
final class TrimmedItemStore implements ItemStore<GenericKubernetesResource> {
    private final BasicItemStore<GenericKubernetesResource> store = new BasicItemStore<>(Cache::metaNamespaceKeyFunc);

    @Override
    public GenericKubernetesResource put(String key, GenericKubernetesResource object) {
        return store.put(key, trim(object));
    }

    static GenericKubernetesResource trim(GenericKubernetesResource object) {
        if (object.getMetadata() != null && onlyOurs(object.getMetadata().getManagedFields())) {
            object.getMetadata().setManagedFields(null);
        }
        return object;
    }

    /** No entry of another manager on the main resource; a status subresource's entry never owns rendered fields. */
    private static boolean onlyOurs(List<ManagedFieldsEntry> entries) {
        return entries != null && !entries.isEmpty() && entries.stream().allMatch(e ->
                ManagedFieldOwners.FIELD_MANAGER.equals(e.getManager()) || "status".equals(e.getSubresource()));
    }

    @Override
    public String getKey(GenericKubernetesResource object) {
        return store.getKey(object);
    }

    @Override
    public GenericKubernetesResource remove(String key) {
        return store.remove(key);
    }

    @Override
    public Stream<String> keySet() {
        return store.keySet();
    }

    @Override
    public Stream<GenericKubernetesResource> values() {
        return store.values();
    }

    @Override
    public int size() {
        return store.size();
    }

    @Override
    public GenericKubernetesResource get(String key) {
        return store.get(key);
    }
}

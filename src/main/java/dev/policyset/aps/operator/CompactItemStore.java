package dev.policyset.aps.operator;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.core.plan.ManagedFieldOwners;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;

/**
 * An informer cache, compact: each object is held as its JSON, deflated, without what nobody reads. A fabric8 object
 * is a tree of Java objects, LinkedHashMaps and Strings several times the size of its JSON; the reconciler turns
 * every object it reads into JSON for the planner anyway, so decoding on read costs little (a few objects a
 * reconcile) and the caches, the bulk of the operator's heap per set, shrink to their bytes. Every read decodes a
 * new object, so no caller can change what the cache holds.
 *
 * <p>{@link #ownedObjects()} (the informers of the kinds a set renders) drops {@code metadata.managedFields} when
 * only the operator's own field manager (and status writers) appear in it. {@link ManagedFieldOwners#others} reads
 * managedFields to find fields another manager owns alone; with no other manager on the object's main resource it
 * answers "none" whether or not our own entry is there, so dropping the list changes no plan. An object another
 * manager has touched keeps its whole list (our entry is then needed to tell "theirs alone" from "shared").
 *
 * <p>{@link Sets} (the sets' own informer, named in the reconciler's {@code @ControllerConfiguration}) drops a
 * set's managedFields always: nothing reads them, and a status update without them leaves them as they are (the API
 * server never resets managedFields from a request that leaves them out).
 */
class CompactItemStore<T extends HasMetadata> implements ItemStore<T> {
    private static final ObjectMapper JSON = Serialization.jsonMapper();

    private final Map<String, byte[]> store = new ConcurrentHashMap<>();
    private final Class<T> type;
    private final UnaryOperator<T> trim;

    private CompactItemStore(Class<T> type, UnaryOperator<T> trim) {
        this.type = type;
        this.trim = trim;
    }

    /** The store of an owned kind's informer. */
    static CompactItemStore<GenericKubernetesResource> ownedObjects() {
        return new CompactItemStore<>(GenericKubernetesResource.class, CompactItemStore::trim);
    }

    /** The store of the sets' informer; QOSDK makes it from the class at build time. */
    public static final class Sets extends CompactItemStore<AdmissionPolicySet> {
        public Sets() {
            super(AdmissionPolicySet.class, set -> {
                set.getMetadata().setManagedFields(null);
                return set;
            });
        }
    }

    @Override
    public T put(String key, T object) {
        return decode(store.put(key, encode(trim.apply(object))));
    }

    /** The object without managedFields when only the operator (or a status writer) is in them; changed in place. */
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
    public String getKey(T object) {
        return Cache.metaNamespaceKeyFunc(object);
    }

    @Override
    public T remove(String key) {
        return decode(store.remove(key));
    }

    @Override
    public Stream<String> keySet() {
        return store.keySet().stream();
    }

    @Override
    public Stream<T> values() {
        return store.values().stream().map(this::decode);
    }

    @Override
    public int size() {
        return store.size();
    }

    @Override
    public T get(String key) {
        return decode(store.get(key));
    }

    /**
     * JSON, deflated (repeated keys, names and server defaults): the operator's byte arrays went from 19.1 KiB a set
     * (plain JSON, 1,000 sets) to 12.0 (2,000 sets) in the class histograms of ReconcileRealServerBenchmark.
     */
    private static byte[] encode(HasMetadata object) {
        Deflater deflater = new Deflater(Deflater.BEST_SPEED);
        try (ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
             DeflaterOutputStream zip = new DeflaterOutputStream(out, deflater)) {
            JSON.writeValue(zip, object);
            zip.finish();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode " + object.getKind() + " " + object.getMetadata().getName(), e);
        } finally {
            deflater.end();
        }
    }

    private T decode(byte[] compressed) {
        if (compressed == null) {
            return null;
        }
        Inflater inflater = new Inflater();
        try (InflaterInputStream in = new InflaterInputStream(new ByteArrayInputStream(compressed), inflater)) {
            return JSON.readValue(in, type);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot decode a cached " + type.getSimpleName(), e);
        } finally {
            inflater.end();
        }
    }
}

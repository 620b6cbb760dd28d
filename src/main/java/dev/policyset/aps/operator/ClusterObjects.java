package dev.policyset.aps.operator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.plan.ManagedFieldOwners;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Map;

/**
 * Every request the operator makes on the objects it owns. Writes use server-side apply under one field
 * manager: the applied configuration holds exactly what the set renders, so fields others own (cert-manager's
 * {@code caBundle}, server defaults) stay theirs. {@code force} takes back fields a hand edit moved to another
 * manager; it is only ever used on objects the set owns (core's planner checks ownership, APS403, first).
 * There are no reads here: the reconciler reads from its informer caches.
 */
@ApplicationScoped
public class ClusterObjects {
    /** The one field manager for everything the operator applies. */
    public static final String FIELD_MANAGER = ManagedFieldOwners.FIELD_MANAGER;

    private final KubernetesClient client;

    public ClusterObjects(KubernetesClient client) {
        this.client = client;
    }

    /** Server-side dry run of the apply ({@code dryRun=All}): the whole admission chain runs, nothing is stored. */
    public GenericKubernetesResource dryRun(AdmissionKind kind, String version, GenericKubernetesResource object) {
        return client.genericKubernetesResources(ManagedKinds.context(kind, version)).resource(object)
                .dryRun().fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
    }

    public GenericKubernetesResource apply(AdmissionKind kind, String version, GenericKubernetesResource object) {
        return client.genericKubernetesResources(ManagedKinds.context(kind, version)).resource(object)
                .fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
    }

    /**
     * Server-side apply without force (the contested-field guard, APS405): fields another manager holds stay
     * theirs, and the API server answers 409 Conflict naming that manager and the fields.
     */
    public GenericKubernetesResource applyUnforced(AdmissionKind kind, String version, GenericKubernetesResource object) {
        return client.genericKubernetesResources(ManagedKinds.context(kind, version)).resource(object)
                .fieldManager(FIELD_MANAGER).serverSideApply();
    }

    public void delete(AdmissionKind kind, String version, String name) {
        client.genericKubernetesResources(ManagedKinds.context(kind, version)).withName(name).delete();
    }

    /**
     * Releases an object: removes the set label and the set's owner reference (so the garbage collector keeps
     * it), keeping everything else. A JSON merge patch, because it removes rather than declares.
     */
    public void orphan(AdmissionKind kind, String version, GenericKubernetesResource object, String setUid) {
        List<OwnerReference> others = object.getMetadata().getOwnerReferences() == null ? List.of()
                : object.getMetadata().getOwnerReferences().stream().filter(r -> !setUid.equals(r.getUid())).toList();
        ObjectNode patch = Serialization.jsonMapper().createObjectNode();
        ObjectNode metadata = patch.putObject("metadata");
        metadata.putObject("labels").putNull(AdmissionPolicySet.SET_LABEL);
        if (others.isEmpty()) {
            metadata.putNull("ownerReferences");
        } else {
            metadata.set("ownerReferences", Serialization.jsonMapper().valueToTree(others));
        }
        client.genericKubernetesResources(ManagedKinds.context(kind, version)).withName(object.getMetadata().getName())
                .patch(PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(patch));
    }

    static String label(GenericKubernetesResource r) {
        Map<String, String> labels = r.getMetadata() == null ? null : r.getMetadata().getLabels();
        return labels == null ? null : labels.get(AdmissionPolicySet.SET_LABEL);
    }
}

package dev.policyset.aps.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySetStatus;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.LiveObject;
import dev.policyset.aps.core.plan.ManagedFieldOwners;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;

class CompactItemStoreTest {
    private static final ObjectMapper JSON = Serialization.jsonMapper();
    private static final String OURS = """
            {"manager": "admission-policy-operator", "operation": "Apply", "apiVersion": "admissionregistration.k8s.io/v1",
             "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:failurePolicy": {}, "f:validations": {}}}}""";
    private static final String TYPE_CHECKER = """
            {"manager": "kube-apiserver", "operation": "Update", "apiVersion": "admissionregistration.k8s.io/v1",
             "subresource": "status", "fieldsType": "FieldsV1", "fieldsV1": {"f:status": {"f:typeChecking": {}}}}""";
    /** After someone else's forced apply took failurePolicy from the operator. */
    private static final String OURS_LESS_FAILURE_POLICY = """
            {"manager": "admission-policy-operator", "operation": "Apply", "apiVersion": "admissionregistration.k8s.io/v1",
             "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:validations": {}}}}""";
    private static final String HAND_EDIT = """
            {"manager": "kubectl-edit", "operation": "Update", "apiVersion": "admissionregistration.k8s.io/v1",
             "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:failurePolicy": {}}}}""";
    private static final JsonNode DESIRED = read("""
            {"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicy",
             "metadata": {"name": "p"}, "spec": {"failurePolicy": "Fail", "validations": [{"expression": "true"}]}}""");

    @Test
    void theOperatorsOwnEntryAloneIsDroppedAndNoPlanCanTell() {
        GenericKubernetesResource object = vap(OURS, TYPE_CHECKER);
        Map<String, List<String>> before = ManagedFieldOwners.others(live(object), DESIRED);

        CompactItemStore<GenericKubernetesResource> store = CompactItemStore.ownedObjects();
        store.put(store.getKey(object), object);

        GenericKubernetesResource cached = store.get("p");
        assertEquals(List.of(), cached.getMetadata().getManagedFields(), "only the operator and the status writer: nothing to keep");
        assertNull(object.getMetadata().getManagedFields(), "trimmed in place: the informer's handlers see what the cache holds");
        assertEquals(before, ManagedFieldOwners.others(live(cached), DESIRED));
        assertEquals("Fail", ((Map<?, ?>) cached.getAdditionalProperties().get("spec")).get("failurePolicy"), "the rest stays");
    }

    @Test
    void anotherManagersEntryKeepsTheWholeListForTheOwnershipCheck() {
        GenericKubernetesResource object = vap(OURS_LESS_FAILURE_POLICY, HAND_EDIT);
        Map<String, List<String>> before = ManagedFieldOwners.others(live(object), DESIRED);
        assertFalse(before.isEmpty(), "the hand edit owns failurePolicy alone");

        GenericKubernetesResource cached = CompactItemStore.trim(object);
        assertNotNull(cached.getMetadata().getManagedFields());
        assertEquals(2, cached.getMetadata().getManagedFields().size());
        assertEquals(before, ManagedFieldOwners.others(live(cached), DESIRED));
    }

    @Test
    void everyReadIsANewCopyOfWhatWasStored() {
        GenericKubernetesResource object = vap();
        CompactItemStore<GenericKubernetesResource> store = CompactItemStore.ownedObjects();
        assertNull(store.put("p", object), "nothing before");
        GenericKubernetesResource read = store.get("p");
        assertNotSame(object, read);
        assertEquals(object, read, "an object without managedFields is stored as it is");
        read.getMetadata().setName("changed by a caller");
        assertEquals("p", store.get("p").getMetadata().getName(), "what a caller does to its copy stays there");
        assertEquals(List.of("p"), store.keySet().toList());
        assertEquals(List.of(object), store.values().toList());

        GenericKubernetesResource replaced = store.put("p", vap(OURS));
        assertEquals(object, replaced, "put answers the previous object (the informer's update event and indexes need it)");
        assertEquals(object.getMetadata().getName(), store.remove("p").getMetadata().getName());
        assertEquals(0, store.size());
        assertNull(store.get("p"));
    }

    @Test
    void theSetsStoreKeepsSpecAndStatusAndDropsManagedFields() {
        AdmissionPolicySet set = dev.policyset.aps.operator.testing.Sets.six("s", "needs a team label");
        set.getMetadata().setManagedFields(List.of(JSON.convertValue(read(HAND_EDIT), ManagedFieldsEntry.class)));
        set.setStatus(new AdmissionPolicySetStatus());
        set.getStatus().setObservedGeneration(3L);
        AdmissionPolicySet expected = Serialization.clone(set);
        expected.getMetadata().setManagedFields(List.of());

        CompactItemStore<AdmissionPolicySet> store = new CompactItemStore.Sets();
        store.put(store.getKey(set), set);

        AdmissionPolicySet cached = store.get("s");
        assertEquals(List.of(), cached.getMetadata().getManagedFields(), "nothing reads a set's managedFields");
        assertEquals(JSON.valueToTree(expected), JSON.valueToTree(cached), "spec and status as they were");
        assertEquals(3L, cached.getStatus().getObservedGeneration());
    }

    private static GenericKubernetesResource vap(String... managedFields) {
        ObjectNode vap = (ObjectNode) DESIRED.deepCopy();
        var entries = ((ObjectNode) vap.get("metadata")).putArray("managedFields");
        for (String entry : managedFields) {
            entries.add(read(entry));
        }
        if (managedFields.length == 0) {
            ((ObjectNode) vap.get("metadata")).remove("managedFields");
        }
        return JSON.convertValue(vap, GenericKubernetesResource.class);
    }

    private static LiveObject live(GenericKubernetesResource r) {
        return new LiveObject(AdmissionKind.VALIDATING_ADMISSION_POLICY, r.getMetadata().getName(), (ObjectNode) JSON.valueToTree(r));
    }

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }
}

package dev.policyset.aps.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.LiveObject;
import dev.policyset.aps.core.plan.ManagedFieldOwners;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

class TrimmedItemStoreTest {
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

        TrimmedItemStore store = new TrimmedItemStore();
        store.put(store.getKey(object), object);

        GenericKubernetesResource cached = store.get("p");
        assertSame(object, cached, "trimmed in place: the informer's handlers see what the cache holds");
        assertNull(cached.getMetadata().getManagedFields(), "only the operator and the status writer: nothing to keep");
        assertEquals(before, ManagedFieldOwners.others(live(cached), DESIRED));
        assertEquals("Fail", ((Map<?, ?>) cached.getAdditionalProperties().get("spec")).get("failurePolicy"), "the rest stays");
    }

    @Test
    void anotherManagersEntryKeepsTheWholeListForTheOwnershipCheck() {
        GenericKubernetesResource object = vap(OURS_LESS_FAILURE_POLICY, HAND_EDIT);
        Map<String, List<String>> before = ManagedFieldOwners.others(live(object), DESIRED);
        assertFalse(before.isEmpty(), "the hand edit owns failurePolicy alone");

        GenericKubernetesResource cached = TrimmedItemStore.trim(object);
        assertNotNull(cached.getMetadata().getManagedFields());
        assertEquals(2, cached.getMetadata().getManagedFields().size());
        assertEquals(before, ManagedFieldOwners.others(live(cached), DESIRED));
    }

    @Test
    void anObjectWithoutManagedFieldsIsStoredAsItIs() {
        GenericKubernetesResource object = vap();
        TrimmedItemStore store = new TrimmedItemStore();
        store.put("p", object);
        assertEquals(1, store.size());
        assertSame(object, store.remove("p"));
        assertEquals(0, store.size());
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

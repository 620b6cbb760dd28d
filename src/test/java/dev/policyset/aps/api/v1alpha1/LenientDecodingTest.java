package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.PolicySetReader;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stored sets the API classes cannot read decode anyway (so the informer never stops), with the mapper the Quarkus
 * client uses: a plain ObjectMapper, which fails on unknown properties.
 */
class LenientDecodingTest {
    /** As io.quarkus.kubernetes.client.runtime.KubernetesClientObjectMapperProducer builds it, then fabric8's modules. */
    private static final KubernetesSerialization CLIENT = new KubernetesSerialization(new ObjectMapper(), false);
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String GOOD_MEMBER = """
            {"name": "p", "policy": {"validations": [{"expression": "true"}]}}""";

    @Test
    void unknownFieldsAreIgnored() {
        AdmissionPolicySet set = decode("""
                {"futureTopLevel": {"x": 1}, "prune": false,
                 "validatingPolicies": [{"name": "p", "futureMemberField": "v", "policy": {"validations": [{"expression": "true"}]}}]}""");
        assertFalse(set.getSpec() instanceof UndecodableSpec);
        assertEquals(Boolean.FALSE, set.getSpec().getPrune());
        assertEquals("p", set.getSpec().getValidatingPolicies().get(0).getName());
    }

    @Test
    void aValueOfTheWrongTypeKeepsTheStoredSpecAndDecodesTheRest() {
        String spec = """
                {"prune": "maybe", "deletionPolicy": "Orphan", "validatingPolicies": [%s]}""".formatted(GOOD_MEMBER);
        AdmissionPolicySet set = decode(spec);
        UndecodableSpec undecodable = assertInstanceOf(UndecodableSpec.class, set.getSpec());
        assertTrue(undecodable.problem().startsWith("spec.prune: "), undecodable.problem());
        assertEquals(DeletionPolicy.Orphan, set.getSpec().getDeletionPolicy());
        assertEquals("p", set.getSpec().getValidatingPolicies().get(0).getName());
        assertNull(set.getSpec().getPrune());
        // As JSON (what the operator hands to core) it is the stored spec, unchanged: the reader reports the field.
        JsonNode document = CLIENT.convertValue(set, JsonNode.class);
        assertEquals(read(spec), document.get("spec"));
        List<Finding> findings = PolicySetReader.read(document).findings();
        assertTrue(findings.stream().anyMatch(f -> f.isError() && "spec.prune".equals(f.field())), findings.toString());
    }

    @Test
    void aWrongTypeDeepInsideAnEmbeddedKubernetesTypeIsCaughtToo() {
        AdmissionPolicySet set = decode("""
                {"validatingPolicies": [{"name": "p", "policy": {"validations": "not a list"}}]}""");
        UndecodableSpec undecodable = assertInstanceOf(UndecodableSpec.class, set.getSpec());
        assertTrue(undecodable.problem().startsWith("spec.validatingPolicies[0].policy.validations: "), undecodable.problem());
    }

    @Test
    void aDeletionPolicyThatDoesNotDecodeMeansOrphan() {
        AdmissionPolicySet set = decode("""
                {"deletionPolicy": "orphan-please", "validatingPolicies": [%s]}""".formatted(GOOD_MEMBER));
        assertEquals(DeletionPolicy.Orphan, set.getSpec().getDeletionPolicy());
    }

    @Test
    void aStatusThatDoesNotDecodeIsNone() {
        AdmissionPolicySet set = CLIENT.unmarshal("""
                {"apiVersion": "admission.policyset.dev/v1alpha1", "kind": "AdmissionPolicySet", "metadata": {"name": "s"},
                 "spec": {"validatingPolicies": [%s]}, "status": {"conditions": "broken", "unknownStatusField": 1}}"""
                .formatted(GOOD_MEMBER), AdmissionPolicySet.class);
        assertNull(set.getStatus());
        assertEquals("p", set.getSpec().getValidatingPolicies().get(0).getName());
    }

    @Test
    void anUndecodableSetSurvivesACloneAndIsStillUndecodable() {
        AdmissionPolicySet set = decode("""
                {"prune": "maybe", "validatingPolicies": [%s]}""".formatted(GOOD_MEMBER));
        AdmissionPolicySet clone = CLIENT.clone(set);
        assertInstanceOf(UndecodableSpec.class, clone.getSpec());
        assertEquals(CLIENT.convertValue(set, JsonNode.class), CLIENT.convertValue(clone, JsonNode.class));
    }

    private static AdmissionPolicySet decode(String spec) {
        return CLIENT.unmarshal("""
                {"apiVersion": "admission.policyset.dev/v1alpha1", "kind": "AdmissionPolicySet", "metadata": {"name": "s"},
                 "spec": %s}""".formatted(spec), AdmissionPolicySet.class);
    }

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}

package dev.policyset.aps.operator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.api.v1alpha1.FindingStatus;
import dev.policyset.aps.api.v1alpha1.UndecodableSpec;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.operator.testing.ApplyAwareDispatcher.Request;
import dev.policyset.aps.operator.testing.ApsMockServer;
import dev.policyset.aps.operator.testing.Sets;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sets the operator's classes cannot decode, stored by the schema-less mock server as a real API server would
 * store them after a CRD upgrade that went ahead of the operator (unknown fields) or as only a schema-less server
 * would (wrong types). Before lenient decoding either stopped the fabric8 watch on all sets for good.
 */
@QuarkusTest
@QuarkusTestResource(value = ApsMockServer.class, restrictToAnnotatedClass = true)
class UndecodableSetReconcilerTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ResourceDefinitionContext SETS = new ResourceDefinitionContext.Builder()
            .withGroup(AdmissionPolicySet.GROUP).withVersion(AdmissionPolicySet.VERSION).withKind(AdmissionPolicySet.KIND)
            .withPlural("admissionpolicysets").withNamespaced(false).build();

    @Inject
    KubernetesClient client;

    @Test
    void unknownFieldsAreIgnoredAndTheSetIsApplied() {
        createRaw(Sets.six("newer", "from a newer CRD"), spec -> {
            spec.put("fieldFromANewerCrd", "x");
            ((ObjectNode) spec.withArray("validatingPolicies").get(0)).putObject("memberFieldFromANewerCrd").put("a", 1);
        });
        AdmissionPolicySet ready = await().atMost(WAIT).until(() -> get("newer"), s -> conditionIs(s, "Ready", "True"));
        assertEquals(6, ready.getStatus().getResources().size());
    }

    @Test
    void aSetWithAWrongTypeIsReportedWhileTheOthersKeepBeingReconciled() {
        createRaw(Sets.validating("wrongtype", "wrongtype-a"), spec -> spec.put("prune", "maybe"));
        AdmissionPolicySet stalled = await().atMost(WAIT).until(() -> get("wrongtype"), s -> conditionIs(s, "Stalled", "True"));
        assertInstanceOf(UndecodableSpec.class, stalled.getSpec());
        assertEquals("ValidationFailed", condition(stalled, "Ready").getReason());
        assertEquals("False", condition(stalled, "Ready").getStatus());
        FindingStatus finding = stalled.getStatus().getFindings().stream().filter(f -> "spec.prune".equals(f.getField()))
                .findFirst().orElseThrow(() -> new AssertionError(stalled.getStatus().getFindings().toString()));
        assertEquals("error", finding.getSeverity());
        awaitEvent("wrongtype", "ValidationFailed");
        assertTrue(client.genericKubernetesResources(ManagedKinds.context(AdmissionKind.VALIDATING_ADMISSION_POLICY, "v1"))
                .withName("wrongtype-a").get() == null, "nothing of an invalid set is applied");

        // The watch on sets is alive: a set created afterwards is applied, and the bad one once fixed.
        client.resource(Sets.validating("after", "after-a")).create();
        await().atMost(WAIT).until(() -> get("after"), s -> conditionIs(s, "Ready", "True"));
        client.genericKubernetesResources(SETS).withName("wrongtype").edit(r -> {
            ((java.util.Map<String, Object>) r.getAdditionalProperties().get("spec")).put("prune", true);
            return r;
        });
        await().atMost(WAIT).until(() -> get("wrongtype"), s -> conditionIs(s, "Ready", "True"));
    }

    @Test
    void aGoodSetUpdatedToAWrongTypeKeepsItsObjectsUntouched() {
        client.resource(Sets.six("lastgood", "kept")).create();
        await().atMost(WAIT).until(() -> get("lastgood"), s -> conditionIs(s, "Ready", "True"));
        int mark = ApsMockServer.dispatcher().mark();
        client.genericKubernetesResources(SETS).withName("lastgood").edit(r -> {
            ((java.util.Map<String, Object>) r.getAdditionalProperties().get("spec")).put("defaults", List.of("not", "an", "object"));
            return r;
        });
        AdmissionPolicySet stalled = await().atMost(WAIT).until(() -> get("lastgood"),
                s -> conditionIs(s, "Stalled", "True") && s.getStatus().getObservedGeneration() == 2L);
        assertTrue(stalled.getStatus().getFindings().stream().anyMatch(f -> "spec.defaults".equals(f.getField())),
                stalled.getStatus().getFindings().toString());
        List<Request> writes = ApsMockServer.dispatcher().since(mark).stream()
                .filter(r -> r.isWrite() && !r.isDryRun() && r.path().contains("/lastgood-")).toList();
        assertEquals(List.of(), writes, "the last good generation's objects are not written while the set is invalid");
        for (String vap : List.of("lastgood-vap")) {
            assertTrue(client.genericKubernetesResources(ManagedKinds.context(AdmissionKind.VALIDATING_ADMISSION_POLICY, "v1"))
                    .withName(vap).get() != null, vap + " was removed");
        }
    }

    // ------------------------------------------------------------------------------------------------ helpers

    /** Creates the set as a generic object, after {@code edit} changed its spec in ways the typed classes cannot. */
    private void createRaw(AdmissionPolicySet set, Consumer<ObjectNode> edit) {
        ObjectNode document = JSON.valueToTree(set);
        edit.accept((ObjectNode) document.get("spec"));
        client.genericKubernetesResources(SETS).resource(JSON.convertValue(document, GenericKubernetesResource.class)).create();
    }

    private AdmissionPolicySet get(String name) {
        return client.resources(AdmissionPolicySet.class).withName(name).get();
    }

    private void awaitEvent(String set, String reason) {
        await().atMost(WAIT).until(() -> client.v1().events().inNamespace("default").list().getItems().stream()
                .map(Event.class::cast)
                .anyMatch(e -> set.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason())));
    }

    private static Condition condition(AdmissionPolicySet set, String type) {
        return set.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst()
                .orElseThrow(() -> new AssertionError("no condition " + type));
    }

    private static boolean conditionIs(AdmissionPolicySet set, String type, String status) {
        return set != null && set.getStatus() != null && set.getStatus().getConditions() != null
                && set.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals(type) && c.getStatus().equals(status));
    }
}

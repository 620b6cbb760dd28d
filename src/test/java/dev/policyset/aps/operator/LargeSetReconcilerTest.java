package dev.policyset.aps.operator;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.operator.testing.ApsMockServer;
import dev.policyset.aps.operator.testing.Sets;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A set far above 64 KiB (100 members, 200 objects) through create, watch, status and drift repair. 64 KiB is the
 * Vert.x websocket frame size: the mock server (Vert.x) sends a larger watch event as several frames, and the
 * fabric8 7.4.0 Vert.x client delivers a multi-frame message only when it is the first on its websocket
 * (fabric8io/kubernetes-client#7347, fixed in 7.5.0): every later event of that watch is stuck behind it.
 */
@QuarkusTest
@QuarkusTestResource(value = ApsMockServer.class, restrictToAnnotatedClass = true)
class LargeSetReconcilerTest {
    private static final Duration WAIT = Duration.ofMinutes(3);
    private static final int MEMBERS = 100;

    @Inject
    KubernetesClient client;

    @Test
    void aSetAbove64KiBRoundTripsThroughCreateWatchStatusAndDriftRepair() {
        // A small set first, so the large set's events are not the first messages on the sets watch.
        client.resource(Sets.validating("small", "small-a")).create();
        awaitReady("small", 1);

        AdmissionPolicySet big = large("first");
        int bytes = Serialization.asJson(big).getBytes(StandardCharsets.UTF_8).length;
        System.out.printf("LargeSetReconcilerTest: the set is %d KiB as JSON (spec only)%n", bytes / 1024);
        assertTrue(bytes > 96 * 1024, bytes + " bytes");
        client.resource(big).create();
        AdmissionPolicySet ready = awaitReady("big", 1);
        assertEquals(2 * MEMBERS, ready.getStatus().getResources().size());
        System.out.printf("LargeSetReconcilerTest: with status %d KiB%n",
                Serialization.asJson(ready).getBytes(StandardCharsets.UTF_8).length / 1024);

        // A new generation arrives through the (multi-frame) watch event of the large set.
        // edit() sends the resourceVersion it read: retry when the operator's status write came in between (409).
        await().atMost(WAIT).ignoreExceptions().until(() -> client.resources(AdmissionPolicySet.class).withName("big").edit(s -> {
            s.setSpec(large("second").getSpec());
            return s;
        }) != null);
        awaitReady("big", 2);
        assertEquals("second " + "x".repeat(900), message("big-p099"));

        // Drift on one of its objects is repaired.
        var vaps = client.genericKubernetesResources(ManagedKinds.context(AdmissionKind.VALIDATING_ADMISSION_POLICY, "v1"));
        await().atMost(WAIT).ignoreExceptions().until(() -> vaps.withName("big-p042").edit(r -> {
            spec(r).put("failurePolicy", "Ignore");
            return r;
        }) != null);
        await().atMost(WAIT).until(() -> "Fail".equals(spec(vaps.withName("big-p042").get()).get("failurePolicy")));

        // Later changes to other sets are still seen.
        client.resource(Sets.validating("after", "after-a")).create();
        awaitReady("after", 1);
        assertTrue(ApsMockServer.dispatcher().requests().size() > 0);
    }

    private static AdmissionPolicySet large(String text) {
        String[] names = IntStream.range(0, MEMBERS).mapToObj(i -> "big-p%03d".formatted(i)).toArray(String[]::new);
        AdmissionPolicySet set = Sets.validating("big", names);
        set.getSpec().getValidatingPolicies().forEach(m -> m.getPolicy().getValidations().get(0)
                .setMessage(text + " " + "x".repeat(900)));
        return set;
    }

    private AdmissionPolicySet awaitReady(String name, long generation) {
        return await().atMost(WAIT).pollInterval(Duration.ofMillis(500))
                .until(() -> client.resources(AdmissionPolicySet.class).withName(name).get(),
                        s -> s != null && s.getStatus() != null && s.getStatus().getObservedGeneration() != null
                                && s.getStatus().getObservedGeneration() == generation
                                && s.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True")));
    }

    @SuppressWarnings("unchecked")
    private String message(String vap) {
        GenericKubernetesResource r = client.genericKubernetesResources(
                ManagedKinds.context(AdmissionKind.VALIDATING_ADMISSION_POLICY, "v1")).withName(vap).get();
        return (String) ((List<Map<String, Object>>) spec(r).get("validations")).get(0).get("message");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource r) {
        return (Map<String, Object>) r.getAdditionalProperties().get("spec");
    }
}

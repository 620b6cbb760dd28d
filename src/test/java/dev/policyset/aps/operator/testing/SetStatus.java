package dev.policyset.aps.operator.testing;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.core.model.AdmissionKind;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.time.Duration;

import static org.awaitility.Awaitility.await;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Reading and changing sets in tests: their conditions, the names {@link Sets#six} gives its objects, Ready. */
public final class SetStatus {
    private SetStatus() {}

    public static AdmissionPolicySet get(KubernetesClient client, String name) {
        return client.resources(AdmissionPolicySet.class).withName(name).get();
    }

    /** Replaces the stored set's spec with {@code next}'s (a new generation). */
    public static void replaceSpec(KubernetesClient client, String name, AdmissionPolicySet next) {
        client.resources(AdmissionPolicySet.class).withName(name).edit(s -> {
            s.setSpec(next.getSpec());
            return s;
        });
    }

    /** Waits until the set reports Ready=True for {@code generation}. */
    public static AdmissionPolicySet awaitReady(KubernetesClient client, String name, long generation, Duration wait) {
        return await().atMost(wait).pollInterval(Duration.ofMillis(200)).until(() -> get(client, name),
                s -> s != null && s.getStatus() != null && s.getStatus().getObservedGeneration() != null
                        && s.getStatus().getObservedGeneration() == generation && conditionIs(s, "Ready", "True"));
    }

    public static String objectName(String set, AdmissionKind kind) {
        return set + "-" + switch (kind) {
            case VALIDATING_ADMISSION_POLICY -> "vap";
            case VALIDATING_ADMISSION_POLICY_BINDING -> "vap-binding";
            case MUTATING_ADMISSION_POLICY -> "map";
            case MUTATING_ADMISSION_POLICY_BINDING -> "map-binding";
            case VALIDATING_WEBHOOK_CONFIGURATION -> "vwc";
            case MUTATING_WEBHOOK_CONFIGURATION -> "mwc";
        };
    }

    public static Condition condition(AdmissionPolicySet set, String type) {
        return set.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst()
                .orElseThrow(() -> new AssertionError("no condition " + type));
    }

    public static boolean conditionIs(AdmissionPolicySet set, String type, String status) {
        return set != null && set.getStatus() != null && set.getStatus().getConditions() != null
                && set.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals(type) && c.getStatus().equals(status));
    }

    /** The condition's status, its reason (unless null), its observedGeneration and a transition time. */
    public static void assertCondition(AdmissionPolicySet set, String type, String status, String reason) {
        Condition c = condition(set, type);
        assertEquals(status, c.getStatus(), type + ": " + c.getMessage());
        if (reason != null) {
            assertEquals(reason, c.getReason(), type + ": " + c.getMessage());
        }
        assertEquals(set.getMetadata().getGeneration(), c.getObservedGeneration(), type + " observedGeneration");
        if (c.getLastTransitionTime() == null || c.getLastTransitionTime().isEmpty()) {
            throw new AssertionError(type + " has no lastTransitionTime");
        }
    }
}

package dev.policyset.aps.operator.testing;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.operator.ManagedKinds;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Reading and changing sets in tests: their conditions, Ready, the names {@link Sets#six} gives its objects, what a
 * generated policy holds, and how many reconciles the operator counted.
 */
public final class SetStatus {
    private SetStatus() {}

    public static AdmissionPolicySet get(KubernetesClient client, String name) {
        return client.resources(AdmissionPolicySet.class).withName(name).get();
    }

    /** Replaces the stored set's spec with {@code next}'s (a new generation). */
    public static void replaceSpec(KubernetesClient client, String name, AdmissionPolicySet next) {
        edit(client, name, s -> {
            s.setSpec(next.getSpec());
            return s;
        });
    }

    /**
     * A read-modify-write of the stored set, tried again on a conflict as {@code kubectl edit} and client-go's
     * RetryOnConflict do (5 attempts): edit() sends the resourceVersion it read, and the operator's status writes
     * (the reconcile's, then the impact scan's) can land in between.
     */
    public static AdmissionPolicySet edit(KubernetesClient client, String name, java.util.function.UnaryOperator<AdmissionPolicySet> change) {
        for (int attempt = 1; ; attempt++) {
            try {
                return client.resources(AdmissionPolicySet.class).withName(name).edit(change);
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == 5) {
                    throw e;
                }
            }
        }
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

    /** A field of the live ValidatingAdmissionPolicy's spec, or null when the policy is absent. */
    @SuppressWarnings("unchecked")
    public static Object vapField(KubernetesClient client, String name, String field) {
        GenericKubernetesResource vap = client.genericKubernetesResources(
                ManagedKinds.context(AdmissionKind.VALIDATING_ADMISSION_POLICY, "v1")).withName(name).get();
        return vap == null ? null : ((Map<String, Object>) vap.getAdditionalProperties().get("spec")).get(field);
    }

    /** The message of the live policy's first validation (the one {@link Sets} sets). */
    @SuppressWarnings("unchecked")
    public static String vapMessage(KubernetesClient client, String name) {
        return (String) ((List<Map<String, Object>>) vapField(client, name, "validations")).get(0).get("message");
    }

    /** The first validation's message of a ValidatingAdmissionPolicy as a watch delivers it; null when it has none. */
    @SuppressWarnings("unchecked")
    public static String message(GenericKubernetesResource vap) {
        Object spec = vap.getAdditionalProperties().get("spec");
        Object validations = spec instanceof Map<?, ?> m ? m.get("validations") : null;
        return validations instanceof List<?> l && !l.isEmpty() && l.get(0) instanceof Map<?, ?> v ? (String) v.get("message") : null;
    }

    /** {@code aps_reconciles_total} over all outcomes. */
    public static double reconciles(MeterRegistry registry) {
        return registry.find("aps.reconciles").counters().stream().mapToDouble(Counter::count).sum();
    }
}

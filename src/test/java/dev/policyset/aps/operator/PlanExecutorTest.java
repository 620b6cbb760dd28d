package dev.policyset.aps.operator;

import dev.policyset.aps.core.plan.DryRunRejection;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the executor passes on from the server (core turns it into findings) and which failures it retries. */
class PlanExecutorTest {
    @Test
    void aRefusalIsPassedOnAsTheServerSaidIt() {
        KubernetesClientException e = new KubernetesClientException(new StatusBuilder().withCode(422).withReason("Invalid")
                .withMessage("is invalid").withNewDetails().addNewCause().withReason("FieldValueInvalid")
                .withField("spec.validations[0].expression").withMessage("Invalid value: compilation failed").endCause()
                .endDetails().build());
        DryRunRejection r = PlanExecutor.rejection("ValidatingAdmissionPolicy/p", e, true);
        assertEquals("ValidatingAdmissionPolicy/p", r.objectId());
        assertEquals(422, r.code());
        assertEquals("Invalid", r.reason());
        assertEquals("is invalid", r.message());
        assertEquals(new DryRunRejection.Cause("FieldValueInvalid", "spec.validations[0].expression",
                "Invalid value: compilation failed"), r.causes().get(0));
    }

    @Test
    void onlyConflictsThrottlingServerErrorsAndIoAreRetried() {
        assertTrue(PlanExecutor.isTransient(new KubernetesClientException("io", 0, null)));
        assertTrue(PlanExecutor.isTransient(new KubernetesClientException("conflict", 409, null)));
        assertTrue(PlanExecutor.isTransient(new KubernetesClientException("slow down", 429, null)));
        assertTrue(PlanExecutor.isTransient(new KubernetesClientException("boom", 503, null)));
        assertFalse(PlanExecutor.isTransient(new KubernetesClientException("invalid", 422, null)));
        assertFalse(PlanExecutor.isTransient(new KubernetesClientException("denied", 403, null)));
    }
}

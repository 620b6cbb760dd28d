package dev.policyset.aps.operator;

import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.OperatorException;
import org.junit.jupiter.api.Test;

import java.net.SocketTimeoutException;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The start-up failure message names the likely cause; RBAC only when a permission was refused. */
class OperatorStartupTest {
    @Test
    void aDecodeErrorIsAVersionMismatchNotRbac() {
        var decode = new KubernetesClientException("An error has occurred.",
                MismatchedInputException.from(null, Boolean.class, "Cannot deserialize value of type `java.lang.Boolean`"));
        String message = OperatorStartup.explain("could not start watching the cluster", new OperatorException("Error starting operator", decode));
        assertTrue(message.contains("does not match this operator's classes"), message);
        assertFalse(message.contains("RBAC"), message);
    }

    @Test
    void aRefusedRequestOrAMissingLeasePermissionIsRbac() {
        String forbidden = OperatorStartup.explain("cannot list AdmissionPolicySets",
                new KubernetesClientException("Forbidden", 403, null));
        assertTrue(forbidden.contains("RBAC"), forbidden);
        String lease = OperatorStartup.explain("could not start watching the cluster",
                new OperatorException("Error starting operator", new OperatorException("No permission to lease resource. in namespace: x")));
        assertTrue(lease.contains("RBAC"), lease);
    }

    @Test
    void anythingElseSaysWhatFailedWithoutGuessingRbac() {
        String message = OperatorStartup.explain("could not start watching the cluster",
                new KubernetesClientException("timeout", new SocketTimeoutException("connect timed out")));
        assertTrue(message.contains("SocketTimeoutException: connect timed out"), message);
        assertFalse(message.contains("RBAC"), message);
    }
}

package dev.policyset.aps.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.policyset.aps.core.validate.Finding;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the operator sends and when it considers a live object in sync. The mock server does not model field
 * ownership, so the "never fight over fields others own" guarantee is pinned here: the applied configuration
 * holds only rendered fields, and fields added by the server or by others are not drift.
 */
class ConvergenceTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text.replace('\'', '"'));
    }

    @Test
    void serverDefaultsAndInjectedCaBundleAreNotDrift() throws Exception {
        JsonNode desired = json("{'webhooks':[{'name':'a.example.com','clientConfig':{'service':{'name':'s','namespace':'n'}},"
                + "'failurePolicy':'Ignore'}]}");
        JsonNode actual = json("{'webhooks':[{'name':'a.example.com','clientConfig':{'service':{'name':'s','namespace':'n','port':443},"
                + "'caBundle':'Y2VydA=='},'failurePolicy':'Ignore','matchPolicy':'Equivalent','timeoutSeconds':10}]}");
        assertTrue(Convergence.contains(actual, desired));
    }

    @Test
    void changedOrMissingRenderedFieldsAreDrift() throws Exception {
        JsonNode desired = json("{'spec':{'failurePolicy':'Fail','validations':[{'expression':'true'}]}}");
        assertFalse(Convergence.contains(json("{'spec':{'failurePolicy':'Ignore','validations':[{'expression':'true'}]}}"), desired));
        assertFalse(Convergence.contains(json("{'spec':{'failurePolicy':'Fail'}}"), desired));
        assertFalse(Convergence.contains(json("{'spec':{'failurePolicy':'Fail','validations':[{'expression':'true'},"
                + "{'expression':'false'}]}}"), desired), "an extra list element is drift");
    }

    @Test
    void emptyValuesMatchAbsentOnesAndNumbersCompareByValue() throws Exception {
        assertTrue(Convergence.contains(json("{'spec':{'a':1}}"), json("{'spec':{'a':1.0,'b':[],'c':{}}}")));
    }

    @Test
    void inSyncNeedsTheSetsOwnerReference() throws Exception {
        GenericKubernetesResource desired = Serialization.unmarshal("""
                {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy",
                 "metadata":{"name":"p","labels":{"admission.policyset.dev/set":"s"},
                   "ownerReferences":[{"apiVersion":"admission.policyset.dev/v1alpha1","kind":"AdmissionPolicySet","name":"s","uid":"u1","controller":true}]},
                 "spec":{"failurePolicy":"Fail"}}""", GenericKubernetesResource.class);
        GenericKubernetesResource live = Serialization.clone(desired);
        live.getMetadata().setResourceVersion("7");
        live.getMetadata().getOwnerReferences().add(0, new io.fabric8.kubernetes.api.model.OwnerReferenceBuilder()
                .withApiVersion("v1").withKind("Other").withName("x").withUid("u0").build());
        assertTrue(AdmissionPolicySetReconciler.inSync(desired, live), "another owner reference is not drift");
        live.getMetadata().getOwnerReferences().removeIf(r -> r.getUid().equals("u1"));
        assertFalse(AdmissionPolicySetReconciler.inSync(desired, live), "a lost owner reference is drift");
    }

    @Test
    void dryRunRejectionsBecomeApiFindingsOnTheirFields() {
        KubernetesClientException e = new KubernetesClientException(new StatusBuilder().withCode(422).withReason("Invalid")
                .withMessage("is invalid").withNewDetails().addNewCause().withReason("FieldValueInvalid")
                .withField("spec.validations[0].expression").withMessage("Invalid value: compilation failed").endCause()
                .addNewCause().withReason("FieldValueRequired").withField("spec.matchConstraints").withMessage("Required value")
                .endCause().endDetails().build());
        List<Finding> findings = AdmissionPolicySetReconciler.rejectionFindings("ValidatingAdmissionPolicy/p", e);
        assertEquals(List.of("api/Invalid", "api/Required"), findings.stream().map(Finding::rule).toList());
        assertEquals("spec.validations[0].expression", findings.get(0).field());
        assertTrue(findings.get(0).isError());

        KubernetesClientException denied = new KubernetesClientException(new StatusBuilder().withCode(403).withReason("Forbidden")
                .withMessage("admission webhook x denied the request").build());
        Finding f = AdmissionPolicySetReconciler.rejectionFindings("ValidatingWebhookConfiguration/w", denied).get(0);
        assertEquals("api/Forbidden", f.rule());
        assertTrue(f.message().contains("denied"));
    }

    @Test
    void onlyConflictsThrottlingServerErrorsAndIoAreRetried() {
        assertTrue(AdmissionPolicySetReconciler.isTransient(new KubernetesClientException("io", 0, null)));
        assertTrue(AdmissionPolicySetReconciler.isTransient(new KubernetesClientException("conflict", 409, null)));
        assertTrue(AdmissionPolicySetReconciler.isTransient(new KubernetesClientException("slow down", 429, null)));
        assertTrue(AdmissionPolicySetReconciler.isTransient(new KubernetesClientException("boom", 503, null)));
        assertFalse(AdmissionPolicySetReconciler.isTransient(new KubernetesClientException("invalid", 422, null)));
        assertFalse(AdmissionPolicySetReconciler.isTransient(new KubernetesClientException("denied", 403, null)));
    }
}

package dev.policyset.aps.core.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.Convergence;
import dev.policyset.aps.core.model.LiveObject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * When the planner considers a live object in sync, and how a refused dry run reads as findings. The mock server does not model field
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
        ObjectNode desired = (ObjectNode) JSON.readTree("""
                {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy",
                 "metadata":{"name":"p","labels":{"admission.policyset.dev/set":"s"},
                   "ownerReferences":[{"apiVersion":"admission.policyset.dev/v1alpha1","kind":"AdmissionPolicySet","name":"s","uid":"u1","controller":true}]},
                 "spec":{"failurePolicy":"Fail"}}""");
        ObjectNode live = desired.deepCopy();
        live.with("metadata").put("resourceVersion", "7");
        ((com.fasterxml.jackson.databind.node.ArrayNode) live.get("metadata").get("ownerReferences")).insertObject(0)
                .put("apiVersion", "v1").put("kind", "Other").put("name", "x").put("uid", "u0");
        assertTrue(Planner.inSync(desired, LiveObject.of(live).orElseThrow(), "u1"), "another owner reference is not drift");
        ((com.fasterxml.jackson.databind.node.ArrayNode) live.get("metadata").get("ownerReferences")).remove(1);
        assertFalse(Planner.inSync(desired, LiveObject.of(live).orElseThrow(), "u1"), "a lost owner reference is drift");
    }

    @Test
    void dryRunRejectionsBecomeApiFindingsOnTheirFields() {
        DryRunRejection invalid = new DryRunRejection("ValidatingAdmissionPolicy/p", 422, "Invalid", "is invalid", List.of(
                new DryRunRejection.Cause("FieldValueInvalid", "spec.validations[0].expression", "Invalid value: compilation failed"),
                new DryRunRejection.Cause("FieldValueRequired", "spec.matchConstraints", "Required value")));
        List<Finding> findings = invalid.findings();
        assertEquals(List.of("api/Invalid", "api/Required"), findings.stream().map(Finding::rule).toList());
        assertEquals("spec.validations[0].expression", findings.get(0).field());
        assertTrue(findings.get(0).isError());

        Finding f = new DryRunRejection("ValidatingWebhookConfiguration/w", 403, "Forbidden",
                "admission webhook x denied the request", List.of()).findings().get(0);
        assertEquals("api/Forbidden", f.rule());
        assertTrue(f.message().contains("denied"));
        assertEquals("api/Rejected", new DryRunRejection("X/y", 400, null, "bad", null).findings().get(0).rule());
    }
}

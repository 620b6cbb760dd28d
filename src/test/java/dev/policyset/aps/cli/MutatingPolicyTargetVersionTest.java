package dev.policyset.aps.cli;

import org.junit.jupiter.api.Test;

import static dev.policyset.aps.cli.RenderCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A set with mutatingPolicies against each --kube-version: below 1.32 no MutatingAdmissionPolicy version exists
 * (validate says so and what to do, render prints nothing for the set); 1.32 to 1.35 serve one only when the
 * cluster enables it (a warning on stderr); 1.36+ serve v1 by default (no warning). (#22 item 8)
 */
class MutatingPolicyTargetVersionTest {
    private static final String SET = "config/samples/mutating-defaults.yaml";
    private static final String NONE = "Kubernetes 1.30 serves no MutatingAdmissionPolicy API version";

    @Test
    void validateBelow132SaysWhatTheVersionServesAndWhatToDo() {
        // JSON: the messages whole (text output wraps them)
        RenderCommandTest.Run r = run("validate", "--kube-version", "1.30", "-o", "json", SET);
        assertEquals(ExitCodes.FINDINGS, r.exit(), r.out() + r.err());
        String messages = messages(r.out(), "api/NotSupported");
        assertFalse(messages.contains("supported values: \n") || messages.matches("(?s).*supported values: $"),
                "an empty list of supported values: " + messages);
        assertTrue(messages.contains("Unsupported value: \"admissionregistration.k8s.io/v1alpha1\": " + NONE), messages);
        assertTrue(messages.contains("write the mutations as spec.mutatingWebhooks instead of spec.mutatingPolicies"), messages);
        assertTrue(messages.contains("(--kube-version 1.32)"), messages);
        assertEquals(4, count(messages, NONE), "the two policies and their two bindings: " + messages);

        // The advice, taken: at 1.32 the set validates, with the caveat that the cluster must enable the alpha.
        RenderCommandTest.Run advised = run("validate", "--kube-version", "1.32", SET);
        assertEquals(ExitCodes.OK, advised.exit(), advised.out() + advised.err());
        assertTrue(advised.err().contains("aps validate: warning: Kubernetes 1.32 serves MutatingAdmissionPolicy as "
                + "admissionregistration.k8s.io/v1alpha1 only when the API server runs with "
                + "--feature-gates=MutatingAdmissionPolicy=true --runtime-config=admissionregistration.k8s.io/v1alpha1=true"),
                advised.err());
    }

    @Test
    void renderBelow132PrintsNothingForTheSetAndFails() {
        RenderCommandTest.Run r = run("render", "--kube-version", "1.31", SET);
        assertEquals(ExitCodes.FINDINGS, r.exit(), r.out() + r.err());
        assertFalse(r.out().contains("kind:"), "objects 1.31 cannot serve were printed: " + r.out());
        assertTrue(r.err().startsWith(SET + ":"), r.err());
        assertTrue(r.err().contains(": AdmissionPolicySet/mutating-defaults: spec.mutatingPolicies: Kubernetes 1.31 serves "
                + "no MutatingAdmissionPolicy API version"), r.err());
    }

    @Test
    void renderBelow132StillRendersSetsWithoutMutatingPolicies() {
        RenderCommandTest.Run r = run("render", "--kube-version", "1.30", "config/samples/baseline-security.yaml");
        assertEquals(ExitCodes.OK, r.exit(), r.err());
        assertTrue(r.out().contains("kind: ValidatingAdmissionPolicy"), r.out());
        assertEquals("", r.err());
    }

    @Test
    void renderFrom132To135WarnsThatTheVersionMustBeEnabled() {
        RenderCommandTest.Run alpha = run("render", "--kube-version", "1.33", SET);
        assertEquals(ExitCodes.OK, alpha.exit(), alpha.err());
        assertTrue(alpha.out().contains("apiVersion: admissionregistration.k8s.io/v1alpha1"), alpha.out());
        assertTrue(alpha.err().contains("aps render: warning: Kubernetes 1.33 serves MutatingAdmissionPolicy as "
                + "admissionregistration.k8s.io/v1alpha1 only when"), alpha.err());
        RenderCommandTest.Run beta = run("render", "--kube-version", "1.35", SET);
        assertEquals(ExitCodes.OK, beta.exit(), beta.err());
        assertTrue(beta.out().contains("apiVersion: admissionregistration.k8s.io/v1beta1"), beta.out());
        assertTrue(beta.err().contains("--feature-gates=MutatingAdmissionPolicy=true "
                + "--runtime-config=admissionregistration.k8s.io/v1beta1=true"), beta.err());
        RenderCommandTest.Run ga = run("render", "--kube-version", "1.36", SET);
        assertEquals(ExitCodes.OK, ga.exit(), ga.err());
        assertTrue(ga.out().contains("apiVersion: admissionregistration.k8s.io/v1\n"), ga.out());
        assertEquals("", ga.err(), "v1 is served by default from 1.36");
    }

    @Test
    void chainBelow132LeavesTheMutatingPoliciesOut() {
        RenderCommandTest.Run r = run("chain", "--kube-version", "1.31", "--resource", "v1/pods", "--operation", "CREATE",
                "-n", "team-a", SET);
        assertEquals(ExitCodes.OK, r.exit(), r.err());
        assertFalse(r.out().contains("MutatingAdmissionPolicy"), r.out());
        assertTrue(r.err().contains("aps chain: warning: 4 MutatingAdmissionPolicy object(s) left out: Kubernetes 1.31 "
                + "serves no MutatingAdmissionPolicy API version"), r.err());
        RenderCommandTest.Run served = run("chain", "--kube-version", "1.32", "--resource", "v1/pods", "--operation",
                "CREATE", "-n", "team-a", SET);
        assertTrue(served.out().contains("MutatingAdmissionPolicy default-image-pull-policy"), served.out());
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }

    /** The messages of the JSON findings of {@code rule}, one per line. */
    private static String messages(String json, String rule) {
        try {
            StringBuilder out = new StringBuilder();
            for (com.fasterxml.jackson.databind.JsonNode f : new com.fasterxml.jackson.databind.ObjectMapper().readTree(json).path("findings")) {
                if (f.path("rule").asText().equals(rule)) {
                    out.append(f.path("message").asText()).append('\n');
                }
            }
            return out.toString();
        } catch (java.io.IOException e) {
            throw new AssertionError(json, e);
        }
    }
}

package dev.policyset.aps.core.review;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.intercept.Operation;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pure half of {@code aps review}: request building, response checks, host names, the diff. */
class ReviewCoreTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode object(String json) throws Exception {
        return (ObjectNode) JSON.readTree(json);
    }

    private static ReviewRequest.Built build(Operation op, ObjectNode subject, ObjectNode old, String resource, String name,
                                             String namespace) {
        return ReviewRequest.build(new ReviewRequest.Inputs(op, subject, old, resource, null, name, namespace, "", List.of(), false));
    }

    @Test
    void namespacesAndScopesFollowTheApiServer() throws Exception {
        ObjectNode ns = object("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"team-a\"}}");
        assertEquals("", build(Operation.CREATE, ns, null, null, null, null).request().namespace(),
                "POST /api/v1/namespaces has no namespace");
        assertEquals("team-a", build(Operation.DELETE, ns, null, null, null, null).request().namespace(),
                "DELETE /api/v1/namespaces/team-a carries it");
        ObjectNode pod = object("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"a\"}}");
        ReviewRequest.Built conflict = build(Operation.CREATE, pod, null, null, null, "b");
        assertNull(conflict.request());
        assertTrue(conflict.problems().get(0).contains("does not match the namespace sent on the request"), conflict.problems().toString());
        ObjectNode bare = object("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"}}");
        ReviewRequest r = build(Operation.CREATE, bare, null, null, null, null).request();
        assertEquals("default", r.namespace());
        assertEquals("default", r.object().path("metadata").path("namespace").asText(), "the API server sets it on the object");
        ObjectNode node = object("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"}}");
        assertFalse(build(Operation.CREATE, node, null, null, null, "x").problems().isEmpty(), "nodes are cluster-scoped");
    }

    @Test
    void connectCarriesTheOptionsAsObjectAndNoOptions() throws Exception {
        ObjectNode exec = object("{\"apiVersion\":\"v1\",\"kind\":\"PodExecOptions\",\"command\":[\"sh\"]}");
        assertFalse(build(Operation.CONNECT, exec, null, null, "web", "a").problems().isEmpty(), "needs --resource");
        ReviewRequest r = ReviewRequest.build(new ReviewRequest.Inputs(Operation.CONNECT, exec, null, "v1/pods", "exec",
                "web", "a", "", List.of(), false)).request();
        ObjectNode review = AdmissionReviews.request(r, "u1", AdmissionReviews.V1);
        assertEquals("PodExecOptions", review.at("/request/kind/kind").asText());
        assertEquals("pods", review.at("/request/resource/resource").asText());
        assertEquals("exec", review.at("/request/subResource").asText());
        assertEquals("exec", review.at("/request/requestSubResource").asText());
        assertTrue(review.at("/request/options").isNull());
        assertEquals("sh", review.at("/request/object/command/0").asText());
    }

    private static ReviewResult check(ReviewRequest r, String version, boolean mutating, String body) {
        return ResponseCheck.check(r, "u1", version, new ResponseCheck.Traits("hook.example.com", mutating, 10, "Ignore"),
                new ResponseCheck.Answer(200, "application/json", body.getBytes(StandardCharsets.UTF_8), 5));
    }

    private static ReviewRequest pod() throws Exception {
        return build(Operation.CREATE, object("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"a\"}}"),
                null, null, null, null).request();
    }

    @Test
    void denialsReachTheClientAsToStatusErrWritesThem() throws Exception {
        ReviewResult noCode = check(pod(), "v1", false, "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\","
                + "\"response\":{\"uid\":\"u1\",\"allowed\":false,\"status\":{\"reason\":\"NoTeam\"}}}");
        assertEquals(403, noCode.decision().apiServerStatus());
        assertEquals("pods \"p\" is forbidden: admission webhook \"hook.example.com\" denied the request: NoTeam",
                noCode.decision().apiServerMessage());
        ReviewResult internal = check(pod(), "v1", false, "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\","
                + "\"response\":{\"uid\":\"u1\",\"allowed\":false,\"status\":{\"code\":500}}}");
        assertEquals("Internal error occurred: admission webhook \"hook.example.com\" denied the request without explanation",
                internal.decision().apiServerMessage());
        ReviewResult missing = check(pod(), "v1", false, "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\","
                + "\"response\":{\"uid\":\"u1\"}}");
        assertTrue(missing.denied(), "a missing allowed is false");
        assertTrue(missing.findings().stream().anyMatch(f -> f.check().equals("response.allowed")));
    }

    @Test
    void v1beta1PinsAPatchWithoutTypeToJsonPatchAndChecksNoUid() throws Exception {
        String patch = Base64.getEncoder().encodeToString("[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"x\":\"y\"}}]"
                .getBytes(StandardCharsets.UTF_8));
        ReviewResult r = check(pod(), "v1beta1", true, "{\"apiVersion\":\"admission.k8s.io/v1beta1\",\"kind\":\"AdmissionReview\","
                + "\"response\":{\"uid\":\"other\",\"allowed\":true,\"patch\":\"" + patch + "\"}}");
        assertFalse(r.hasErrors(), r.findings().toString());
        assertEquals("y", r.patched().at("/metadata/labels/x").asText());
        assertTrue(r.findings().stream().anyMatch(f -> f.severity() == Severity.WARNING && f.check().equals("response.uid")));
        ReviewResult v1 = check(pod(), "v1", true, "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\","
                + "\"response\":{\"uid\":\"u1\",\"allowed\":true,\"patchType\":\"JSONPatch\",\"patch\":\"%%%\"}}");
        assertTrue(v1.hasErrors());
        assertTrue(v1.findings().stream().anyMatch(f -> f.message().contains("not base64")), v1.findings().toString());
        assertTrue(v1.findings().stream().anyMatch(f -> f.message().startsWith("failurePolicy Ignore: the API server allows")),
                "an undecodable response is a call failure: Ignore fails open");
    }

    @Test
    void aFailedTestOperationIsAnErrorForWebhooks() throws Exception {
        String patch = Base64.getEncoder().encodeToString("[{\"op\":\"test\",\"path\":\"/metadata/name\",\"value\":\"q\"}]"
                .getBytes(StandardCharsets.UTF_8));
        ReviewResult r = check(pod(), "v1", true, "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\","
                + "\"response\":{\"uid\":\"u1\",\"allowed\":true,\"patchType\":\"JSONPatch\",\"patch\":\"" + patch + "\"}}");
        assertTrue(r.hasErrors(), "evanphx/json-patch fails the whole patch on a failed test (MAP's patcher does not)");
        assertNull(r.patched());
    }

    @Test
    void hostNamesMatchAsGoMatchesThem() {
        assertTrue(TlsNames.matches("*.webhooks.svc", "hook.webhooks.svc"));
        assertFalse(TlsNames.matches("*.svc", "hook.webhooks.svc"), "a wildcard is one label");
        assertFalse(TlsNames.matches("*.webhooks.svc", "webhooks.svc"));
        assertFalse(TlsNames.matches("h*.webhooks.svc", "hook.webhooks.svc"), "only a whole * label is a wildcard");
        assertTrue(TlsNames.matches("hook.webhooks.svc", "hook.webhooks.svc"));
    }

    @Test
    void theDiffShowsOnlyChangedHunks() {
        String a = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n";
        String b = "a\nb\nC\nd\ne\nf\ng\nh\ni\nj\nk\nL\n";
        List<String> d = LineDiff.unified(a, b, "object", "mutated");
        assertEquals(List.of("--- object", "+++ mutated", "@@ -1,6 +1,6 @@", " a", " b", "-c", "+C", " d", " e", " f",
                "@@ -9,4 +9,4 @@", " i", " j", " k", "-l", "+L"), d);
        assertTrue(LineDiff.unified(a, a, "x", "y").isEmpty());
    }
}

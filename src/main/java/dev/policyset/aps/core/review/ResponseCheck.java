package dev.policyset.aps.core.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.evaluate.JsonPatches;
import dev.policyset.aps.core.util.NameFormats;
import dev.policyset.aps.core.yaml.Yaml;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Checks a webhook's HTTP answer as the API server reads it, and says what the API server would do with it.
 *
 * <p>Sources, in the order they apply: client-go's REST client ({@code rest/request.go: transformResponse}: a status
 * outside 200–206 is an error, whatever the body); {@code webhook/request/admissionreview.go:
 * VerifyAdmissionResponse} (response present; for v1, {@code uid} echoed and apiVersion/kind
 * {@code admission.k8s.io/v1 AdmissionReview}; a mutating webhook sends {@code patch} and {@code patchType} together,
 * a validating one neither; v1beta1 checks none of these and pins a patch to JSONPatch);
 * {@code webhook/mutating/dispatcher.go: callAttrMutatingHook} (a denial ignores the patch; the patch is decoded with
 * evanphx/json-patch and must apply; no patch may touch a request without an object; only JSONPatch is supported);
 * {@code webhook/errors/statuserror.go: ToStatusErr} (how a denial reaches the client). A broken answer is a call
 * failure there: failurePolicy decides, and this class says which way.
 */
public final class ResponseCheck {
    /** The HTTP exchange, measured by the caller. */
    public record Answer(int status, String contentType, byte[] body, long elapsedMillis) {}

    /**
     * What the checks need to know about the webhook.
     *
     * @param failurePolicy Fail or Ignore; null when not known (a bare {@code --url})
     */
    public record Traits(String webhookName, boolean mutating, int timeoutSeconds, String failurePolicy) {}

    private ResponseCheck() {}

    public static ReviewResult check(ReviewRequest request, String uid, String reviewVersion, Traits traits, Answer answer) {
        Builder b = new Builder(traits);
        boolean v1 = reviewVersion.equals(AdmissionReviews.V1);
        if (answer.elapsedMillis() > traits.timeoutSeconds() * 1000L) {
            b.error("timeout", "answered after " + answer.elapsedMillis() + " ms, beyond timeoutSeconds "
                    + traits.timeoutSeconds() + ": the API server had already given up");
            return b.failed("context deadline exceeded");
        }
        if (answer.status() < 200 || answer.status() > 206) {
            b.error("http.status", "HTTP " + answer.status() + ": the API server treats any status outside 200-206 as a "
                    + "failed call, not as a decision, and does not read the body (" + excerpt(answer.body()) + "). "
                    + "To deny, answer 200 with response.allowed: false and response.status");
            return b.failed("an error on the server (\"" + excerpt(answer.body()) + "\") has prevented the request from succeeding");
        }
        String contentType = answer.contentType() == null ? "" : answer.contentType();
        String media = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        if (!media.equals("application/json")) {
            b.warning("http.contentType", "Content-Type is " + (contentType.isEmpty() ? "missing" : "\"" + contentType + "\"")
                    + ": the API server's client chooses its decoder by Content-Type, and not every version decodes an "
                    + "AdmissionReview sent as anything but application/json; send Content-Type: application/json");
        }
        JsonNode body;
        try {
            body = answer.body().length == 0 ? null : Yaml.mapper().readTree(answer.body());
        } catch (IOException e) {
            body = null;
            b.error("body", "the response body is not JSON (" + firstLine(e.getMessage()) + "; body: "
                    + excerpt(answer.body()) + "): the API server cannot decode it. Answer with a JSON AdmissionReview");
            return b.failed("failed to call webhook: " + firstLine(e.getMessage()));
        }
        if (body == null || !body.isObject()) {
            b.error("body", body == null ? "the response body is empty: answer with a JSON AdmissionReview"
                    : "the response body is JSON but not an object (" + excerpt(answer.body()) + "): answer with an AdmissionReview");
            return b.failed("failed to call webhook: the response is not an AdmissionReview");
        }
        b.response = body;
        String apiVersion = body.path("apiVersion").asText("");
        String kind = body.path("kind").asText("");
        String expected = "admission.k8s.io/" + reviewVersion;
        if (!apiVersion.equals(expected) || !kind.equals("AdmissionReview")) {
            String got = "got " + (apiVersion.isEmpty() ? "/" : apiVersion) + ", Kind=" + kind;
            if (v1) {
                b.error("apiVersion", "expected webhook response of " + expected + ", Kind=AdmissionReview, " + got
                        + ": set apiVersion and kind of the response to those of the request");
                return b.failed("received invalid webhook response: expected webhook response of " + expected
                        + ", Kind=AdmissionReview, " + got);
            }
            b.warning("apiVersion", "the response is not " + expected + " AdmissionReview (" + got + "); the API server "
                    + "does not check this for v1beta1, but v1 does: echo the request's apiVersion and kind");
        }
        JsonNode response = body.get("response");
        if (response == null || response.isNull()) {
            b.error("response", "webhook response was absent: the AdmissionReview has no response; put the decision in response");
            return b.failed("received invalid webhook response: webhook response was absent");
        }
        if (!response.isObject()) {
            b.error("response", "response is " + response.getNodeType().name().toLowerCase(Locale.ROOT)
                    + ", not an object: the API server cannot decode it");
            return b.failed("failed to call webhook: response is not an object");
        }
        String typeProblem = types(response);
        if (typeProblem != null) {
            b.error("response", typeProblem + ": the API server cannot decode the response");
            return b.failed("failed to call webhook: " + typeProblem);
        }
        String gotUid = response.path("uid").asText("");
        if (!gotUid.equals(uid)) {
            if (v1) {
                b.error("response.uid", "expected response.uid=\"" + uid + "\", got \"" + gotUid
                        + "\": echo request.uid in response.uid");
                return b.failed("received invalid webhook response: expected response.uid=\"" + uid + "\", got \"" + gotUid + "\"");
            }
            b.warning("response.uid", "response.uid is \"" + gotUid + "\", not the request's \"" + uid
                    + "\"; v1beta1 does not check it, v1 does: echo request.uid");
        }
        boolean hasPatch = response.hasNonNull("patch") && !response.get("patch").asText().isEmpty();
        JsonNode patchTypeNode = response.get("patchType");
        boolean hasPatchType = patchTypeNode != null && !patchTypeNode.isNull();
        if (v1 && traits.mutating()) {
            if (hasPatch && !hasPatchType) {
                b.error("response.patchType", "webhook returned response.patch but not response.patchType: set "
                        + "patchType: JSONPatch with every patch");
                return b.failed("received invalid webhook response: webhook returned response.patch but not response.patchType");
            }
            if (!hasPatch && hasPatchType) {
                b.error("response.patchType", "webhook returned response.patchType but not response.patch: leave "
                        + "patchType out when there is no patch");
                return b.failed("received invalid webhook response: webhook returned response.patchType but not response.patch");
            }
            if (hasPatchType && patchTypeNode.asText().isEmpty()) {
                b.error("response.patchType", "webhook returned invalid response.patchType of \"\": use JSONPatch");
                return b.failed("received invalid webhook response: webhook returned invalid response.patchType of \"\"");
            }
        } else if (v1) {
            if (hasPatch || hasPatchType) {
                String field = hasPatch ? "patch" : "patchType";
                b.error("response." + field, "validating webhook may not return response." + field
                        + ": a validating webhook cannot change the object (use a mutating webhook)");
                return b.failed("received invalid webhook response: validating webhook may not return response." + field);
            }
        } else if (hasPatch && !traits.mutating()) {
            b.warning("response.patch", "a validating webhook returned a patch: v1beta1 ignores it, v1 refuses the response");
            hasPatch = false;
        } else if (hasPatch && !hasPatchType) {
            b.warning("response.patchType", "patch without patchType: v1beta1 takes it as JSONPatch, v1 refuses the "
                    + "response; set patchType: JSONPatch");
        }
        warningsAndAnnotations(response, traits, b);
        if (!response.has("allowed")) {
            b.warning("response.allowed", "response.allowed is missing: the API server reads it as false and denies; "
                    + "always set it");
        }
        boolean allowed = response.path("allowed").asBoolean(false);
        JsonNode status = response.path("status");
        int code = status.path("code").asInt(0);
        String reason = status.path("reason").asText("");
        String message = status.path("message").asText("");
        if (!allowed) {
            b.decision = denied(request, traits, code, reason, message);
            if (code != 0 && code < 400) {
                b.warning("response.status.code", "a denial with status code " + code + ": clients see a failure "
                        + "with a success code; use a 4xx code (403 when in doubt) or leave it out");
            }
            if (hasPatch) {
                b.info("response.patch", "the request is denied, so the API server ignores the patch");
            }
            return b.build();
        }
        b.decision = new ReviewResult.Decision(true, code, reason, message, 0, "");
        if (hasPatch) {
            patch(request, response, traits, b);
        }
        return b.build();
    }

    /**
     * No answer to check (a timeout, a refused TLS handshake): what the API server does instead, by failurePolicy
     * ({@code mutating/dispatcher.go}: an {@code ErrCallingWebhook} fails open under Ignore, otherwise the request
     * fails with {@code failed calling webhook}).
     */
    public static ReviewResult callFailed(Traits traits, String check, String message, String cause) {
        Builder b = new Builder(traits);
        b.error(check, message);
        return b.failed(cause);
    }

    private static ReviewResult.Decision denied(ReviewRequest request, Traits traits, int code, String reason, String message) {
        int status = code == 0 ? 403 : code;
        String deniedBy = "admission webhook \"" + traits.webhookName() + "\" denied the request";
        String text = !message.isEmpty() ? deniedBy + ": " + message
                : !reason.isEmpty() ? deniedBy + ": " + reason : deniedBy + " without explanation";
        String name = request.name().isEmpty() ? "Unknown" : request.name();
        String groupResource = request.resource() + (request.resourceGroup().isEmpty() ? "" : "." + request.resourceGroup());
        String prefix = status == 500 ? "Internal error occurred" : groupResource + " \"" + name + "\" is forbidden";
        return new ReviewResult.Decision(false, code, reason, message, status, prefix + ": " + text);
    }

    private static void warningsAndAnnotations(JsonNode response, Traits traits, Builder b) {
        JsonNode warnings = response.get("warnings");
        if (warnings != null && warnings.isArray()) {
            warnings.forEach(w -> b.warnings.add(w.asText()));
        }
        JsonNode annotations = response.get("auditAnnotations");
        if (annotations != null && annotations.isObject()) {
            annotations.fields().forEachRemaining(e -> {
                b.annotations.put(e.getKey(), e.getValue().asText());
                // admission/attributes.go: AddAnnotation keeps only keys of the form <webhook name>/<qualified name>
                String key = traits.webhookName() + "/" + e.getKey();
                List<String> problems = e.getKey().contains("/") ? List.of("it contains '/'")
                        : NameFormats.qualifiedNameProblems(key);
                if (!problems.isEmpty()) {
                    b.warning("response.auditAnnotations", "audit annotation " + e.getKey() + " is dropped by the API "
                            + "server: the key becomes " + key + ", which is not a valid annotation key ("
                            + String.join("; ", problems) + ")");
                }
            });
        }
    }

    private static void patch(ReviewRequest request, JsonNode response, Traits traits, Builder b) {
        String type = response.path("patchType").asText("JSONPatch");
        if (!type.equals("JSONPatch")) {
            b.error("response.patchType", "unsupported patch type \"" + type + "\": the API server applies JSONPatch only");
            b.failedCall("failed calling webhook: unsupported patch type \"" + type + "\"");
            return;
        }
        byte[] bytes;
        try {
            bytes = Base64.getMimeDecoder().decode(strictBase64(response.get("patch").asText()));
        } catch (IllegalArgumentException e) {
            b.error("response.patch", "response.patch is not base64 (" + e.getMessage() + "): the API server cannot "
                    + "decode the response; send the JSON Patch base64-encoded");
            b.failedCall("failed to call webhook: illegal base64 data");
            return;
        }
        JsonNode decoded;
        try {
            decoded = Yaml.mapper().readTree(bytes);
        } catch (IOException e) {
            decoded = null;
        }
        if (decoded == null || !decoded.isArray()) {
            b.error("response.patch", "response.patch does not decode to a JSON Patch (a JSON array of operations): "
                    + excerpt(bytes));
            b.failedCall("received undecodable patch in webhook response");
            return;
        }
        ArrayNode ops = (ArrayNode) decoded;
        b.patch = ops;
        if (ops.isEmpty()) {
            b.info("response.patch", "the patch is empty: the object is unchanged");
            return;
        }
        if (request.object() == null) {
            b.error("response.patch", "admission webhook \"" + traits.webhookName() + "\" attempted to modify the object, "
                    + "which is not supported for this operation (" + request.operation() + " has no object): return no patch");
            b.refused("Internal error occurred: admission webhook \"" + traits.webhookName()
                    + "\" attempted to modify the object, which is not supported for this operation");
            return;
        }
        JsonPatches.Patched p = JsonPatches.applyWebhookPatch(request.object(), ops);
        if (p.error() != null) {
            b.error("response.patch", "the patch does not apply to the object: " + p.error()
                    + ". The API server fails the request (whatever the failurePolicy)");
            b.refused("Internal error occurred: " + p.error());
            return;
        }
        b.patched = p.object();
        if (p.object().equals(request.object())) {
            b.info("response.patch", "the patch leaves the object unchanged");
        }
    }

    /** Go's base64 decoding of a JSON {@code []byte} skips only CR and LF; the MIME decoder would skip more. */
    private static String strictBase64(String s) {
        String stripped = s.replace("\r", "").replace("\n", "");
        for (int i = 0; i < stripped.length(); i++) {
            char c = stripped.charAt(i);
            if (!(Character.isLetterOrDigit(c) && c < 128) && c != '+' && c != '/' && c != '=') {
                throw new IllegalArgumentException("illegal base64 data at input byte " + i);
            }
        }
        return stripped;
    }

    /** The JSON types the Go structs demand; a mismatch fails {@code json.Unmarshal} of the whole response. */
    private static String types(JsonNode r) {
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("uid", "string");
        expected.put("allowed", "boolean");
        expected.put("patch", "string");
        expected.put("patchType", "string");
        expected.put("status", "object");
        expected.put("warnings", "array");
        expected.put("auditAnnotations", "object");
        for (Map.Entry<String, String> e : expected.entrySet()) {
            JsonNode n = r.get(e.getKey());
            if (n == null || n.isNull()) {
                continue;
            }
            boolean ok = switch (e.getValue()) {
                case "string" -> n.isTextual();
                case "boolean" -> n.isBoolean();
                case "object" -> n.isObject();
                default -> n.isArray();
            };
            if (!ok) {
                return "response." + e.getKey() + " is " + n.getNodeType().name().toLowerCase(Locale.ROOT) + " "
                        + excerpt(n.toString().getBytes(StandardCharsets.UTF_8)) + ", expected a " + e.getValue();
            }
        }
        JsonNode status = r.get("status");
        if (status != null && status.isObject() && status.has("code") && !status.get("code").canConvertToInt()) {
            return "response.status.code is not an integer";
        }
        JsonNode warnings = r.get("warnings");
        if (warnings != null && warnings.isArray()) {
            for (JsonNode w : warnings) {
                if (!w.isTextual()) {
                    return "response.warnings holds a " + w.getNodeType().name().toLowerCase(Locale.ROOT) + ", expected strings";
                }
            }
        }
        JsonNode annotations = r.get("auditAnnotations");
        if (annotations != null && annotations.isObject()) {
            for (JsonNode a : annotations) {
                if (!a.isTextual()) {
                    return "response.auditAnnotations holds a " + a.getNodeType().name().toLowerCase(Locale.ROOT)
                            + " value, expected strings";
                }
            }
        }
        return null;
    }

    static String excerpt(byte[] body) {
        String s = new String(body, StandardCharsets.UTF_8).strip().replaceAll("\\s+", " ");
        return s.isEmpty() ? "empty body" : s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    private static final class Builder {
        final Traits traits;
        final List<ReviewFinding> findings = new ArrayList<>();
        final List<String> warnings = new ArrayList<>();
        final Map<String, String> annotations = new LinkedHashMap<>();
        ReviewResult.Decision decision;
        ArrayNode patch;
        ObjectNode patched;
        JsonNode response;

        Builder(Traits traits) {
            this.traits = traits;
        }

        void error(String check, String message) {
            findings.add(ReviewFinding.error(check, message));
        }

        void warning(String check, String message) {
            findings.add(ReviewFinding.warning(check, message));
        }

        void info(String check, String message) {
            findings.add(ReviewFinding.info(check, message));
        }

        /** The call failed: failurePolicy decides; no decision of the webhook stands. */
        ReviewResult failed(String cause) {
            failedCall(cause);
            decision = null;
            return build();
        }

        void failedCall(String cause) {
            String call = "failed calling webhook \"" + traits.webhookName() + "\": " + cause;
            String policy = traits.failurePolicy();
            // the API server's words once: the Fail and Ignore halves name the same error
            findings.add(ReviewFinding.info("failurePolicy", policy == null
                    ? "the API server's error is `" + call + "`: with failurePolicy Fail (the default) it refuses the "
                            + "request with it (Internal error occurred); with Ignore it allows the request without this "
                            + "webhook (fails open) and logs it"
                    : policy.equals("Ignore")
                            ? "failurePolicy Ignore: the API server allows the request without this webhook (fails open) and logs: " + call
                            : "failurePolicy " + policy + ": the API server refuses the request: Internal error occurred: " + call));
            decision = null;
        }

        /** The answer was read but the API server still fails the request, whatever the failurePolicy. */
        void refused(String message) {
            findings.add(ReviewFinding.info("outcome", "the API server refuses the request (500): " + message));
            decision = null;
        }

        ReviewResult build() {
            return new ReviewResult(decision, warnings, annotations, patch, patched, response, findings);
        }
    }
}

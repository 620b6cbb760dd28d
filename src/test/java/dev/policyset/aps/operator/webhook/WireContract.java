package dev.policyset.aps.operator.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the API server requires of a webhook's answer, as its webhook client checks it
 * ({@code admission/plugin/webhook/request/admissionreview.go: VerifyAdmissionResponse}: apiVersion/kind as sent,
 * uid echoed) and as its warning recorder passes warnings uncut ({@code endpoints/filters/warning.go}: up to 4,096
 * runes in all; {@code util/net: NewWarningHeader} needs valid text). A refusal's status has a code
 * of at least 400 ({@code webhook/errors/statuserror.go: ToStatusErr} would raise it) and a message.
 */
final class WireContract {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** admission/v1 AdmissionResponse's JSON fields. */
    private static final Set<String> RESPONSE_FIELDS = Set.of("uid", "allowed", "status", "patch", "patchType",
            "auditAnnotations", "warnings");

    private WireContract() {}

    static void check(byte[] request, int httpStatus, JsonNode body) throws Exception {
        if (httpStatus != 200) {
            assertEquals(400, httpStatus, "a request the webhook cannot answer is a client error, never a 500");
            assertEquals("Status", body.path("kind").asText());
            assertEquals(400, body.path("code").asInt());
            assertTrue(body.path("message").asText().startsWith("malformed AdmissionReview: "), body.toString());
            assertFalse(body.toString().contains("\\tat ") || body.toString().contains("Exception"), "no stack trace: " + body);
            return;
        }
        JsonNode sent = JSON.readTree(request);
        assertEquals(sent.path("apiVersion").asText(), body.path("apiVersion").asText(), "apiVersion as sent");
        assertEquals(sent.path("kind").asText(), body.path("kind").asText(), "kind as sent");
        JsonNode response = body.path("response");
        assertEquals(sent.path("request").path("uid").asText(), response.path("uid").asText(), "uid echoed");
        assertTrue(response.path("allowed").isBoolean(), "allowed is a boolean");
        Set<String> fields = new HashSet<>();
        response.fieldNames().forEachRemaining(fields::add);
        assertTrue(RESPONSE_FIELDS.containsAll(fields), "only AdmissionResponse fields: " + fields);
        if (!response.path("allowed").asBoolean()) {
            assertTrue(response.path("status").path("code").asInt() >= 400, "a refusal's code is 4xx");
            assertFalse(response.path("status").path("message").asText().isEmpty(), "a refusal says why");
            assertEquals("Failure", response.path("status").path("status").asText());
        } else {
            assertFalse(response.has("status"), "an admission carries no failure status");
        }
        int runes = 0;
        List<JsonNode> warnings = response.has("warnings") ? List.copyOf(toList(response.get("warnings"))) : List.of();
        assertTrue(warnings.size() <= AdmissionReviewHandler.MAX_WARNINGS + 1, "warnings capped: " + warnings.size());
        for (JsonNode w : warnings) {
            String text = w.asText();
            assertTrue(w.isTextual() && !text.isEmpty(), "a warning is a non-empty string");
            assertFalse(text.chars().anyMatch(Character::isISOControl), "no control characters in a warning: " + text);
            runes += text.codePointCount(0, text.length());
        }
        assertTrue(runes <= 4096, "warnings of " + runes + " runes in all would be cut by the API server");
    }

    private static List<JsonNode> toList(JsonNode array) {
        List<JsonNode> out = new java.util.ArrayList<>();
        array.forEach(out::add);
        return out;
    }
}

package dev.policyset.aps.core.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.finding.Severity;

import java.util.List;
import java.util.Map;

/**
 * What the webhook answered and what the API server makes of it.
 *
 * @param decision         the webhook's decision; null when there is none the API server would read (the call failed,
 *                         the response broke the contract)
 * @param warnings         {@code response.warnings}
 * @param auditAnnotations {@code response.auditAnnotations} as the webhook sent them (the API server prefixes each key
 *                         with the webhook's name)
 * @param patch            the decoded {@code response.patch}, or null
 * @param patched          the object after the patch, or null (no patch, or it does not apply)
 * @param response         the response body as JSON, or null when it is not JSON
 * @param findings         every check that did not pass, and context, in the order checked
 */
public record ReviewResult(Decision decision, List<String> warnings, Map<String, String> auditAnnotations,
                           ArrayNode patch, ObjectNode patched, JsonNode response, List<ReviewFinding> findings) {
    public ReviewResult {
        warnings = List.copyOf(warnings);
        auditAnnotations = Map.copyOf(auditAnnotations);
        findings = List.copyOf(findings);
    }

    /**
     * @param code            {@code response.status.code} as sent (0 when absent)
     * @param apiServerStatus the HTTP status the client of the API server sees for a denial (403 when the webhook sets
     *                        none), 0 when allowed
     * @param apiServerMessage what the client sees for a denial ({@code webhook/errors/statuserror.go: ToStatusErr})
     */
    public record Decision(boolean allowed, int code, String reason, String message, int apiServerStatus,
                           String apiServerMessage) {}

    public boolean hasErrors() {
        return findings.stream().anyMatch(f -> f.severity() == Severity.ERROR);
    }

    public boolean denied() {
        return decision != null && !decision.allowed();
    }
}

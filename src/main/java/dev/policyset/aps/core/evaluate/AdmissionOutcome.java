package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Map;

/**
 * What the client would see for one request, plus what a test needs to explain it.
 *
 * @param allowed          false when the request is rejected
 * @param code             the HTTP status code of a rejection (0 when allowed)
 * @param reason           the {@code metav1.Status} reason of a rejection ({@code Invalid}, {@code Forbidden}, ...)
 * @param message          the {@code metav1.Status} message of a rejection
 * @param warnings         the warnings sent back (validationActions Warn), in order
 * @param auditAnnotations the audit annotations added to the request's audit event
 * @param object           the object after every mutation (null for DELETE)
 * @param webhooks         {@code Kind/name: webhook} of each webhook that would also be called (not evaluated offline)
 * @param errors           every expression or configuration error met, including ignored ones ({@code failurePolicy: Ignore})
 * @param trace            one line per policy, binding and param considered, saying what happened
 * @param violations       every failed validation of every ValidatingAdmissionPolicy applied, whatever its
 *                         binding's validationActions: the policy's own decision, which engines' tests assert
 */
public record AdmissionOutcome(boolean allowed, int code, String reason, String message, List<String> warnings,
                               Map<String, String> auditAnnotations, ObjectNode object, List<String> webhooks,
                               List<String> errors, List<String> trace,
                               List<Violation> violations) {
    /** One failed validation: the policy, the binding, and the message. */
    public record Violation(String policy, String binding, String message) {}

    public AdmissionOutcome {
        violations = List.copyOf(violations);
        warnings = List.copyOf(warnings);
        auditAnnotations = Map.copyOf(auditAnnotations);
        webhooks = List.copyOf(webhooks);
        errors = List.copyOf(errors);
        trace = List.copyOf(trace);
    }

    /** An outcome reached before any validating policy ran (a mutation's rejection, a server's answer). */
    public AdmissionOutcome(boolean allowed, int code, String reason, String message, List<String> warnings,
                            Map<String, String> auditAnnotations, ObjectNode object, List<String> webhooks,
                            List<String> errors, List<String> trace) {
        this(allowed, code, reason, message, warnings, auditAnnotations, object, webhooks, errors, trace, List.of());
    }
}

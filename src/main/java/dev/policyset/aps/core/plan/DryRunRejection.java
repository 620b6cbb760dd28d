package dev.policyset.aps.core.plan;

import dev.policyset.aps.core.finding.Finding;

import java.util.ArrayList;
import java.util.List;

/**
 * What the API server said when it refused a write of the plan before anything was written: a server-side dry
 * run, or the real apply of the plan's first write (its own check: nothing is written before it). Its
 * {@code Status} (reason, message and the per-field causes), as the operator received it. {@link #findings()}
 * turns it into findings in the API server's own terms: {@code api/<type>} on the cause's field.
 *
 * @param dryRun whether the refused request was a dry run (else the first write's apply, refused)
 */
public record DryRunRejection(String objectId, int code, String reason, String message, List<Cause> causes,
                              boolean dryRun) {
    /** One {@code status.details.causes[]} entry: {@code FieldValueInvalid} on {@code spec.x}. */
    public record Cause(String reason, String field, String message) {}

    public DryRunRejection {
        reason = reason == null ? "" : reason;
        message = message == null ? "" : message;
        causes = causes == null ? List.of() : List.copyOf(causes);
    }

    /** A refused dry run. */
    public DryRunRejection(String objectId, int code, String reason, String message, List<Cause> causes) {
        this(objectId, code, reason, message, causes, true);
    }

    public List<Finding> findings() {
        String prefix = dryRun ? "server-side dry run rejected: " : "server-side apply rejected (nothing was written): ";
        List<Finding> out = new ArrayList<>();
        for (Cause cause : causes) {
            out.add(Finding.error("api/" + causeType(cause.reason()), objectId, cause.field() == null ? "" : cause.field(),
                    prefix + cause.message()));
        }
        if (out.isEmpty()) {
            out.add(Finding.error("api/" + (reason.isEmpty() ? "Rejected" : reason), objectId, "", prefix + message));
        }
        return out;
    }

    /** {@code metav1.CauseType} ({@code FieldValueInvalid}) → the validator's error type ({@code Invalid}). */
    static String causeType(String reason) {
        if (reason == null || reason.isEmpty()) {
            return "Invalid";
        }
        return reason.startsWith("FieldValue") ? reason.substring("FieldValue".length()) : reason;
    }
}

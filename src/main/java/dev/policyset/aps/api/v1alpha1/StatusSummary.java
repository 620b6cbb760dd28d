package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import java.util.Objects;

/**
 * The few facts {@code kubectl get aps} shows, as plain scalars: printer columns can only read a JSON path,
 * and a filter over conditions ({@code [?(@.type=="Ready")]}) is not something every client renders. The
 * conditions stay the source of truth; this is computed from the same inputs by the status calculator.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class StatusSummary {
    @JsonPropertyDescription("The Ready condition's status: True, False or Unknown.")
    private String ready;

    @JsonPropertyDescription("The Ready condition's reason (Applied, ValidationFailed, Paused, ...).")
    private String reason;

    @JsonPropertyDescription("How many objects the set generates (rows in status.resources).")
    private Integer objects;

    @JsonPropertyDescription("Error findings of the last reconcile, including those left out of status.findings.")
    private Integer errors;

    @JsonPropertyDescription("Warning findings of the last reconcile, including those left out of status.findings.")
    private Integer warnings;

    public StatusSummary() {}

    public StatusSummary(String ready, String reason, int objects, int errors, int warnings) {
        this.ready = ready;
        this.reason = reason;
        this.objects = objects;
        this.errors = errors;
        this.warnings = warnings;
    }

    public String getReady() { return ready; }
    public void setReady(String ready) { this.ready = ready; }
    public String getReason() { return reason; }
    public void setReason(String reason) { this.reason = reason; }
    public Integer getObjects() { return objects; }
    public void setObjects(Integer objects) { this.objects = objects; }
    public Integer getErrors() { return errors; }
    public void setErrors(Integer errors) { this.errors = errors; }
    public Integer getWarnings() { return warnings; }
    public void setWarnings(Integer warnings) { this.warnings = warnings; }

    @Override
    public boolean equals(Object o) {
        return o instanceof StatusSummary s && Objects.equals(ready, s.ready) && Objects.equals(reason, s.reason)
                && Objects.equals(objects, s.objects) && Objects.equals(errors, s.errors)
                && Objects.equals(warnings, s.warnings);
    }

    @Override
    public int hashCode() {
        return Objects.hash(ready, reason, objects, errors, warnings);
    }

    @Override
    public String toString() {
        return "StatusSummary[ready=" + ready + ", reason=" + reason + ", objects=" + objects + ", errors=" + errors
                + ", warnings=" + warnings + "]";
    }
}

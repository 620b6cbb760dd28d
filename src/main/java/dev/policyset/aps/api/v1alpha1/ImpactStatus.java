package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import java.util.ArrayList;
import java.util.List;

/**
 * The last impact scan: what the set's validating and mutating policies would do to the existing objects they match
 * (docs/operator.md, "Impact scan"). Written by the operator at most once per aps.impact.interval.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ImpactStatus {
    @JsonPropertyDescription("When the scan ran (RFC 3339).")
    private String scannedAt;

    @JsonPropertyDescription("The metadata.generation whose policies were scanned.")
    private Long generation;

    @JsonPropertyDescription("Existing objects scanned (over every kind listed for the scan).")
    private Integer objects;

    @JsonPropertyDescription("Objects left out because aps.impact.max-objects was reached.")
    private Integer omitted;

    @JsonPropertyDescription("One row per ValidatingAdmissionPolicy binding of the set.")
    private List<BindingImpactStatus> bindings = new ArrayList<>();

    @JsonPropertyDescription("One row per MutatingAdmissionPolicy binding of the set: what its mutation would do to the "
            + "existing objects it matches.")
    private List<MutatingBindingImpactStatus> mutatingBindings = new ArrayList<>();

    public String getScannedAt() { return scannedAt; }
    public void setScannedAt(String scannedAt) { this.scannedAt = scannedAt; }
    public Long getGeneration() { return generation; }
    public void setGeneration(Long generation) { this.generation = generation; }
    public Integer getObjects() { return objects; }
    public void setObjects(Integer objects) { this.objects = objects; }
    public Integer getOmitted() { return omitted; }
    public void setOmitted(Integer omitted) { this.omitted = omitted; }
    public List<BindingImpactStatus> getBindings() { return bindings; }
    public void setBindings(List<BindingImpactStatus> bindings) { this.bindings = bindings; }
    public List<MutatingBindingImpactStatus> getMutatingBindings() { return mutatingBindings; }
    public void setMutatingBindings(List<MutatingBindingImpactStatus> mutatingBindings) { this.mutatingBindings = mutatingBindings; }
}

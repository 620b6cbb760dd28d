package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * The last generation that was applied in full, and its spec: what the operator protects from hand edits while a
 * later generation is blocked. In status so that it survives restarts and leader changes (docs/operator.md).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class LastAppliedStatus {
    @JsonPropertyDescription("The metadata.generation that was last applied in full.")
    private Long generation;

    @JsonPropertyDescription("That generation's spec, as compact JSON (written by the operator; do not edit).")
    private String spec;

    public LastAppliedStatus() {}

    public LastAppliedStatus(Long generation, String spec) {
        this.generation = generation;
        this.spec = spec;
    }

    public Long getGeneration() { return generation; }
    public void setGeneration(Long generation) { this.generation = generation; }
    public String getSpec() { return spec; }
    public void setSpec(String spec) { this.spec = spec; }
}

package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;

import java.util.List;

/** How safety findings are enforced. Never affects api/* findings: the API server would refuse those anyway. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Safety {
    @JsonPropertyDescription("Block (default): a safety error stops the apply. Warn: safety errors are reported as warnings.")
    private Enforcement enforcement;

    @JsonPropertyDescription("Waive one safety rule for one object; the reason shows up in status.")
    @Size(max = Limits.MAX_EXEMPTIONS)
    private List<Exemption> exemptions;

    public Enforcement getEnforcement() { return enforcement; }
    public void setEnforcement(Enforcement enforcement) { this.enforcement = enforcement; }
    public List<Exemption> getExemptions() { return exemptions; }
    public void setExemptions(List<Exemption> exemptions) { this.exemptions = exemptions; }
}

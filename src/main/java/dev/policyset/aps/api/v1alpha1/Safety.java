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

    @JsonPropertyDescription("Warn (default): an expression that does not type-check against the schemas of the resources "
            + "its policy matches (APS602) is reported as a warning, as the API server does. Error: it stops the apply.")
    private TypeChecking typeChecking;

    @JsonPropertyDescription("Waive one safety rule for one object; the reason shows up in status.")
    @Size(max = Limits.MAX_EXEMPTIONS)
    private List<Exemption> exemptions;

    @JsonPropertyDescription("true: a binding whose validationActions ask for Deny is applied with its previous actions "
            + "until the operator's impact scan finds no existing object it would deny (docs/operator.md, Impact scan).")
    private Boolean requireNoViolationsBeforeDeny;

    public Boolean getRequireNoViolationsBeforeDeny() { return requireNoViolationsBeforeDeny; }
    public void setRequireNoViolationsBeforeDeny(Boolean v) { this.requireNoViolationsBeforeDeny = v; }
    public Enforcement getEnforcement() { return enforcement; }
    public void setEnforcement(Enforcement enforcement) { this.enforcement = enforcement; }
    public TypeChecking getTypeChecking() { return typeChecking; }
    public void setTypeChecking(TypeChecking typeChecking) { this.typeChecking = typeChecking; }
    public List<Exemption> getExemptions() { return exemptions; }
    public void setExemptions(List<Exemption> exemptions) { this.exemptions = exemptions; }
}

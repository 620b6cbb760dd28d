package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;

import java.util.ArrayList;
import java.util.List;

/** What the operator observed and did, in kstatus terms (Ready, Reconciling, Stalled). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AdmissionPolicySetStatus {
    @JsonPropertyDescription("The metadata.generation this status describes.")
    private Long observedGeneration;

    @JsonPropertyDescription("Ready, its reason and the counts, for kubectl get's columns (the conditions are the source of truth).")
    private StatusSummary summary;

    @JsonPropertyDescription("Ready, Validated, Applied, Reconciling and Stalled.")
    private List<Condition> conditions = new ArrayList<>();

    @JsonPropertyDescription("Validation findings, most severe first; capped (see findingsOmitted).")
    private List<FindingStatus> findings = new ArrayList<>();

    @JsonPropertyDescription("How many findings were left out of findings to keep the status small.")
    private Integer findingsOmitted;

    @JsonPropertyDescription("One row per generated object.")
    private List<ResourceStatus> resources = new ArrayList<>();

    @JsonPropertyDescription("The last generation applied in full, kept so drift repair survives operator restarts.")
    private LastAppliedStatus lastApplied;

    @JsonPropertyDescription("The last impact scan of the set's validating policies against existing objects.")
    private ImpactStatus impact;

    public ImpactStatus getImpact() { return impact; }
    public void setImpact(ImpactStatus impact) { this.impact = impact; }
    public Long getObservedGeneration() { return observedGeneration; }
    public void setObservedGeneration(Long observedGeneration) { this.observedGeneration = observedGeneration; }
    public StatusSummary getSummary() { return summary; }
    public void setSummary(StatusSummary summary) { this.summary = summary; }
    public List<Condition> getConditions() { return conditions; }
    public void setConditions(List<Condition> conditions) { this.conditions = conditions; }
    public List<FindingStatus> getFindings() { return findings; }
    public void setFindings(List<FindingStatus> findings) { this.findings = findings; }
    public Integer getFindingsOmitted() { return findingsOmitted; }
    public void setFindingsOmitted(Integer findingsOmitted) { this.findingsOmitted = findingsOmitted; }
    public List<ResourceStatus> getResources() { return resources; }
    public void setResources(List<ResourceStatus> resources) { this.resources = resources; }
    public LastAppliedStatus getLastApplied() { return lastApplied; }
    public void setLastApplied(LastAppliedStatus lastApplied) { this.lastApplied = lastApplied; }
}

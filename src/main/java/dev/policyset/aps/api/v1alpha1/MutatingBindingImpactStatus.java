package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import java.util.ArrayList;
import java.util.List;

/** What one MutatingAdmissionPolicy binding would do to the existing objects it matches (APS802-APS804). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class MutatingBindingImpactStatus {
    @JsonPropertyDescription("The MutatingAdmissionPolicy.")
    private String policy;

    @JsonPropertyDescription("The MutatingAdmissionPolicyBinding.")
    private String binding;

    @JsonPropertyDescription("Existing objects the policy and binding match (matchConditions included).")
    private Integer matched;

    @JsonPropertyDescription("Matched objects the mutation would change on their next write (and the server accept).")
    private Integer changed;

    @JsonPropertyDescription("Matched objects the mutation leaves as they are.")
    private Integer noop;

    @JsonPropertyDescription("Matched objects whose next write the server would refuse because of the mutation "
            + "(an immutable field changed on UPDATE, a schema error, an error under failurePolicy Fail).")
    private Integer refused;

    @JsonPropertyDescription("Matched objects whose mutation failed, whatever failurePolicy makes of it.")
    private Integer errors;

    @JsonPropertyDescription("Changed objects that the mutation, applied again to its own output, changes again.")
    private Integer notIdempotent;

    @JsonPropertyDescription("True when every kind the policy matches was scanned, and no object was left out.")
    private Boolean complete;

    @JsonPropertyDescription("Why the scan is not complete (kinds the operator does not list, wildcards, the object limit).")
    private String incomplete;

    @JsonPropertyDescription("The first objects with something to say, flagged ones first: Kind namespace/name (outcome): "
            + "the refusal, or the first change.")
    private List<String> samples = new ArrayList<>();

    public String getPolicy() { return policy; }
    public void setPolicy(String policy) { this.policy = policy; }
    public String getBinding() { return binding; }
    public void setBinding(String binding) { this.binding = binding; }
    public Integer getMatched() { return matched; }
    public void setMatched(Integer matched) { this.matched = matched; }
    public Integer getChanged() { return changed; }
    public void setChanged(Integer changed) { this.changed = changed; }
    public Integer getNoop() { return noop; }
    public void setNoop(Integer noop) { this.noop = noop; }
    public Integer getRefused() { return refused; }
    public void setRefused(Integer refused) { this.refused = refused; }
    public Integer getErrors() { return errors; }
    public void setErrors(Integer errors) { this.errors = errors; }
    public Integer getNotIdempotent() { return notIdempotent; }
    public void setNotIdempotent(Integer notIdempotent) { this.notIdempotent = notIdempotent; }
    public Boolean getComplete() { return complete; }
    public void setComplete(Boolean complete) { this.complete = complete; }
    public String getIncomplete() { return incomplete; }
    public void setIncomplete(String incomplete) { this.incomplete = incomplete; }
    public List<String> getSamples() { return samples; }
    public void setSamples(List<String> samples) { this.samples = samples; }
}

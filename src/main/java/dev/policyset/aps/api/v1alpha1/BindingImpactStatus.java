package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import java.util.ArrayList;
import java.util.List;

/** What one binding would do to the existing objects it matches (APS801). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BindingImpactStatus {
    @JsonPropertyDescription("The ValidatingAdmissionPolicy.")
    private String policy;

    @JsonPropertyDescription("The ValidatingAdmissionPolicyBinding.")
    private String binding;

    @JsonPropertyDescription("Existing objects the policy and binding match (matchConditions included).")
    private Integer matched;

    @JsonPropertyDescription("Matched objects a binding with Deny would refuse on their next write.")
    private Integer violations;

    @JsonPropertyDescription("Matched objects whose evaluation failed.")
    private Integer errors;

    @JsonPropertyDescription("True when every kind the policy matches was scanned, and no object was left out.")
    private Boolean complete;

    @JsonPropertyDescription("Why the scan is not complete (kinds the operator does not list, wildcards, the object limit).")
    private String incomplete;

    @JsonPropertyDescription("Fingerprint of the policy and binding specs scanned (validationActions aside).")
    private String fingerprint;

    @JsonPropertyDescription("The first violators: Kind namespace/name: message.")
    private List<String> samples = new ArrayList<>();

    public String getPolicy() { return policy; }
    public void setPolicy(String policy) { this.policy = policy; }
    public String getBinding() { return binding; }
    public void setBinding(String binding) { this.binding = binding; }
    public Integer getMatched() { return matched; }
    public void setMatched(Integer matched) { this.matched = matched; }
    public Integer getViolations() { return violations; }
    public void setViolations(Integer violations) { this.violations = violations; }
    public Integer getErrors() { return errors; }
    public void setErrors(Integer errors) { this.errors = errors; }
    public Boolean getComplete() { return complete; }
    public void setComplete(Boolean complete) { this.complete = complete; }
    public String getIncomplete() { return incomplete; }
    public void setIncomplete(String incomplete) { this.incomplete = incomplete; }
    public String getFingerprint() { return fingerprint; }
    public void setFingerprint(String fingerprint) { this.fingerprint = fingerprint; }
    public List<String> getSamples() { return samples; }
    public void setSamples(List<String> samples) { this.samples = samples; }
}

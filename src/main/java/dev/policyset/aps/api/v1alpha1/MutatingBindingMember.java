package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.admissionregistration.v1alpha1.MutatingAdmissionPolicyBindingSpec;

/** One MutatingAdmissionPolicyBinding of the enclosing policy; policyName is filled in. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class MutatingBindingMember extends Member {
    @JsonPropertyDescription("The binding spec, verbatim; policyName defaults to the enclosing policy.")
    private MutatingAdmissionPolicyBindingSpec spec;

    public MutatingAdmissionPolicyBindingSpec getSpec() { return spec; }
    public void setSpec(MutatingAdmissionPolicyBindingSpec spec) { this.spec = spec; }
}

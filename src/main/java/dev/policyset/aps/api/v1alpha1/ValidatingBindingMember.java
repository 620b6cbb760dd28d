package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBindingSpec;

/** One ValidatingAdmissionPolicyBinding of the enclosing policy; policyName is filled in. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ValidatingBindingMember extends Member {
    @JsonPropertyDescription("The binding spec, verbatim; policyName defaults to the enclosing policy, "
            + "validationActions to the set's default.")
    private ValidatingAdmissionPolicyBindingSpec spec;

    public ValidatingAdmissionPolicyBindingSpec getSpec() { return spec; }
    public void setSpec(ValidatingAdmissionPolicyBindingSpec spec) { this.spec = spec; }
}

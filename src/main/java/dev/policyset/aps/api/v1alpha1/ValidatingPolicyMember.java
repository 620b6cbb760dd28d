package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicySpec;

import java.util.List;

/** One ValidatingAdmissionPolicy and its bindings. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ValidatingPolicyMember extends Member {
    @JsonPropertyDescription("The ValidatingAdmissionPolicy spec, verbatim.")
    @Required
    private ValidatingAdmissionPolicySpec policy;

    @JsonPropertyDescription("Bindings of this policy. Absent: one binding named <name>-binding with the set's defaults. "
            + "Empty: none (the policy is staged without effect).")
    @Size(max = Limits.MAX_BINDINGS)
    @ValidationRule(value = AdmissionPolicySetSpec.UNIQUE_NAMES, message = "binding names must be unique")
    private List<ValidatingBindingMember> bindings;

    public ValidatingAdmissionPolicySpec getPolicy() { return policy; }
    public void setPolicy(ValidatingAdmissionPolicySpec policy) { this.policy = policy; }
    public List<ValidatingBindingMember> getBindings() { return bindings; }
    public void setBindings(List<ValidatingBindingMember> bindings) { this.bindings = bindings; }
}

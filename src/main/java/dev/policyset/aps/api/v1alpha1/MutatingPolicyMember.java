package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.admissionregistration.v1alpha1.MutatingAdmissionPolicySpec;

import java.util.List;

/**
 * One MutatingAdmissionPolicy and its bindings. The spec is the same in v1alpha1, v1beta1 and v1;
 * the version rendered is the newest the cluster serves.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class MutatingPolicyMember extends Member {
    @JsonPropertyDescription("The MutatingAdmissionPolicy spec, verbatim (reinvocationPolicy is required).")
    @Required
    private MutatingAdmissionPolicySpec policy;

    @JsonPropertyDescription("Bindings of this policy. Absent: one binding named <name>-binding. Empty: none.")
    @Size(max = Limits.MAX_BINDINGS)
    @ValidationRule(value = AdmissionPolicySetSpec.UNIQUE_NAMES, message = "binding names must be unique")
    private List<MutatingBindingMember> bindings;

    public MutatingAdmissionPolicySpec getPolicy() { return policy; }
    public void setPolicy(MutatingAdmissionPolicySpec policy) { this.policy = policy; }
    public List<MutatingBindingMember> getBindings() { return bindings; }
    public void setBindings(List<MutatingBindingMember> bindings) { this.bindings = bindings; }
}

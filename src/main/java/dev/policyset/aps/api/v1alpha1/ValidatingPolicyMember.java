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

    @JsonPropertyDescription("Pod-controller autogen: for a policy that matches only Pods (v1 pods, no objectSelector, "
            + "excludeResourceRules or resourceNames), also render <name>-autogen for the listed controllers with "
            + "spec.template (object.spec -> object.spec.template.spec) and <name>-autogen-cronjobs for CronJobs "
            + "(spec.jobTemplate.spec.template), each with the member's bindings. Default off.")
    private Autogen autogen;

    public ValidatingAdmissionPolicySpec getPolicy() { return policy; }
    public void setPolicy(ValidatingAdmissionPolicySpec policy) { this.policy = policy; }
    public List<ValidatingBindingMember> getBindings() { return bindings; }
    public void setBindings(List<ValidatingBindingMember> bindings) { this.bindings = bindings; }
    public Autogen getAutogen() { return autogen; }
    public void setAutogen(Autogen autogen) { this.autogen = autogen; }
}

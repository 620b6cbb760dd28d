package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

import java.util.ArrayList;
import java.util.List;

/**
 * The desired admission configuration. List sizes are bounded so that the CRD's CEL validation
 * rules stay inside the API server's static cost budget.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AdmissionPolicySetSpec {
    static final String UNIQUE_NAMES = "self.all(x, self.exists_one(y, y.name == x.name))";

    @JsonPropertyDescription("Values used where a member does not set its own.")
    private Defaults defaults;

    @JsonPropertyDescription("How safety findings are enforced, and which are waived.")
    private Safety safety;

    @JsonPropertyDescription("ValidatingAdmissionPolicies to generate, each with its bindings.")
    @Size(max = Limits.MAX_MEMBERS)
    @ValidationRule(value = UNIQUE_NAMES, message = "validatingPolicies names must be unique")
    private List<ValidatingPolicyMember> validatingPolicies = new ArrayList<>();

    @JsonPropertyDescription("MutatingAdmissionPolicies to generate, each with its bindings.")
    @Size(max = Limits.MAX_MEMBERS)
    @ValidationRule(value = UNIQUE_NAMES, message = "mutatingPolicies names must be unique")
    private List<MutatingPolicyMember> mutatingPolicies = new ArrayList<>();

    @JsonPropertyDescription("ValidatingWebhookConfigurations to generate.")
    @Size(max = Limits.MAX_MEMBERS)
    @ValidationRule(value = UNIQUE_NAMES, message = "validatingWebhooks names must be unique")
    private List<ValidatingWebhookMember> validatingWebhooks = new ArrayList<>();

    @JsonPropertyDescription("MutatingWebhookConfigurations to generate.")
    @Size(max = Limits.MAX_MEMBERS)
    @ValidationRule(value = UNIQUE_NAMES, message = "mutatingWebhooks names must be unique")
    private List<MutatingWebhookMember> mutatingWebhooks = new ArrayList<>();

    @JsonPropertyDescription("Delete generated objects that the spec no longer contains. Default true.")
    @Default("true")
    private Boolean prune;

    @JsonPropertyDescription("What happens to generated objects when the set is deleted: Delete (default) or Orphan.")
    @Default("Delete")
    private DeletionPolicy deletionPolicy;

    @JsonPropertyDescription("Stop reconciling without deleting anything. Default false.")
    @Default("false")
    private Boolean paused;

    public Defaults getDefaults() { return defaults; }
    public void setDefaults(Defaults defaults) { this.defaults = defaults; }
    public Safety getSafety() { return safety; }
    public void setSafety(Safety safety) { this.safety = safety; }
    public List<ValidatingPolicyMember> getValidatingPolicies() { return validatingPolicies; }
    public void setValidatingPolicies(List<ValidatingPolicyMember> v) { this.validatingPolicies = v; }
    public List<MutatingPolicyMember> getMutatingPolicies() { return mutatingPolicies; }
    public void setMutatingPolicies(List<MutatingPolicyMember> v) { this.mutatingPolicies = v; }
    public List<ValidatingWebhookMember> getValidatingWebhooks() { return validatingWebhooks; }
    public void setValidatingWebhooks(List<ValidatingWebhookMember> v) { this.validatingWebhooks = v; }
    public List<MutatingWebhookMember> getMutatingWebhooks() { return mutatingWebhooks; }
    public void setMutatingWebhooks(List<MutatingWebhookMember> v) { this.mutatingWebhooks = v; }
    public Boolean getPrune() { return prune; }
    public void setPrune(Boolean prune) { this.prune = prune; }
    public DeletionPolicy getDeletionPolicy() { return deletionPolicy; }
    public void setDeletionPolicy(DeletionPolicy deletionPolicy) { this.deletionPolicy = deletionPolicy; }
    public Boolean getPaused() { return paused; }
    public void setPaused(Boolean paused) { this.paused = paused; }
}

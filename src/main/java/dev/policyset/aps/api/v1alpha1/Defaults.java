package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

import java.util.List;

/**
 * Set-wide defaults, used where a member does not set its own value. Enums and ranges here are in the CRD
 * schema; the same constraints inside embedded native specs are checked by the validator (api/NotSupported),
 * because CEL rules over the embedded, unbounded fields would exceed the CRD's static cost budget.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Defaults {
    @JsonPropertyDescription("failurePolicy of generated policies and webhooks that set none. Default Fail.")
    private FailurePolicy failurePolicy;

    @JsonPropertyDescription("validationActions of ValidatingAdmissionPolicyBindings that set none. Default [Deny]; "
            + "[Warn], [Audit] or [Warn, Audit] stage a rollout.")
    @Size(min = 1, max = 3)
    @ValidationRule(value = "self.all(x, self.exists_one(y, y == x))", message = "validationActions must be unique")
    @ValidationRule(value = "!('Deny' in self && 'Warn' in self)", message = "Deny and Warn may not be used together")
    private List<@Size(max = 5) ValidationAction> validationActions;

    @JsonPropertyDescription("timeoutSeconds of webhooks that set none, 1 to 30. Default 10.")
    @Min(1)
    @Max(30)
    private Integer webhookTimeoutSeconds;

    @JsonPropertyDescription("Namespaces excluded from every generated binding and webhook, as a namespaceSelector on "
            + "kubernetes.io/metadata.name NotIn [...]. Default [kube-system, kube-node-lease]; [] excludes none.")
    @Size(max = Limits.MAX_EXCLUDED_NAMESPACES)
    private List<@Size(max = 63) String> excludedNamespaces;

    public FailurePolicy getFailurePolicy() { return failurePolicy; }
    public void setFailurePolicy(FailurePolicy failurePolicy) { this.failurePolicy = failurePolicy; }
    public List<ValidationAction> getValidationActions() { return validationActions; }
    public void setValidationActions(List<ValidationAction> validationActions) { this.validationActions = validationActions; }
    public Integer getWebhookTimeoutSeconds() { return webhookTimeoutSeconds; }
    public void setWebhookTimeoutSeconds(Integer webhookTimeoutSeconds) { this.webhookTimeoutSeconds = webhookTimeoutSeconds; }
    public List<String> getExcludedNamespaces() { return excludedNamespaces; }
    public void setExcludedNamespaces(List<String> excludedNamespaces) { this.excludedNamespaces = excludedNamespaces; }
}

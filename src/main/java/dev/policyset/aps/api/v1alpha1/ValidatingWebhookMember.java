package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;

import java.util.List;

/** One ValidatingWebhookConfiguration. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ValidatingWebhookMember extends Member {
    @JsonPropertyDescription("The webhooks, verbatim; failurePolicy, timeoutSeconds and namespaceSelector take the set's defaults.")
    @Required
    @Size(max = Limits.MAX_WEBHOOKS)
    private List<ValidatingWebhook> webhooks;

    public List<ValidatingWebhook> getWebhooks() { return webhooks; }
    public void setWebhooks(List<ValidatingWebhook> webhooks) { this.webhooks = webhooks; }
}

package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** A waiver of one safety rule for one generated object. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Exemption {
    @JsonPropertyDescription("The safety rule ID, e.g. APS201. api/* findings cannot be exempted.")
    @Required
    @Pattern("^APS[0-9]{3}$")
    private String rule;

    @JsonPropertyDescription("The generated object, as Kind/name, e.g. ValidatingWebhookConfiguration/legacy-validator.")
    @Required
    @Size(max = 320)
    private String object;

    @JsonPropertyDescription("Why the risk is accepted; shown in status next to the waived finding.")
    @Required
    @Size(min = 1, max = 1024)
    private String reason;

    public Exemption() {}

    public Exemption(String rule, String object, String reason) {
        this.rule = rule;
        this.object = object;
        this.reason = reason;
    }

    public String getRule() { return rule; }
    public void setRule(String rule) { this.rule = rule; }
    public String getObject() { return object; }
    public void setObject(String object) { this.object = object; }
    public String getReason() { return reason; }
    public void setReason(String reason) { this.reason = reason; }
}

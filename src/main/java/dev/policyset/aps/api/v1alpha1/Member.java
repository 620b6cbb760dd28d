package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

import java.util.Map;

/**
 * What every member shares: the generated object's name, used verbatim, and extra metadata
 * (for example cert-manager's {@code cert-manager.io/inject-ca-from} on a webhook configuration).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public abstract class Member {
    static final String DNS_SUBDOMAIN = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$";

    @JsonPropertyDescription("metadata.name of the generated object, used verbatim (a DNS subdomain).")
    @Required
    @Size(min = 1, max = Limits.MAX_NAME)
    @Pattern(DNS_SUBDOMAIN)
    private String name;

    @JsonPropertyDescription("Labels added to the generated object. The set label is always added.")
    private Map<String, String> labels;

    @JsonPropertyDescription("Annotations added to the generated object.")
    private Map<String, String> annotations;

    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public Map<String, String> getLabels() { return labels; }
    public void setLabels(Map<String, String> labels) { this.labels = labels; }
    public Map<String, String> getAnnotations() { return annotations; }
    public void setAnnotations(Map<String, String> annotations) { this.annotations = annotations; }
}

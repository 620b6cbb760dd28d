package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.Objects;

/** A validation finding as status shows it: the CLI's JSON finding without file and line. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class FindingStatus {
    private String rule;
    private String severity;
    private String object;
    private String field;
    private String message;

    public FindingStatus() {}

    public FindingStatus(String rule, String severity, String object, String field, String message) {
        this.rule = rule;
        this.severity = severity;
        this.object = object;
        this.field = field;
        this.message = message;
    }

    public String getRule() { return rule; }
    public void setRule(String rule) { this.rule = rule; }
    public String getSeverity() { return severity; }
    public void setSeverity(String severity) { this.severity = severity; }
    public String getObject() { return object; }
    public void setObject(String object) { this.object = object; }
    public String getField() { return field; }
    public void setField(String field) { this.field = field; }
    public String getMessage() { return message; }
    public void setMessage(String message) { this.message = message; }

    @Override
    public boolean equals(Object o) {
        return o instanceof FindingStatus f && Objects.equals(rule, f.rule) && Objects.equals(severity, f.severity)
                && Objects.equals(object, f.object) && Objects.equals(field, f.field) && Objects.equals(message, f.message);
    }

    @Override
    public int hashCode() {
        return Objects.hash(rule, severity, object, field, message);
    }
}

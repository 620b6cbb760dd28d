package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.Objects;

/**
 * The state of one generated object: Pending, Applied, Rejected, Conflict or Contested; {@code repairs} counts the
 * drift repairs of the object at the status's generation (absent when none), so the contested-field guard (APS405)
 * survives an operator restart.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ResourceStatus {
    private String apiVersion;
    private String kind;
    private String name;
    private String state;
    private String message;
    private Integer repairs;

    public ResourceStatus() {}

    public ResourceStatus(String apiVersion, String kind, String name, String state, String message) {
        this.apiVersion = apiVersion;
        this.kind = kind;
        this.name = name;
        this.state = state;
        this.message = message;
    }

    public ResourceStatus(String apiVersion, String kind, String name, String state, String message, Integer repairs) {
        this(apiVersion, kind, name, state, message);
        this.repairs = repairs;
    }

    public String getApiVersion() { return apiVersion; }
    public void setApiVersion(String apiVersion) { this.apiVersion = apiVersion; }
    public String getKind() { return kind; }
    public void setKind(String kind) { this.kind = kind; }
    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public String getState() { return state; }
    public void setState(String state) { this.state = state; }
    public String getMessage() { return message; }
    public void setMessage(String message) { this.message = message; }
    public Integer getRepairs() { return repairs; }
    public void setRepairs(Integer repairs) { this.repairs = repairs; }

    @Override
    public boolean equals(Object o) {
        return o instanceof ResourceStatus r && Objects.equals(apiVersion, r.apiVersion) && Objects.equals(kind, r.kind)
                && Objects.equals(name, r.name) && Objects.equals(state, r.state) && Objects.equals(message, r.message)
                && Objects.equals(repairs, r.repairs);
    }

    @Override
    public int hashCode() {
        return Objects.hash(apiVersion, kind, name, state, message, repairs);
    }
}

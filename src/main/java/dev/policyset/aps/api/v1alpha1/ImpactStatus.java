package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import java.util.ArrayList;
import java.util.List;

/**
 * The last finished impact scan: what the set's validating and mutating policies would do to the existing objects they
 * match (docs/operator.md, "Impact scan"), and the progress of the latest scan ({@code state}, {@code startedAt},
 * {@code finishedAt}, {@code scanned}, {@code pages}, {@code inconsistent}, {@code message}). The counts and rows stay
 * those of the last finished scan while the next one runs, so the Deny gate keeps reading a whole scan. Written by the
 * operator's scan executor (a status patch of this field only), progress at most every aps.impact.progress-interval.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ImpactStatus {
    @JsonPropertyDescription("When the last finished scan ran (RFC 3339).")
    private String scannedAt;

    @JsonPropertyDescription("The metadata.generation whose policies were scanned.")
    private Long generation;

    @JsonPropertyDescription("Existing objects scanned (over every kind listed for the scan).")
    private Integer objects;

    @JsonPropertyDescription("Objects left out because aps.impact.max-objects was reached.")
    private Integer omitted;

    @JsonPropertyDescription("One row per ValidatingAdmissionPolicy binding of the set.")
    private List<BindingImpactStatus> bindings = new ArrayList<>();

    @JsonPropertyDescription("One row per MutatingAdmissionPolicy binding of the set: what its mutation would do to the "
            + "existing objects it matches.")
    private List<MutatingBindingImpactStatus> mutatingBindings = new ArrayList<>();

    @JsonPropertyDescription("The latest scan: Running (the counts below are still the last finished scan's), Finished "
            + "(they are this scan's) or Failed (they are the last finished scan's; message says why).")
    private String state;

    @JsonPropertyDescription("When the latest scan started (RFC 3339).")
    private String startedAt;

    @JsonPropertyDescription("When the latest scan ended, finished or failed (RFC 3339); absent while it runs.")
    private String finishedAt;

    @JsonPropertyDescription("Objects the latest scan has read so far (all it read, once it ended).")
    private Integer scanned;

    @JsonPropertyDescription("List pages the latest scan has read so far (aps.impact.page-size objects each at most).")
    private Integer pages;

    @JsonPropertyDescription("True when a list's continue token expired during the latest scan and the list went on "
            + "from a newer state of the cluster: objects created, changed or deleted meanwhile may be missing or newer.")
    private Boolean inconsistent;

    @JsonPropertyDescription("Why the latest scan failed, or how it became inconsistent.")
    private String message;

    public String getState() { return state; }
    public void setState(String state) { this.state = state; }
    public String getStartedAt() { return startedAt; }
    public void setStartedAt(String startedAt) { this.startedAt = startedAt; }
    public String getFinishedAt() { return finishedAt; }
    public void setFinishedAt(String finishedAt) { this.finishedAt = finishedAt; }
    public Integer getScanned() { return scanned; }
    public void setScanned(Integer scanned) { this.scanned = scanned; }
    public Integer getPages() { return pages; }
    public void setPages(Integer pages) { this.pages = pages; }
    public Boolean getInconsistent() { return inconsistent; }
    public void setInconsistent(Boolean inconsistent) { this.inconsistent = inconsistent; }
    public String getMessage() { return message; }
    public void setMessage(String message) { this.message = message; }
    public String getScannedAt() { return scannedAt; }
    public void setScannedAt(String scannedAt) { this.scannedAt = scannedAt; }
    public Long getGeneration() { return generation; }
    public void setGeneration(Long generation) { this.generation = generation; }
    public Integer getObjects() { return objects; }
    public void setObjects(Integer objects) { this.objects = objects; }
    public Integer getOmitted() { return omitted; }
    public void setOmitted(Integer omitted) { this.omitted = omitted; }
    public List<BindingImpactStatus> getBindings() { return bindings; }
    public void setBindings(List<BindingImpactStatus> bindings) { this.bindings = bindings; }
    public List<MutatingBindingImpactStatus> getMutatingBindings() { return mutatingBindings; }
    public void setMutatingBindings(List<MutatingBindingImpactStatus> mutatingBindings) { this.mutatingBindings = mutatingBindings; }
}

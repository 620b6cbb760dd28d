package dev.policyset.aps.core.validate;

import dev.policyset.aps.core.finding.Finding;
import java.util.List;

/** Every finding of one validation run, in {@link Finding#ORDER}. */
public record ValidationReport(List<Finding> findings) {
    public ValidationReport {
        findings = findings.stream().sorted(Finding.ORDER).toList();
    }

    public boolean hasErrors() {
        return findings.stream().anyMatch(Finding::isError);
    }

    public List<Finding> forObject(String objectId) {
        return findings.stream().filter(f -> f.object().equals(objectId)).toList();
    }
}

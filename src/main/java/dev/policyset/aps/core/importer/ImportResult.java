package dev.policyset.aps.core.importer;

import java.util.ArrayList;
import java.util.List;

/**
 * What an import produced: the files to write, the findings (refusals and notes), how many policies were imported
 * and how many test cases converted.
 */
public final class ImportResult {
    private final List<ImportedFile> files = new ArrayList<>();
    private final List<ImportFinding> findings = new ArrayList<>();
    private int policies;
    private int mutatingPolicies;
    private int testCases;

    public List<ImportedFile> files() { return List.copyOf(files); }
    public List<ImportFinding> findings() { return List.copyOf(findings); }
    /** Policies (or rules) imported as ValidatingAdmissionPolicies or MutatingAdmissionPolicies. */
    public int policies() { return policies; }
    /** Of {@link #policies()}, those imported as MutatingAdmissionPolicies. */
    public int mutatingPolicies() { return mutatingPolicies; }
    /** Test cases written into PolicyTest files. */
    public int testCases() { return testCases; }

    void add(ImportedFile file) { files.add(file); }
    void add(ImportFinding finding) { findings.add(finding); }
    void countPolicy() { policies++; }
    void countMutatingPolicy() { policies++; mutatingPolicies++; }
    void countTestCases(int n) { testCases += n; }
}

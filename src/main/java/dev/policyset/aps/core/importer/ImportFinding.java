package dev.policyset.aps.core.importer;

import dev.policyset.aps.core.finding.Finding;

/** A finding of the import with the source file and line it is about. */
public record ImportFinding(Finding finding, String file, int line) {
    /** The reason of an {@code import/<Reason>} rule: what the summary counts refusals by. */
    public String reason() {
        String rule = finding.rule();
        return rule.startsWith(ImportRules.PREFIX) ? rule.substring(ImportRules.PREFIX.length()) : rule;
    }
}

package dev.policyset.aps.core.validate;

import dev.policyset.aps.core.finding.Finding;

/**
 * A finding and the subject whose definition it is about, so that a finding can be located where that object is
 * defined even when several subjects share its {@code Kind/name} (environments, overlays and copies in one run).
 *
 * @param subject index of the subject in the list given to {@link Validator#validateAttributed}, or -1 when the
 *                finding is about no single subject (a rule that could not run)
 */
public record AttributedFinding(Finding finding, int subject) {}

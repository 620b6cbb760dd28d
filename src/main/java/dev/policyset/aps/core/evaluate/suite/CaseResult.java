package dev.policyset.aps.core.evaluate.suite;

import dev.policyset.aps.core.evaluate.AdmissionOutcome;

import java.util.List;

/**
 * One case's result.
 *
 * @param differences expected vs actual, one line per difference (empty when the case passed)
 * @param notes       what the user should know even when the case passed (webhooks not evaluated, a policy
 *                    the API server would not apply)
 */
public record CaseResult(String name, int line, boolean passed, List<String> differences, List<String> notes,
                         AdmissionOutcome outcome) {
    public CaseResult {
        differences = List.copyOf(differences);
        notes = List.copyOf(notes);
    }
}

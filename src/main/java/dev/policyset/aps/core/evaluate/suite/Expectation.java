package dev.policyset.aps.core.evaluate.suite;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;

/**
 * What a case expects; {@code null} fields are not checked.
 *
 * @param message          the whole status message, exactly
 * @param messageContains  a substring of the status message
 * @param warnings         the warnings, exactly and in order
 * @param auditAnnotations each listed annotation must have this value (others may exist)
 * @param object           the object after all mutations, exactly
 * @param objectContains   a partial object: every field given must be there with this value (lists element-wise)
 * @param kaptest          a kaptest verdict (admit, deny, skip, error) for a policy ({@link #policy})
 * @param decisions        per named policy, whether it was violated whatever its bindings' validationActions
 *                         (the verdict policy engines' own tests give), and optionally with which message
 */
public record Expectation(Boolean allowed, String message, String messageContains, String reason, Integer code,
                          List<String> warnings, Map<String, String> auditAnnotations, JsonNode object,
                          JsonNode objectContains, String kaptest, String policy,
                          List<Decision> decisions) {
    /**
     * A policy's decision over its failed validations (through any binding), each part checked when given: of those
     * whose message matches the regular expression {@code messageMatches} (all when absent), {@code violated}: at
     * least one; {@code count}: exactly this many; {@code message}: one of them has exactly this message.
     */
    public record Decision(String policy, Boolean violated, Integer count, String message, String messageMatches) {}
}

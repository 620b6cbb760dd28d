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
 */
public record Expectation(Boolean allowed, String message, String messageContains, String reason, Integer code,
                          List<String> warnings, Map<String, String> auditAnnotations, JsonNode object,
                          JsonNode objectContains, String kaptest, String policy) {
}

package dev.policyset.aps.core.validate;

import dev.policyset.aps.core.model.SafetySettings;
import dev.policyset.aps.core.render.RenderedObject;

/**
 * One object to validate, with the safety settings that govern its findings: its set's, or
 * {@link SafetySettings#DEFAULT} for a bare object read from a file.
 *
 * @param setName the set that generated it, or null for a bare object
 */
public record ValidationSubject(RenderedObject object, String setName, SafetySettings safety) {
    public static ValidationSubject bare(RenderedObject object) {
        return new ValidationSubject(object, null, SafetySettings.DEFAULT);
    }
}

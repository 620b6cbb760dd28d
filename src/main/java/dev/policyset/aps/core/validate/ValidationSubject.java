package dev.policyset.aps.core.validate;

import dev.policyset.aps.core.model.SafetySettings;
import dev.policyset.aps.core.render.RenderedObject;

/**
 * One object to validate, with the safety settings that govern its findings: its set's, or
 * {@link SafetySettings#DEFAULT} for a bare object read from a file.
 *
 * @param setName the set that generated it, or null for a bare object
 * @param origin  where it was read, for messages that name several definitions (the CLI's {@code file:line});
 *                null when there is no such place (the operator validates one set from the cluster)
 */
public record ValidationSubject(RenderedObject object, String setName, SafetySettings safety, String origin) {
    public ValidationSubject(RenderedObject object, String setName, SafetySettings safety) {
        this(object, setName, safety, null);
    }

    public static ValidationSubject bare(RenderedObject object) {
        return new ValidationSubject(object, null, SafetySettings.DEFAULT);
    }

    /** The same subject, read at {@code origin}. */
    public ValidationSubject at(String origin) {
        return new ValidationSubject(object, setName, safety, origin);
    }
}

package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.validate.ValidationOptions;
import dev.policyset.aps.core.validate.ValidationSubject;

import java.util.List;

/** Everything validated in one run (a set, or all files of one CLI run), for rules that pair objects. */
public record SafetyContext(List<ValidationSubject> subjects, ValidationOptions options) {
    public SafetyContext {
        subjects = List.copyOf(subjects);
    }
}

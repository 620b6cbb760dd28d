package dev.policyset.aps.core.validate;

import dev.policyset.aps.core.validate.apiserver.ApiServerRules;
import dev.policyset.aps.core.validate.cel.CelChecker;
import dev.policyset.aps.core.validate.safety.SafetyContext;
import dev.policyset.aps.core.validate.safety.SafetyRule;
import dev.policyset.aps.core.validate.safety.SafetyRules;

import java.util.ArrayList;
import java.util.List;

/**
 * The one judge the operator and the CLI share: API-server rules per object, then safety rules over the
 * whole input, then each set's exemptions and enforcement.
 */
public final class Validator {
    private final ValidationOptions options;
    private final CelChecker cel;

    public Validator(ValidationOptions options, CelChecker cel) {
        this.options = options;
        this.cel = cel;
    }

    public ValidationReport validate(List<ValidationSubject> subjects) {
        List<Finding> findings = new ArrayList<>();
        for (ValidationSubject subject : subjects) {
            findings.addAll(ApiServerRules.check(subject.object(), options.kubeVersion(), cel));
        }
        SafetyContext context = new SafetyContext(subjects, options);
        for (SafetyRule rule : SafetyRules.all()) {
            findings.addAll(rule.check(context));
        }
        return new ValidationReport(findings);
    }
}

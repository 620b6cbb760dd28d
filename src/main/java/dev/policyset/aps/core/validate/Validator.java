package dev.policyset.aps.core.validate;

import dev.policyset.aps.core.cel.CelChecker;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.model.Exemption;
import dev.policyset.aps.core.model.SafetySettings;
import dev.policyset.aps.core.validate.apiserver.ApiServerRules;
import dev.policyset.aps.core.validate.safety.SafetyContext;
import dev.policyset.aps.core.validate.safety.SafetyRule;
import dev.policyset.aps.core.validate.safety.SafetyRules;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The one judge the operator and the CLI share: API-server rules per object, then safety rules over the
 * whole input, then each set's exemptions and enforcement.
 *
 * <p>Exemptions and enforcement apply to safety findings only, never to {@code api/*} (what the API server
 * would refuse cannot be waived). A safety finding is governed by the settings of the subject it is about
 * (its set's {@code spec.safety}; bare objects have the defaults): an exemption for the finding's rule and
 * object turns it into an {@code info} finding that names the reason; otherwise {@code enforcement: Warn}
 * turns an error into a warning.
 */
public final class Validator {
    private final ValidationOptions options;
    private final CelChecker cel;
    private final List<SafetyRule> rules;

    public Validator(ValidationOptions options, CelChecker cel) {
        this(options, cel, SafetyRules.all());
    }

    /** With a chosen set of safety rules (tests, benchmarks). */
    public Validator(ValidationOptions options, CelChecker cel, List<SafetyRule> rules) {
        this.options = options;
        this.cel = cel;
        this.rules = List.copyOf(rules);
    }

    public ValidationReport validate(List<ValidationSubject> subjects) {
        return new ValidationReport(validateAttributed(subjects).stream().map(AttributedFinding::finding).toList());
    }

    /**
     * Every finding with the subject it is about (its index in {@code subjects}), so that a caller can locate it
     * where that subject was defined, even when several subjects share a {@code Kind/name}
     * ({@link SubjectAttribution} says how). A safety finding is governed by its own subject's settings.
     */
    public List<AttributedFinding> validateAttributed(List<ValidationSubject> subjects) {
        List<AttributedFinding> findings = new ArrayList<>();
        for (int i = 0; i < subjects.size(); i++) {
            for (Finding f : ApiServerRules.check(subjects.get(i).object(), options.kubeVersion(), cel)) {
                findings.add(new AttributedFinding(f, i));
            }
        }
        SafetyContext context = new SafetyContext(subjects, options);
        SubjectAttribution attribution = new SubjectAttribution(subjects);
        for (SafetyRule rule : rules) {
            List<Finding> found;
            try {
                found = rule.check(context);
            } catch (RuntimeException e) {
                // A rule must never take the whole validation down; say which one could not judge the input.
                findings.add(new AttributedFinding(Finding.warning(rule.id(), "", "",
                        "rule " + rule.id() + " could not check this input (" + e + "); the other rules ran"), -1));
                continue;
            }
            for (AttributedFinding a : attribution.attribute(rule, context, found)) {
                SafetySettings safety = a.subject() < 0 ? SafetySettings.DEFAULT : subjects.get(a.subject()).safety();
                findings.add(new AttributedFinding(rule.waivable() ? govern(a.finding(), safety) : a.finding(), a.subject()));
            }
        }
        return findings;
    }

    /** Applies one set's exemptions and enforcement to one safety finding. */
    static Finding govern(Finding finding, SafetySettings safety) {
        if (finding.isApiServerRule() || finding.severity() == Severity.INFO) {
            return finding;
        }
        Optional<Exemption> exemption = safety.exemptions().stream()
                .filter(e -> finding.rule().equals(e.rule()) && finding.object().equals(e.object()))
                .findFirst();
        if (exemption.isPresent()) {
            return finding.withSeverity(Severity.INFO, "exempted (" + exemption.get().reason() + "): " + finding.message());
        }
        if (safety.enforcement() == SafetySettings.Enforcement.WARN && finding.isError()) {
            return finding.withSeverity(Severity.WARNING, finding.message() + " (reported as a warning: enforcement is Warn)");
        }
        return finding;
    }
}

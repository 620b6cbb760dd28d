package dev.policyset.aps.core.validate;

import dev.policyset.aps.core.model.Exemption;
import dev.policyset.aps.core.model.SafetySettings;
import dev.policyset.aps.core.validate.apiserver.ApiServerRules;
import dev.policyset.aps.core.validate.cel.CelChecker;
import dev.policyset.aps.core.validate.safety.SafetyContext;
import dev.policyset.aps.core.validate.safety.SafetyRule;
import dev.policyset.aps.core.validate.safety.SafetyRules;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one judge the operator and the CLI share: API-server rules per object, then safety rules over the
 * whole input, then each set's exemptions and enforcement.
 *
 * <p>Exemptions and enforcement apply to safety findings only, never to {@code api/*} (what the API server
 * would refuse cannot be waived). A safety finding is governed by the settings of the subject it names
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
        List<Finding> findings = new ArrayList<>();
        for (ValidationSubject subject : subjects) {
            findings.addAll(ApiServerRules.check(subject.object(), options.kubeVersion(), cel));
        }
        SafetyContext context = new SafetyContext(subjects, options);
        Map<String, SafetySettings> settings = new HashMap<>();
        for (ValidationSubject s : subjects) {
            settings.putIfAbsent(s.object().id(), s.safety());
        }
        for (SafetyRule rule : rules) {
            List<Finding> found;
            try {
                found = rule.check(context);
            } catch (RuntimeException e) {
                // A rule must never take the whole validation down; say which one could not judge the input.
                findings.add(Finding.warning(rule.id(), "", "",
                        "rule " + rule.id() + " could not check this input (" + e + "); the other rules ran"));
                continue;
            }
            for (Finding f : found) {
                findings.add(govern(f, settings.getOrDefault(f.object(), SafetySettings.DEFAULT)));
            }
        }
        return new ValidationReport(findings);
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

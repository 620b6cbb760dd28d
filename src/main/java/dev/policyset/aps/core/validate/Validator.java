package dev.policyset.aps.core.validate;

import dev.policyset.aps.core.cel.CelChecker;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.validate.apiserver.ApiServerRules;
import dev.policyset.aps.core.validate.safety.SafetyContext;
import dev.policyset.aps.core.validate.safety.SafetyRule;
import dev.policyset.aps.core.validate.safety.SafetyRules;
import dev.policyset.aps.core.validate.waiver.Waivers;

import java.util.ArrayList;
import java.util.List;

/**
 * The one judge the operator and the CLI share: API-server rules per object, then safety rules over the
 * whole input, then each set's exemptions and enforcement.
 *
 * <p>Exemptions, waivers and enforcement apply to safety findings only, never to {@code api/*} (what the API server
 * would refuse cannot be waived). A safety finding is governed by the waivers written for the subject it is about
 * ({@link Waivers}: its set's {@code spec.safety}; for a bare object its annotation and the repository's
 * {@code .aps.yaml}): a waiver for the finding's rule and object turns it into an {@code info} finding that names
 * the reason; otherwise {@code enforcement: Warn} turns an error into a warning. Waivers that match nothing, and
 * expired ones, are reported (APS901, APS902).
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
        Waivers waivers = new Waivers(subjects, options.waivers(), options.today());
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
                findings.add(new AttributedFinding(rule.waivable() ? waivers.govern(a.finding(), a.subject()) : a.finding(),
                        a.subject()));
            }
        }
        findings.addAll(waivers.report());
        return findings;
    }
}

package dev.policyset.aps.core.impact;

import dev.policyset.aps.core.finding.Finding;

import java.util.ArrayList;
import java.util.List;

/**
 * APS802-APS804, one of each per MutatingAdmissionPolicy binding with something to report (docs/rules.md has their
 * risk models):
 * <ul>
 *   <li>APS802 (warning): the server would refuse the next write of existing objects because of the mutation;</li>
 *   <li>APS803: the mutation is not idempotent on existing objects: a warning when it meets its own output again
 *       (the policy is reinvoked, IfNeeded, or intercepts the objects' UPDATE, so every write of a stored object
 *       mutates it again), info when neither (each object is mutated once, on its CREATE);</li>
 *   <li>APS804 (info): the binding would change existing objects, or its mutation fails on some and failurePolicy
 *       Ignore admits them unmutated.</li>
 * </ul>
 */
final class MutationFindings {
    private static final String FIELD = "spec.policyName";

    private MutationFindings() {}

    static List<Finding> of(ImpactReport report) {
        List<Finding> out = new ArrayList<>();
        for (MutatingBindingImpact b : report.mutating()) {
            String object = ImpactReport.MUTATING_BINDING_KIND + "/" + b.binding();
            String scope = " of the " + b.matched() + " existing object(s) it matches (of " + report.objects() + " scanned"
                    + (report.omitted() > 0 ? ", " + report.omitted() + " not scanned: object limit" : "") + ")";
            if (b.refused() > 0) {
                out.add(Finding.warning(ImpactReport.MUTATION_REFUSED, object, FIELD, "the API server would refuse the "
                        + "next write of " + b.refused() + scope + " because of MutatingAdmissionPolicy " + b.policy()
                        + example(b, MutatingBindingImpact.REFUSED) + "; make the mutation leave what the server refuses to "
                        + "change alone (exclude UPDATE, or guard it with a matchCondition), or fix the patch"));
            }
            if (b.notIdempotent() > 0) {
                boolean recurring = b.reinvoked() || b.notIdempotentOnUpdate() > 0;
                String why = b.notIdempotentOnUpdate() > 0
                        ? "; the binding intercepts their UPDATE, so every write of a stored object applies it again"
                        : b.reinvoked() ? "; reinvocationPolicy IfNeeded applies it again when a later mutation changes the object"
                        : "; harmless while each object meets it once (CREATE only, reinvocationPolicy Never)";
                String message = "MutatingAdmissionPolicy " + b.policy() + " is not idempotent on " + b.notIdempotent()
                        + scope + ": applied to its own output it changes it again" + why
                        + example(b, MutatingBindingImpact.NOT_IDEMPOTENT)
                        + "; test for what the mutation adds before adding it (a matchCondition or a guard in the "
                        + "expression), or use an ApplyConfiguration that sets the value";
                out.add(recurring ? Finding.warning(ImpactReport.MUTATION_NOT_IDEMPOTENT, object, FIELD, message)
                        : Finding.info(ImpactReport.MUTATION_NOT_IDEMPOTENT, object, FIELD, message));
            }
            int ignored = b.errorsAdmitted();
            if (b.changed() > 0 || ignored > 0) {
                String errors = ignored == 0 ? "" : "; its mutation fails on " + ignored
                        + " and failurePolicy Ignore admits them unmutated" + example(b, MutatingBindingImpact.ERROR);
                out.add(Finding.info(ImpactReport.MUTATION_CHANGES, object, FIELD, "this binding would change "
                        + b.changed() + scope + " the next time they are written (" + b.noop() + " left as they are)"
                        + (b.changed() > 0 ? example(b, null) : "") + errors
                        + "; check the changes (aps impact lists them per object) before the policy is bound"));
            }
        }
        return out;
    }

    /** {@code ; e.g. Kind ns/name (OP): ...}: the first sample with the outcome (null: any with changes). */
    private static String example(MutatingBindingImpact b, String outcome) {
        for (MutatingBindingImpact.Sample s : b.samples()) {
            if (outcome == null ? !s.changes().isEmpty() && !s.outcome().equals(MutatingBindingImpact.REFUSED)
                    : s.outcome().equals(outcome)) {
                String what = outcome == null ? s.changes().get(0).describe() : s.message();
                return "; e.g. " + s.object() + " (" + s.operation() + "): " + what;
            }
        }
        return "";
    }
}

package dev.policyset.aps.core.impact;

import dev.policyset.aps.core.finding.Finding;

import java.util.ArrayList;
import java.util.List;

/**
 * The impact of a configuration's policies on existing objects.
 *
 * @param objects  objects scanned
 * @param omitted  objects left out because the scan's object limit was reached (0 when all were scanned)
 * @param bindings one row per binding of a ValidatingAdmissionPolicy, in configuration order
 * @param mutating one row per binding of a MutatingAdmissionPolicy, in configuration order
 */
public record ImpactReport(int objects, int omitted, List<BindingImpact> bindings, List<MutatingBindingImpact> mutating) {
    public static final String RULE = "APS801";
    /** A mutating binding makes the server refuse writes of existing objects. */
    public static final String MUTATION_REFUSED = "APS802";
    /** A mutating binding is not idempotent on existing objects. */
    public static final String MUTATION_NOT_IDEMPOTENT = "APS803";
    /** A mutating binding would change existing objects. */
    public static final String MUTATION_CHANGES = "APS804";
    static final String BINDING_KIND = "ValidatingAdmissionPolicyBinding";
    static final String MUTATING_BINDING_KIND = "MutatingAdmissionPolicyBinding";

    public ImpactReport {
        bindings = List.copyOf(bindings);
        mutating = List.copyOf(mutating);
    }

    public ImpactReport(int objects, int omitted, List<BindingImpact> bindings) {
        this(objects, omitted, bindings, List.of());
    }

    /** Mutating bindings that would make the server refuse writes of existing objects. */
    public List<MutatingBindingImpact> refusing() {
        return mutating.stream().filter(b -> b.refused() > 0).toList();
    }

    /** Bindings that would deny at least one existing object under Deny. */
    public List<BindingImpact> violating() {
        return bindings.stream().filter(b -> b.deniedUnderDeny() > 0).toList();
    }

    /** Bindings that refuse at least one existing object with their actions as they are. */
    public List<BindingImpact> denying() {
        return bindings.stream().filter(b -> b.denied() > 0).toList();
    }

    /**
     * APS801, one finding per binding with something to report: a warning when the binding refuses existing objects
     * now (its actions include {@code Deny}, or an error denies whatever the actions); info when it would once switched to {@code Deny}, or when its evaluations fail
     * and failurePolicy Ignore admits them.
     */
    public List<Finding> findings() {
        List<Finding> out = new ArrayList<>();
        for (BindingImpact b : bindings) {
            String object = BINDING_KIND + "/" + b.binding();
            String scope = " of the " + b.matched() + " existing object(s) it matches (of " + objects + " scanned"
                    + (omitted > 0 ? ", " + omitted + " not scanned: object limit" : "") + ")";
            String example = example(b);
            String errors = b.errors() == 0 ? "" : "; " + b.errors() + " evaluation error(s), which failurePolicy "
                    + (b.failClosed() ? "Fail counts as failed validations" : "Ignore admits");
            if (b.denied() > 0) {
                out.add(Finding.warning(RULE, object, "spec.validationActions", "this binding (validationActions "
                        + b.actions() + ") denies " + b.denied() + scope
                        + " the next time they are written (updated as they are, or re-created)" + errors + example
                        + "; fix those objects, or stage the binding with [Warn, Audit] until they are fixed"));
            } else if (b.deniedUnderDeny() > 0) {
                out.add(Finding.info(RULE, object, "spec.validationActions", "switching this binding to Deny would deny "
                        + b.deniedUnderDeny() + scope + errors + example + "; with " + b.actions()
                        + " they are only " + (b.actions().isEmpty() ? "admitted" : "reported")
                        + "; fix them before enforcing"));
            } else if (b.errors() > 0) {
                out.add(Finding.info(RULE, object, "spec.validationActions", "the policy's evaluation fails on "
                        + b.errors() + scope + "; failurePolicy Ignore admits them, so they pass unchecked" + example
                        + "; guard the expression (has(), ?.) so it evaluates"));
            }
        }
        out.addAll(MutationFindings.of(this));
        return out;
    }

    private static String example(BindingImpact b) {
        if (b.samples().isEmpty()) {
            return "";
        }
        BindingImpact.Sample s = b.samples().get(0);
        return "; e.g. " + s.object() + " (" + s.operation() + "): " + s.message();
    }
}

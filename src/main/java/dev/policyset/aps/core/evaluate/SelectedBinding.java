package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.intercept.Verdict;
import dev.policyset.aps.core.render.RenderedObject;

import java.util.List;
import java.util.Optional;

/**
 * A binding whose matchResources admit the request, with its params resolved: the step both admission policy
 * plugins share before they evaluate anything ({@code k8s.io/apiserver/pkg/admission/plugin/policy/generic/
 * policy_dispatcher.go}: for each binding, match it, then collect its params).
 */
record SelectedBinding(RenderedObject binding, String where, JsonNode spec, ParamResolver.Params params) {

    /**
     * The binding when it applies to the request; empty (with the reason in {@code trace}) when it does not.
     * {@code matchBinding} false skips the binding's own matchResources (kaptest's direct invocation).
     */
    static Optional<SelectedBinding> of(JsonNode policySpec, RenderedObject binding, String policyLabel,
                                        boolean matchBinding, AdmissionRequest r, Fixtures fixtures, List<String> trace) {
        return of(policySpec, binding, policyLabel, matchBinding,
                () -> Interception.binding(policySpec, binding.manifest().path("spec"), r, fixtures), r, fixtures, trace);
    }

    /** @param match the binding's verdict on the request (asked only when {@code matchBinding}) */
    static Optional<SelectedBinding> of(JsonNode policySpec, RenderedObject binding, String policyLabel,
                                        boolean matchBinding, java.util.function.Supplier<Verdict> match,
                                        AdmissionRequest r, Fixtures fixtures, List<String> trace) {
        JsonNode bspec = binding.manifest().path("spec");
        String where = policyLabel + " binding " + binding.name();
        if (matchBinding) {
            Verdict bound = match.get();
            if (!bound.matches()) {
                trace.add(where + ": not applied (" + bound.explain() + ")");
                return Optional.empty();
            }
        }
        return Optional.of(new SelectedBinding(binding, where, bspec,
                ParamResolver.collect(policySpec.get("paramKind"), bspec.get("paramRef"), r.namespace(), fixtures)));
    }
}

package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.cel.CelChecker;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.yaml.Yaml;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The ValidatingAdmissionPolicy plugin for one request: {@code k8s.io/apiserver/pkg/admission/plugin/policy/
 * validating/dispatcher.go: dispatcher.Dispatch}. Policies in configuration order; for each matching policy,
 * each matching binding, each param: the validator's decisions turned into denials, warnings and audit
 * annotations by the binding's validationActions; the first denial is the request's status.
 */
final class ValidatingDispatcher {
    static final String VALIDATION_FAILURE = "validation.policy.admission.k8s.io/validation_failure";
    /** {@code maxAuditAnnotationValueLength}. */
    static final int MAX_AUDIT_VALUE = 10 * 1024;

    /** A denial with the policy and binding it came from (binding null for policy configuration errors). */
    record Denial(String policy, String binding, String message, String reason) {}

    /**
     * @param outcomes what each applied binding (and param) decided before its validationActions were applied:
     *                 what the impact scan counts
     */
    record Result(List<Denial> denials, List<String> warnings, Map<String, String> auditAnnotations,
                  List<String> errors, List<String> trace, List<BindingOutcome> outcomes) {}

    /**
     * One binding with one param, before validationActions: the failed validations ({@code violations}), the
     * evaluation errors, and the messages that deny whatever the actions are (binding configuration errors and
     * audit annotation errors under failurePolicy Fail, as {@code dispatcher.go} appends them to the denials
     * directly). {@code matched} is false when a matchCondition was false.
     */
    record BindingOutcome(String policy, String binding, String param, List<String> actions, boolean failClosed,
                          boolean matched, List<PolicyDecision> decisions, List<String> errors,
                          List<String> alwaysDenied) {}

    private ValidatingDispatcher() {}

    /** The note a directly invoked policy gets when the API server would not apply it. */
    static final String NOT_APPLIED = "NOT APPLIED BY THE API SERVER";

    static Result dispatch(PolicyConfiguration config, AdmissionRequest r, Fixtures fixtures,
                           AdmissionSimulator.Options options) {
        return dispatch(config, r, fixtures, options, new RequestValues());
    }

    /** @param converted the request's CEL values, converted once for every policy and binding (and reused by the caller) */
    static Result dispatch(PolicyConfiguration config, AdmissionRequest r, Fixtures fixtures,
                           AdmissionSimulator.Options options, RequestValues converted) {
        KubeVersion version = options.version();
        List<Denial> denials = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        Map<String, String> audit = new LinkedHashMap<>();
        List<String> errors = new ArrayList<>();
        List<String> trace = new ArrayList<>();
        List<BindingOutcome> outcomes = new ArrayList<>();
        for (RenderedObject policy : config.of(AdmissionKind.VALIDATING_ADMISSION_POLICY)) {
            JsonNode spec = policy.manifest().path("spec");
            String name = policy.name();
            dev.policyset.aps.core.intercept.Verdict definition = config.policyInterceptor(policy)
                    .match(converted.view(r, fixtures));
            if (!definition.matches()) {
                if (options.invokeDirectly()) {
                    trace.add("ValidatingAdmissionPolicy/" + name + ": " + NOT_APPLIED + ": " + definition.explain()
                            + " (matching/matching.go: Matcher.Matches); evaluated anyway, as kaptest does");
                } else {
                    trace.add("ValidatingAdmissionPolicy/" + name + ": not applied (" + definition.explain() + ")");
                    continue;
                }
            }
            boolean fail = !"Ignore".equals(spec.path("failurePolicy").asText("Fail"));
            List<RenderedObject> bindings = config.bindingsOf(AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING, name);
            if (bindings.isEmpty()) {
                trace.add("ValidatingAdmissionPolicy/" + name + ": not applied (no binding)");
                continue;
            }
            PolicyExpressions expressions = config.expressions(policy, CelChecker.PolicyType.VALIDATING,
                    spec.has("paramKind") && !spec.get("paramKind").isNull(), version);
            Map<String, List<String>> collector = new LinkedHashMap<>();
            for (RenderedObject binding : bindings) {
                Optional<SelectedBinding> selected = SelectedBinding.of(spec, binding, "ValidatingAdmissionPolicy/" + name,
                        !options.invokeDirectly() || definition.matches(),
                        () -> config.bindingInterceptor(policy, binding).match(converted.view(r, fixtures)), r, fixtures, trace);
                if (selected.isEmpty()) {
                    continue;
                }
                JsonNode bspec = selected.get().spec();
                String where = selected.get().where();
                ParamResolver.Params params = selected.get().params();
                if (params.error() != null) {
                    String message = "failed to configure binding: " + params.error();
                    errors.add(where + ": " + message);
                    trace.add(where + ": " + message + (fail ? " (failurePolicy Fail: denied)" : " (failurePolicy Ignore)"));
                    if (fail) {
                        denials.add(new Denial(name, binding.name(), message, ""));
                    }
                    outcomes.add(new BindingOutcome(name, binding.name(), "", List.of(), fail, true, List.of(),
                            List.of(message), fail ? List.of(message) : List.of()));
                    continue;
                }
                if (params.params().isEmpty()) {
                    trace.add(where + ": not applied (no params found; parameterNotFoundAction Allow)");
                }
                List<String> actions = new ArrayList<>();
                bspec.path("validationActions").forEach(a -> actions.add(a.asText()));
                for (ObjectNode param : params.params()) {
                    String at = where + Activations.describe(param);
                    PolicyExpressions.Context context = expressions.context(Activations.of(r, param, converted, fixtures));
                    ValidatingPolicyEvaluator.Result result = ValidatingPolicyEvaluator.validate(spec, context);
                    result.errors().forEach(e -> errors.add(at + ": " + e));
                    List<String> alwaysDenied = result.auditAnnotations().stream()
                            .map(ValidatingPolicyEvaluator.AuditAnnotation::error).filter(java.util.Objects::nonNull).toList();
                    outcomes.add(new BindingOutcome(name, binding.name(), Activations.describe(param).trim(),
                            List.copyOf(actions), fail, result.matched(), result.decisions(), result.errors(), alwaysDenied));
                    if (!result.matched()) {
                        trace.add(at + ": skipped (matchCondition " + (result.failedCondition() == null
                                ? "errored, failurePolicy Ignore" : "'" + result.failedCondition() + "' is false") + ")");
                        continue;
                    }
                    int denied = 0;
                    for (PolicyDecision d : result.decisions()) {
                        if (!d.deny()) {
                            continue;
                        }
                        denied++;
                        for (String action : actions) {
                            switch (action) {
                                case "Deny" -> denials.add(new Denial(name, binding.name(), d.message(), d.reason()));
                                case "Warn" -> warnings.add("Validation failed for ValidatingAdmissionPolicy '" + name
                                        + "' with binding '" + binding.name() + "': " + d.message());
                                case "Audit" -> audit.putIfAbsent(VALIDATION_FAILURE, validationFailure(d, binding, actions));
                                default -> { }
                            }
                        }
                    }
                    for (ValidatingPolicyEvaluator.AuditAnnotation a : result.auditAnnotations()) {
                        if (a.error() != null) {
                            denials.add(new Denial(name, binding.name(), a.error(), ""));
                            denied++;
                        } else {
                            String value = a.value().length() > MAX_AUDIT_VALUE ? a.value().substring(0, MAX_AUDIT_VALUE) : a.value();
                            List<String> values = collector.computeIfAbsent(a.key(), k -> new ArrayList<>());
                            if (!values.contains(value)) {
                                values.add(value);
                            }
                        }
                    }
                    trace.add(at + ": " + (denied == 0 ? "passed" : denied + " validation(s) failed, actions " + actions));
                }
            }
            // auditAnnotationCollector.publish: one key per policy, distinct values joined by ", "
            collector.forEach((key, values) -> audit.put(name + "/" + key, String.join(", ", values)));
        }
        return new Result(denials, warnings, audit, errors, trace, outcomes);
    }

    /** {@code publishValidationFailureAnnotation}: a JSON list with one failure. */
    private static String validationFailure(PolicyDecision d, RenderedObject binding, List<String> actions) {
        Map<String, Object> failure = new LinkedHashMap<>();
        failure.put("message", d.message());
        failure.put("policy", binding.manifest().path("spec").path("policyName").asText(""));
        failure.put("binding", binding.name());
        failure.put("expressionIndex", d.index());
        failure.put("validationActions", actions);
        try {
            return Yaml.mapper().writeValueAsString(List.of(failure));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static Map<String, String> variables(JsonNode spec) {
        Map<String, String> variables = new LinkedHashMap<>();
        spec.path("variables").forEach(v -> variables.put(v.path("name").asText(""), v.path("expression").asText("")));
        return variables;
    }
}

package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.render.RenderedObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The entry point: one request through the admission chain's policy plugins, offline. The mutating phase
 * (MutatingAdmissionPolicy, with reinvocation) runs first and the validating phase
 * (ValidatingAdmissionPolicy) sees its result, as in the API server's chain (DESIGN §2). Webhooks are not
 * called: the outcome lists those that would be.
 */
public final class AdmissionSimulator {
    private AdmissionSimulator() {}

    /**
     * @param invokeDirectly evaluate every policy as if its {@code matchConstraints} matched (kaptest's contract:
     *                       a suite names the policy it tests); each policy the API server would not apply is
     *                       noted in the trace as {@code NOT APPLIED BY THE API SERVER}
     */
    public record Options(KubeVersion version, boolean invokeDirectly) {
        public static Options of(KubeVersion version) {
            return new Options(version, false);
        }
    }

    public static AdmissionOutcome review(PolicyConfiguration config, Fixtures fixtures, AdmissionRequest request,
                                          KubeVersion version) {
        return review(config, fixtures, request, Options.of(version));
    }

    public static AdmissionOutcome review(PolicyConfiguration config, Fixtures fixtures, AdmissionRequest request,
                                          Options options) {
        KubeVersion version = options.version();
        List<String> errors = new ArrayList<>();
        List<String> trace = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        Map<String, String> audit = new LinkedHashMap<>();

        MutatingDispatcher.Result mutated = MutatingDispatcher.dispatch(config, request, fixtures, version);
        errors.addAll(mutated.errors());
        trace.addAll(mutated.trace());
        AdmissionRequest afterMutation = mutated.object() == null ? request : request.withObject(mutated.object());
        List<String> webhooks = webhooks(config, afterMutation, fixtures);
        if (mutated.rejection() != null) {
            return new AdmissionOutcome(false, mutated.code(), mutated.rejectionReason(), mutated.rejection(), warnings, audit,
                    afterMutation.object(), webhooks, errors, trace);
        }

        ValidatingDispatcher.Result validated = ValidatingDispatcher.dispatch(config, afterMutation, fixtures, options);
        errors.addAll(validated.errors());
        trace.addAll(validated.trace());
        warnings.addAll(validated.warnings());
        audit.putAll(validated.auditAnnotations());
        List<AdmissionOutcome.Violation> violations = violations(validated);
        if (!validated.denials().isEmpty()) {
            ValidatingDispatcher.Denial first = validated.denials().get(0);
            String message = first.binding() == null
                    ? "ValidatingAdmissionPolicy '" + first.policy() + "' denied request: " + first.message()
                    : "ValidatingAdmissionPolicy '" + first.policy() + "' with binding '" + first.binding()
                    + "' denied request: " + first.message();
            String reason = first.reason() == null || first.reason().isEmpty() ? "Invalid" : first.reason();
            return new AdmissionOutcome(false, reasonToCode(reason), reason, forbidden(afterMutation, message),
                    warnings, audit, afterMutation.object(), webhooks, errors, trace, violations);
        }
        return new AdmissionOutcome(true, 0, "", "", warnings, audit, afterMutation.object(), webhooks, errors, trace,
                violations);
    }

    /** The failed validations of every binding that matched, before validationActions. */
    private static List<AdmissionOutcome.Violation> violations(ValidatingDispatcher.Result validated) {
        List<AdmissionOutcome.Violation> violations = new ArrayList<>();
        for (ValidatingDispatcher.BindingOutcome o : validated.outcomes()) {
            if (o.matched()) {
                o.decisions().stream().filter(PolicyDecision::deny)
                        .forEach(d -> violations.add(new AdmissionOutcome.Violation(o.policy(), o.binding(), d.message())));
                o.alwaysDenied().forEach(m -> violations.add(new AdmissionOutcome.Violation(o.policy(), o.binding(), m)));
            }
        }
        return violations;
    }

    /** {@code validating/dispatcher.go: reasonToCode}. */
    static int reasonToCode(String reason) {
        return switch (reason) {
            case "Forbidden" -> 403;
            case "Unauthorized" -> 401;
            case "RequestEntityTooLarge" -> 413;
            default -> 422;
        };
    }

    /**
     * {@code admission.NewForbidden} then {@code apierrors.NewForbidden}: {@code <resource.group> "<name>" is
     * forbidden: <message>}.
     */
    static String forbidden(AdmissionRequest r, String message) {
        return r.groupResource() + " \"" + r.nameForErrors() + "\" is forbidden: " + message;
    }

    /** The webhooks whose rules and selectors reach the request ({@code Kind/name: webhook}). */
    private static List<String> webhooks(PolicyConfiguration config, AdmissionRequest r, Fixtures fixtures) {
        List<String> found = new ArrayList<>();
        for (AdmissionKind kind : List.of(AdmissionKind.MUTATING_WEBHOOK_CONFIGURATION,
                AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION)) {
            for (RenderedObject configuration : config.of(kind)) {
                JsonNode list = configuration.manifest().path("webhooks");
                for (int i = 0; i < list.size(); i++) {
                    var verdict = Interception.webhook(list.get(i), "webhooks[" + i + "]", r, fixtures);
                    if (verdict.mayMatch()) {
                        found.add(configuration.id() + ": " + list.get(i).path("name").asText("")
                                + (verdict.undecided() ? " (unless its matchConditions exclude it)" : ""));
                    }
                }
            }
        }
        return found;
    }

    static ObjectNode copy(ObjectNode node) {
        return node == null ? null : node.deepCopy();
    }
}

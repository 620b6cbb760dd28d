package dev.policyset.aps.core.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.intercept.Interceptor;
import dev.policyset.aps.core.intercept.LabelSelector;
import dev.policyset.aps.core.intercept.LabelSet;
import dev.policyset.aps.core.intercept.Operation;
import dev.policyset.aps.core.intercept.Verdict;

import java.util.Map;

/**
 * The simulation's questions to the interception model ({@link Interceptor}, the one every rule asks): does a
 * policy's {@code matchConstraints}, a binding's {@code matchResources}, a webhook's rules and selectors reach
 * this request? Namespace labels come from the fixtures.
 *
 * <p>Policies' and bindings' matchConditions are left out of the question: the simulation evaluates them in
 * CEL itself ({@link MatchConditions}), where the model only recognises a few forms.
 */
final class Interception {
    private Interception() {}

    /** {@code DefinitionMatches}: the policy's matchConstraints. */
    static Verdict policy(JsonNode policySpec, AdmissionRequest r, Fixtures fixtures) {
        return Interceptor.ofPolicy(withoutConditions(policySpec)).match(request(r, fixtures));
    }

    /** {@code BindingMatches} on top of the policy's matchConstraints. */
    static Verdict binding(JsonNode policySpec, JsonNode bindingSpec, AdmissionRequest r, Fixtures fixtures) {
        return Interceptor.ofBinding(withoutConditions(policySpec), bindingSpec).match(request(r, fixtures));
    }

    /** A webhook's rules, selectors and (where the model can decide them) matchConditions. */
    static Verdict webhook(JsonNode webhook, String path, AdmissionRequest r, Fixtures fixtures) {
        return Interceptor.ofWebhook(webhook, path).match(request(r, fixtures));
    }

    /** A paramRef selector against a param's labels ({@code metav1.LabelSelectorAsSelector}). */
    static boolean labelsMatch(JsonNode selector, Map<String, String> labels) {
        return LabelSelector.read(selector).matches(labels);
    }

    static JsonNode withoutConditions(JsonNode policySpec) {
        if (policySpec instanceof ObjectNode o && o.has("matchConditions")) {
            ObjectNode copy = o.deepCopy();
            copy.remove("matchConditions");
            return copy;
        }
        return policySpec;
    }

    /** The model's concrete request for a simulated one. */
    static dev.policyset.aps.core.intercept.AdmissionRequest request(AdmissionRequest r, Fixtures fixtures) {
        Operation op = Operation.parse(r.operation()).orElse(Operation.CREATE);
        dev.policyset.aps.core.intercept.AdmissionRequest q = dev.policyset.aps.core.intercept.AdmissionRequest
                .of(r.group(), r.version(), r.resource(), op)
                .withSubresource(r.subResource()).withName(r.name()).withKind(r.kind());
        if (!r.namespace().isEmpty()) {
            q = q.inNamespace(r.namespace(), fixtures.namespaceLabels(r.namespace()));
        }
        return q.withObject(r.object() == null ? null : LabelSet.exactly(ParamResolver.labels(r.object())))
                .withOldObject(r.oldObject() == null ? null : LabelSet.exactly(ParamResolver.labels(r.oldObject())));
    }
}

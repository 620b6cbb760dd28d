package dev.policyset.aps.core.validate.safety;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.intercept.Interceptor;
import dev.policyset.aps.core.intercept.LabelSelector;
import dev.policyset.aps.core.intercept.Rule;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.validate.ValidationSubject;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One webhook of a webhook configuration, with the API server's defaults applied where the object leaves
 * a field out: {@code failurePolicy} Fail, {@code timeoutSeconds} 10.
 */
record WebhookRef(RenderedObject object, int index, ObjectNode hook) {
    static final int DEFAULT_TIMEOUT_SECONDS = 10;

    /** Every webhook of every webhook configuration in the input, in input order. */
    static List<WebhookRef> all(SafetyContext context) {
        List<WebhookRef> out = new ArrayList<>();
        for (ValidationSubject s : context.subjects()) {
            RenderedObject o = s.object();
            if (o.kind() != AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION
                    && o.kind() != AdmissionKind.MUTATING_WEBHOOK_CONFIGURATION) {
                continue;
            }
            JsonNode list = o.manifest().get("webhooks");
            if (list == null || !list.isArray()) {
                continue;
            }
            for (int i = 0; i < list.size(); i++) {
                if (list.get(i) instanceof ObjectNode hook) {
                    out.add(new WebhookRef(o, i, hook));
                }
            }
        }
        return out;
    }

    boolean mutating() {
        return object.kind() == AdmissionKind.MUTATING_WEBHOOK_CONFIGURATION;
    }

    String id() {
        return object.id();
    }

    String path() {
        return "webhooks[" + index + "]";
    }

    String field(String name) {
        return path() + "." + name;
    }

    String name() {
        JsonNode n = hook.get("name");
        return n != null && n.isTextual() ? n.asText() : path();
    }

    /** How the message names it: {@code webhook "x"}. */
    String label() {
        return "webhook \"" + name() + "\"";
    }

    String failurePolicy() {
        JsonNode n = hook.get("failurePolicy");
        return n != null && n.isTextual() ? n.asText() : "Fail";
    }

    boolean failClosed() {
        return !failurePolicy().equals("Ignore");
    }

    /** "failurePolicy Fail" or "failurePolicy unset (defaults to Fail)". */
    String failureDescription() {
        return hook.has("failurePolicy") ? "failurePolicy " + failurePolicy() : "failurePolicy unset (the API server defaults it to Fail)";
    }

    int timeoutSeconds() {
        JsonNode n = hook.get("timeoutSeconds");
        return n != null && n.canConvertToInt() && n.isIntegralNumber() ? n.asInt() : DEFAULT_TIMEOUT_SECONDS;
    }

    boolean timeoutSet() {
        JsonNode n = hook.get("timeoutSeconds");
        return n != null && n.isIntegralNumber();
    }

    List<Rule> rules() {
        return Rule.readAll(hook.get("rules"), field("rules"));
    }

    /** What this webhook intercepts (the interception model). */
    Interceptor interceptor() {
        return Interceptor.ofWebhook(hook, path());
    }

    /** The same webhook without its objectSelector: what it would intercept if every object opted in. */
    Interceptor interceptorForAnyObject() {
        ObjectNode copy = hook.deepCopy();
        copy.remove("objectSelector");
        return Interceptor.ofWebhook(copy, path());
    }

    LabelSelector namespaceSelector() {
        return LabelSelector.read(hook.get("namespaceSelector"));
    }

    LabelSelector objectSelector() {
        return LabelSelector.read(hook.get("objectSelector"));
    }

    Optional<String> reinvocationPolicy() {
        JsonNode n = hook.get("reinvocationPolicy");
        return n != null && n.isTextual() ? Optional.of(n.asText()) : Optional.empty();
    }

    /** {@code clientConfig.service}, when the webhook is reached through a Service. */
    Optional<JsonNode> service() {
        JsonNode s = hook.path("clientConfig").get("service");
        return s != null && s.isObject() ? Optional.of(s) : Optional.empty();
    }

    boolean hasCaBundle() {
        JsonNode ca = hook.path("clientConfig").get("caBundle");
        return ca != null && ca.isTextual() && !ca.asText().isBlank();
    }
}

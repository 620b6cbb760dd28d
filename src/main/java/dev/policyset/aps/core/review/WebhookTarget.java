package dev.policyset.aps.core.review;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.render.RenderedObject;

import java.util.ArrayList;
import java.util.List;

/**
 * One webhook of a Validating/MutatingWebhookConfiguration, with the defaults of its configuration's API version
 * applied ({@code admissionregistration/v1/defaults.go}: failurePolicy Fail, timeoutSeconds 10, no default for
 * sideEffects or admissionReviewVersions, which v1 requires; {@code v1beta1/defaults.go}: failurePolicy Ignore,
 * timeoutSeconds 30, sideEffects Unknown, admissionReviewVersions [v1beta1]).
 *
 * @param configuration {@code MutatingWebhookConfiguration/name}
 * @param path          the webhook's field path in its configuration ({@code webhooks[2]})
 * @param url           {@code clientConfig.url}, or null
 * @param service       {@code clientConfig.service}, or null
 * @param caBundle      {@code clientConfig.caBundle} as written (base64 of PEM), {@code ""} when absent
 * @param sideEffects   null when the configuration does not say
 * @param hook          the webhook as written, for the interception model
 */
public record WebhookTarget(String configuration, String path, String name, boolean mutating, String url,
                            Service service, String caBundle, int timeoutSeconds, List<String> admissionReviewVersions,
                            String sideEffects, String failurePolicy, String reinvocationPolicy, JsonNode hook) {
    public WebhookTarget {
        admissionReviewVersions = List.copyOf(admissionReviewVersions);
    }

    /**
     * {@code clientConfig.service}. The API server connects to {@code https://NAME.NAMESPACE.svc:PORT/PATH} (port
     * default 443) and verifies the serving certificate for {@link #host()} ({@code util/webhook/client.go:
     * ClientManager.HookClient} sets {@code TLSClientConfig.ServerName}).
     */
    public record Service(String namespace, String name, String path, int port) {
        public String host() {
            return name + "." + namespace + ".svc";
        }
    }

    /** The webhooks named {@code selector} ({@code NAME}, or {@code CONFIGURATION/NAME} when the name is not unique). */
    public record Lookup(WebhookTarget target, String problem) {}

    public static Lookup find(List<RenderedObject> objects, String selector) {
        String configName = null;
        String hookName = selector;
        int slash = selector.indexOf('/');
        if (slash >= 0) {
            configName = selector.substring(0, slash);
            hookName = selector.substring(slash + 1);
        }
        List<WebhookTarget> found = new ArrayList<>();
        List<String> known = new ArrayList<>();
        for (RenderedObject o : objects) {
            if (o.kind() != AdmissionKind.MUTATING_WEBHOOK_CONFIGURATION
                    && o.kind() != AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION) {
                continue;
            }
            JsonNode hooks = o.manifest().path("webhooks");
            for (int i = 0; i < hooks.size(); i++) {
                JsonNode hook = hooks.get(i);
                String name = hook.path("name").asText("");
                known.add(o.name() + "/" + name);
                if (name.equals(hookName) && (configName == null || configName.equals(o.name()))) {
                    found.add(of(o, i));
                }
            }
        }
        if (found.size() == 1) {
            return new Lookup(found.get(0), null);
        }
        if (found.isEmpty()) {
            return new Lookup(null, "no webhook named " + selector + " in --config"
                    + (known.isEmpty() ? " (it has no webhook configurations)" : "; it has: " + String.join(", ", known)));
        }
        return new Lookup(null, "webhook name " + selector + " is used in " + found.size()
                + " configurations; say which with --webhook CONFIGURATION/NAME: "
                + String.join(", ", found.stream().map(t -> t.configuration() + " " + t.name()).toList()));
    }

    static WebhookTarget of(RenderedObject o, int index) {
        JsonNode hook = o.manifest().path("webhooks").get(index);
        boolean v1beta1 = o.manifest().path("apiVersion").asText("").endsWith("/v1beta1");
        JsonNode cc = hook.path("clientConfig");
        JsonNode svc = cc.get("service");
        Service service = svc == null || !svc.isObject() ? null : new Service(svc.path("namespace").asText(""),
                svc.path("name").asText(""), svc.path("path").asText(""), svc.path("port").asInt(443));
        List<String> versions = new ArrayList<>();
        JsonNode v = hook.get("admissionReviewVersions");
        if (v != null && v.isArray()) {
            v.forEach(x -> versions.add(x.asText()));
        } else if (v1beta1) {
            versions.add(AdmissionReviews.V1BETA1);
        }
        JsonNode t = hook.get("timeoutSeconds");
        return new WebhookTarget(o.kind().kind() + "/" + o.name(), "webhooks[" + index + "]", hook.path("name").asText(""),
                o.kind() == AdmissionKind.MUTATING_WEBHOOK_CONFIGURATION,
                cc.hasNonNull("url") ? cc.get("url").asText() : null, service, cc.path("caBundle").asText(""),
                t != null && t.canConvertToInt() ? t.asInt() : v1beta1 ? 30 : 10, versions,
                hook.hasNonNull("sideEffects") ? hook.get("sideEffects").asText() : v1beta1 ? "Unknown" : null,
                hook.hasNonNull("failurePolicy") ? hook.get("failurePolicy").asText() : v1beta1 ? "Ignore" : "Fail",
                hook.hasNonNull("reinvocationPolicy") ? hook.get("reinvocationPolicy").asText() : "Never", hook);
    }
}

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

    /** The webhook a {@code --webhook} selector names, or why none (or several) does. */
    public record Lookup(WebhookTarget target, String problem) {}

    /** The selector forms, for messages. */
    static final String FORMS = "NAME, CONFIGURATION/NAME or KIND/CONFIGURATION/NAME";

    /**
     * The webhook {@code selector} names: {@code NAME} ({@code webhooks[].name}), {@code CONFIGURATION/NAME} when
     * several configurations use the name, {@code KIND/CONFIGURATION/NAME} when a validating and a mutating
     * configuration also share their name (cert-manager's are both {@code cert-manager-webhook}), and
     * {@code KIND/CONFIGURATION} for a configuration's only webhook (the {@code Kind/name} that messages print).
     * Names are DNS subdomains, so a {@code /} cannot be part of one. KIND is MutatingWebhookConfiguration or
     * ValidatingWebhookConfiguration, in any case.
     */
    public static Lookup find(List<RenderedObject> objects, String selector) {
        String[] parts = selector.split("/", -1);
        AdmissionKind kind = parts.length >= 2 ? kindNamed(parts[0]) : null;
        String configName;
        String hookName;
        switch (parts.length) {
            case 1 -> { configName = null; hookName = parts[0]; }
            case 2 -> { configName = kind == null ? parts[0] : parts[1]; hookName = kind == null ? parts[1] : null; }
            case 3 -> { configName = parts[1]; hookName = parts[2]; }
            default -> { return new Lookup(null, "--webhook " + selector + ": expected " + FORMS); }
        }
        if (parts.length == 3 && kind == null) {
            return new Lookup(null, "--webhook " + selector + ": " + parts[0] + " is not MutatingWebhookConfiguration "
                    + "or ValidatingWebhookConfiguration (expected " + FORMS + ")");
        }
        List<WebhookTarget> all = new ArrayList<>();
        for (RenderedObject o : objects) {
            if (isWebhookConfiguration(o.kind())) {
                for (int i = 0; i < o.manifest().path("webhooks").size(); i++) {
                    all.add(of(o, i));
                }
            }
        }
        List<WebhookTarget> found = all.stream()
                .filter(t -> kind == null || t.configuration().startsWith(kind.kind() + "/"))
                .filter(t -> configName == null || t.configurationName().equals(configName))
                .filter(t -> hookName == null || t.name().equals(hookName)).toList();
        if (found.size() == 1) {
            return new Lookup(found.get(0), null);
        }
        if (found.isEmpty()) {
            return new Lookup(null, "no webhook named " + selector + " in --config" + (all.isEmpty()
                    ? " (it has no webhook configurations)" : "; it has: " + selectors(all, all)));
        }
        return new Lookup(null, (hookName == null ? "configuration " + selector + " has " + found.size() + " webhooks"
                : "webhook name " + selector + " is used " + found.size() + " times") + "; say which with --webhook: "
                + selectors(found, all));
    }

    /** Each target's shortest selector that names it alone among {@code all}. */
    private static String selectors(List<WebhookTarget> targets, List<WebhookTarget> all) {
        return String.join(", ", targets.stream().map(t -> {
            boolean configNameShared = all.stream().anyMatch(o -> o.name().equals(t.name())
                    && o.configurationName().equals(t.configurationName()) && !o.configuration().equals(t.configuration()));
            return (configNameShared ? t.configuration() : t.configurationName()) + "/" + t.name();
        }).toList());
    }

    private static AdmissionKind kindNamed(String text) {
        for (AdmissionKind k : AdmissionKind.values()) {
            if (isWebhookConfiguration(k) && k.kind().equalsIgnoreCase(text)) {
                return k;
            }
        }
        return null;
    }

    private static boolean isWebhookConfiguration(AdmissionKind kind) {
        return kind == AdmissionKind.MUTATING_WEBHOOK_CONFIGURATION || kind == AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION;
    }

    /** The configuration's {@code metadata.name}. */
    public String configurationName() {
        return configuration.substring(configuration.indexOf('/') + 1);
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

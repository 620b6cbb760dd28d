package dev.policyset.aps.core.validate.safety;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.finding.Finding;

import java.util.List;
import java.util.Optional;

/**
 * APS501: a webhook reached through a Service has no {@code caBundle}, and nothing says who fills it in.
 *
 * <p>Risk model: the API server verifies the service's serving certificate against {@code caBundle}, or without one
 * against its own system trust roots, which a cluster-internal certificate does not chain to: every call fails, and
 * the failurePolicy decides what that means. Many installations leave the field empty on purpose because something
 * fills it in at run time; the rule stays silent when the configuration says so:
 * <ul>
 *   <li>cert-manager's CA injector: annotation {@code cert-manager.io/inject-ca-from},
 *       {@code cert-manager.io/inject-ca-from-secret} or {@code cert-manager.io/inject-apiserver-ca};</li>
 *   <li>OpenShift's service CA operator: annotation {@code service.beta.openshift.io/inject-cabundle: "true"};</li>
 *   <li>OLM, which creates the configurations of an operator's ClusterServiceVersion with the CA it generated: label
 *       {@code olm.webhook-description-generate-name}, or {@code olm.owner.kind: ClusterServiceVersion};</li>
 *   <li>Gatekeeper, istiod and Kyverno, which patch their own webhooks' caBundle: recognised by their labels and
 *       webhook names ({@link RuntimeCaInjectors});</li>
 *   <li>any other controller that fills it at run time (Knative, Tekton, KEDA and most operators that manage their own
 *       certificates): annotation {@value #RUNTIME_ANNOTATION}{@code : runtime}, this project's own way to say so.</li>
 * </ul>
 * URL webhooks are not judged (a public endpoint may use a public CA). A warning, never an error: whether a run-time
 * injector exists is not visible in the configuration.
 */
public final class Aps501MissingCaBundle implements SafetyRule {
    /** This project's annotation: {@code admission.policyset.dev/ca-bundle: runtime} means "filled at run time". */
    public static final String RUNTIME_ANNOTATION = "admission.policyset.dev/ca-bundle";
    private static final List<String> CERT_MANAGER = List.of("cert-manager.io/inject-ca-from",
            "cert-manager.io/inject-ca-from-secret", "cert-manager.io/inject-apiserver-ca");

    @Override
    public String id() {
        return "APS501";
    }

    @Override
    public List<Finding> check(SafetyContext context) {
        return WebhookRef.all(context).stream()
                .filter(w -> w.service().isPresent() && !w.hasCaBundle() && injector(w).isEmpty())
                .map(w -> Finding.warning(id(), w.id(), w.field("clientConfig.caBundle"),
                        w.label() + " calls a Service but has no clientConfig.caBundle, and the configuration does not say "
                                + "who injects it: the API server cannot verify the service's certificate, so every call "
                                + "fails (" + w.failureDescription() + "). Set caBundle, or say who fills it in: the "
                                + "annotation cert-manager.io/inject-ca-from: <namespace>/<certificate> (cert-manager), "
                                + "service.beta.openshift.io/inject-cabundle: \"true\" (OpenShift), or "
                                + RUNTIME_ANNOTATION + ": runtime when the webhook's own controller fills it in"))
                .toList();
    }

    /** Who fills this webhook's caBundle in at run time, according to its configuration; empty when nobody says. */
    static Optional<String> injector(WebhookRef webhook) {
        JsonNode metadata = webhook.object().manifest().path("metadata");
        return annotated(metadata).or(() -> RuntimeCaInjectors.of(webhook.mutating(), metadata,
                webhook.hook().path("name").asText("")));
    }

    /** Who fills the caBundle in at run time, according to the configuration's annotations and OLM's labels. */
    static Optional<String> annotated(JsonNode metadata) {
        JsonNode annotations = metadata.path("annotations");
        JsonNode labels = metadata.path("labels");
        if (CERT_MANAGER.stream().anyMatch(annotations::has)) {
            return Optional.of("cert-manager");
        }
        if (annotations.path("service.beta.openshift.io/inject-cabundle").asText("").equalsIgnoreCase("true")) {
            return Optional.of("OpenShift service CA");
        }
        if (labels.has("olm.webhook-description-generate-name")
                || labels.path("olm.owner.kind").asText("").equals("ClusterServiceVersion")) {
            return Optional.of("OLM");
        }
        if (annotations.path(RUNTIME_ANNOTATION).asText("").equals("runtime")) {
            return Optional.of("its own controller");
        }
        return Optional.empty();
    }
}

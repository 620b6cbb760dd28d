package dev.policyset.aps.core.validate.safety;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.validate.Finding;

import java.util.List;

/**
 * APS501: a webhook reached through a Service has no {@code caBundle} and its configuration carries no
 * cert-manager CA-injection annotation. The API server then verifies the service's certificate against its own
 * system trust roots, which a cluster-internal serving certificate does not chain to: every call fails, and the
 * failurePolicy decides what that means. URL webhooks are not judged (public endpoints may use public CAs).
 */
public final class Aps501MissingCaBundle implements SafetyRule {
    private static final List<String> INJECTION_ANNOTATIONS = List.of("cert-manager.io/inject-ca-from",
            "cert-manager.io/inject-ca-from-secret", "cert-manager.io/inject-apiserver-ca");

    @Override
    public String id() {
        return "APS501";
    }

    @Override
    public List<Finding> check(SafetyContext context) {
        return WebhookRef.all(context).stream()
                .filter(w -> w.service().isPresent() && !w.hasCaBundle() && !injected(w))
                .map(w -> Finding.warning(id(), w.id(), w.field("clientConfig.caBundle"),
                        w.label() + " calls a Service but has no clientConfig.caBundle and no cert-manager "
                                + "injection annotation: the API server cannot verify the service's certificate, so every "
                                + "call fails (" + w.failureDescription() + "). Add the annotation "
                                + "cert-manager.io/inject-ca-from: <namespace>/<certificate> to the configuration, or set caBundle"))
                .toList();
    }

    private static boolean injected(WebhookRef w) {
        JsonNode annotations = w.object().manifest().path("metadata").path("annotations");
        return annotations.isObject() && INJECTION_ANNOTATIONS.stream().anyMatch(annotations::has);
    }
}

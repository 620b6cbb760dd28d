package dev.policyset.aps.core.validate.safety;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Optional;

/**
 * The admission controllers that fill their own webhooks' {@code caBundle} at run time, recognised by the marks
 * their configurations carry, for APS501. Each is recognised by the label its controller selects or stamps and by
 * the webhook names it patches, never by the configuration's name alone (a renamed copy keeps the marks, and an
 * unrelated configuration named like one does not have them).
 */
final class RuntimeCaInjectors {
    private RuntimeCaInjectors() {}

    /** Who fills this webhook's caBundle at run time, or empty when none of these controllers does. */
    static Optional<String> of(boolean mutating, JsonNode metadata, String webhookName) {
        JsonNode labels = metadata.path("labels");
        if (gatekeeper(labels, webhookName)) {
            return Optional.of("Gatekeeper's certificate rotator");
        }
        if (istio(mutating, labels, webhookName)) {
            return Optional.of("istiod");
        }
        if (kyverno(labels)) {
            return Optional.of("Kyverno's webhook controller");
        }
        return Optional.empty();
    }

    /**
     * Gatekeeper: its controller manager runs cert-controller's rotator over the configurations named by
     * {@code --validating-webhook-configuration-name} / {@code --mutating-webhook-configuration-name} (defaults
     * {@code gatekeeper-validating-webhook-configuration}, {@code gatekeeper-mutating-webhook-configuration};
     * open-policy-agent/gatekeeper: main.go) and writes its CA into every webhook of them. Its manifests label every
     * object they install {@code gatekeeper.sh/system: "yes"} (deploy/gatekeeper.yaml), and its webhooks are named
     * {@code *.gatekeeper.sh} (validation., check-ignore-label., mutation.).
     */
    private static boolean gatekeeper(JsonNode labels, String webhookName) {
        return labels.path("gatekeeper.sh/system").asText("").equals("yes") && webhookName.endsWith(".gatekeeper.sh");
    }

    /**
     * Istio: istiod's webhook cert patcher watches the MutatingWebhookConfigurations labelled
     * {@code istio.io/rev=<its revision>} and writes its CA into the webhooks whose name ends with
     * {@code sidecar-injector.istio.io} (istio/istio: pilot/pkg/webhooks/webhookpatch.go, {@code strings.HasSuffix});
     * its validation controller does the same for the ValidatingWebhookConfigurations labelled {@code istio.io/rev}
     * ({@code validation.istio.io}, {@code rev.validation.istio.io}; the istiod chart's
     * validatingwebhookconfiguration.yaml: "caBundle patched at runtime when the webhook is ready"). Any revision
     * counts, the empty default one too: the label's presence is what the patcher selects on.
     */
    private static boolean istio(boolean mutating, JsonNode labels, String webhookName) {
        if (!labels.has("istio.io/rev")) {
            return false;
        }
        return mutating ? webhookName.endsWith("sidecar-injector.istio.io") : webhookName.endsWith("validation.istio.io");
    }

    /**
     * Kyverno: its webhook controller creates and updates its configurations itself, with the CA of the certificate
     * it manages, and stamps each with {@code webhook.kyverno.io/managed-by: kyverno} (kyverno/kyverno:
     * pkg/controllers/webhook/utils.go {@code objectMeta}, {@code kyverno.LabelWebhookManagedBy:
     * kyverno.ValueKyvernoApp}); such a configuration is in an input only when exported from a cluster.
     */
    private static boolean kyverno(JsonNode labels) {
        return labels.path("webhook.kyverno.io/managed-by").asText("").equals("kyverno");
    }
}

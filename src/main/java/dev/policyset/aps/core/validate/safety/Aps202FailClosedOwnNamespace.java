package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.validate.Finding;

import java.util.ArrayList;
import java.util.List;

/**
 * APS202: a fail-closed webhook can intercept requests in the namespace of its own backing Service. When the
 * backend is down, the Deployment, Pods and Endpoints that would bring it back are refused by the webhook
 * itself.
 */
public final class Aps202FailClosedOwnNamespace implements SafetyRule {
    @Override
    public String id() {
        return "APS202";
    }

    @Override
    public List<Finding> check(SafetyContext context) {
        List<Finding> out = new ArrayList<>();
        for (WebhookRef w : WebhookRef.all(context)) {
            if (!w.failClosed() || !w.canMatchNamespacedBuiltin() || w.service().isEmpty()) {
                continue;
            }
            String namespace = Subjects.text(w.service().get(), "namespace").orElse("");
            if (namespace.isEmpty() || !Selectors.matchesBareNamespace(w.namespaceSelector(), namespace)) {
                continue;
            }
            out.add(Finding.error(id(), w.id(), w.field("namespaceSelector"),
                    w.label() + " has " + w.failureDescription() + " and can intercept requests in " + namespace
                            + ", the namespace of its own service (clientConfig.service.namespace): if its backend is "
                            + "down, the objects that would bring it back are refused by the webhook itself. Exclude "
                            + namespace + " with {key: kubernetes.io/metadata.name, operator: NotIn, values: ["
                            + namespace + "]} (in a set: spec.defaults.excludedNamespaces), or set failurePolicy: Ignore"));
        }
        return out;
    }
}

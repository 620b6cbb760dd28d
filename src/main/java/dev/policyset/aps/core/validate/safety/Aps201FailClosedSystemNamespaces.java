package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.validate.Finding;

import java.util.ArrayList;
import java.util.List;

/**
 * APS201: a fail-closed webhook can intercept requests in {@code kube-system} or {@code kube-node-lease}.
 *
 * <p>Only an exclusion by {@code kubernetes.io/metadata.name} counts (see {@link Selectors}); an
 * objectSelector is never a namespace boundary. The rule looks at rules that can match namespaced objects
 * of built-in API groups (custom resources are not what the control plane writes there); kube-node-lease
 * matters only for rules that can match {@code coordination.k8s.io} leases, the only thing kept there.
 */
public final class Aps201FailClosedSystemNamespaces implements SafetyRule {
    @Override
    public String id() {
        return "APS201";
    }

    @Override
    public List<Finding> check(SafetyContext context) {
        List<Finding> out = new ArrayList<>();
        for (WebhookRef w : WebhookRef.all(context)) {
            if (!w.failClosed() || !w.canMatchNamespacedBuiltin()) {
                continue;
            }
            List<String> namespaces = new ArrayList<>();
            if (Selectors.matchesBareNamespace(w.namespaceSelector(), "kube-system")) {
                namespaces.add("kube-system");
            }
            boolean leases = w.rules().stream().anyMatch(r -> r.matches("coordination.k8s.io", "leases"));
            if (leases && Selectors.matchesBareNamespace(w.namespaceSelector(), "kube-node-lease")) {
                namespaces.add("kube-node-lease");
            }
            if (namespaces.isEmpty()) {
                continue;
            }
            String list = String.join(", ", namespaces);
            out.add(Finding.error(id(), w.id(), w.field("namespaceSelector"),
                    w.label() + " has " + w.failureDescription() + " and its namespaceSelector does not exclude " + list
                            + " by name: while the webhook's backend is unreachable, writes there are refused and the "
                            + "control plane cannot heal itself. Add {key: kubernetes.io/metadata.name, operator: NotIn, "
                            + "values: [" + list + "]} to the namespaceSelector (in a set: spec.defaults.excludedNamespaces), "
                            + "or set failurePolicy: Ignore"));
        }
        return out;
    }
}

package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.validate.Finding;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * APS205: a fail-closed webhook intercepts API objects the control plane itself needs: node heartbeats and
 * leader election (leases), authentication and authorization reviews, nodes (and their status), certificate
 * signing requests (kubelet certificates), events. For the namespaced ones (leases, events) a namespaceSelector
 * that excludes kube-system and kube-node-lease by name keeps the control plane's own objects out; the
 * cluster-scoped ones are never narrowed by a namespaceSelector.
 */
public final class Aps205ControlPlaneResources implements SafetyRule {
    /**
     * @param webhooksSkipFrom the server minor from which admission webhooks no longer see this resource at all
     *                         (0: always intercepted)
     */
    private record Critical(String group, String resource, boolean namespaced, int webhooksSkipFrom) {
        Critical(String group, String resource, boolean namespaced) {
            this(group, resource, namespaced, 0);
        }

        boolean interceptedAt(KubeVersion version) {
            return webhooksSkipFrom == 0 || version == null || !version.atLeast(1, webhooksSkipFrom);
        }

        String label() {
            return group.isEmpty() ? resource : resource + "." + group;
        }
    }

    private static final List<Critical> CRITICAL = List.of(
            new Critical("coordination.k8s.io", "leases", true),
            // Kubernetes 1.37 excludes the authentication/authorization reviews from admission webhooks, as admission
            // policies already did (feature ExcludeAdmissionWebhookVirtualResources, beta and on by default in 1.37:
            // k8s.io/apiserver pkg/features/kube_features.go; the list is kubeapiserver/admission/exclusion/resources.go)
            new Critical("authentication.k8s.io", "tokenreviews", false, 37),
            new Critical("authorization.k8s.io", "subjectaccessreviews", false, 37),
            new Critical("", "nodes", false),
            new Critical("", "nodes/status", false),
            new Critical("certificates.k8s.io", "certificatesigningrequests", false),
            new Critical("", "events", true),
            new Critical("events.k8s.io", "events", true));

    @Override
    public String id() {
        return "APS205";
    }

    @Override
    public List<Finding> check(SafetyContext context) {
        List<Finding> out = new ArrayList<>();
        for (WebhookRef w : WebhookRef.all(context)) {
            if (!w.failClosed()) {
                continue;
            }
            boolean systemReachable = Selectors.matchesBareNamespace(w.namespaceSelector(), "kube-system")
                    || Selectors.matchesBareNamespace(w.namespaceSelector(), "kube-node-lease");
            Set<String> hit = new LinkedHashSet<>();
            for (Critical c : CRITICAL) {
                if (c.interceptedAt(context.options().kubeVersion()) && (!c.namespaced() || systemReachable)
                        && w.rules().stream().anyMatch(r -> !r.operations().isEmpty() && r.matches(c.group(), c.resource()))) {
                    hit.add(c.label());
                }
            }
            if (!hit.isEmpty()) {
                out.add(Finding.error(id(), w.id(), w.field("rules"),
                        w.label() + " has " + w.failureDescription() + " and intercepts " + String.join(", ", hit)
                                + ", which the control plane itself writes (heartbeats, authentication, node registration): "
                                + "while the webhook is unreachable nodes go NotReady and logins fail. Remove these resources "
                                + "from its rules (list resources explicitly instead of *), or set failurePolicy: Ignore"));
            }
        }
        return out;
    }
}

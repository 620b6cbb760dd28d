package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.intercept.Operation;
import dev.policyset.aps.core.model.KubeVersion;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * APS205: a fail-closed webhook intercepts the writes the control plane itself makes to stay alive.
 *
 * <p>Risk model: while the webhook is unreachable these requests are refused, with named consequences: node
 * heartbeats (UPDATE of leases in kube-node-lease, nodes/status) fail and nodes go NotReady; leader election
 * (leases in kube-system) fails and controllers stop; token and access reviews (CREATE of tokenreviews,
 * subjectaccessreviews; these resources are only ever created) fail and authentication through webhooks and
 * kubelets' authorization fail; node registration (CREATE of nodes) and kubelet certificates (CREATE of
 * certificatesigningrequests, UPDATE of their approval and status) fail. The rule asks the interception model
 * about exactly these requests for ordinary objects: <b>error</b> when intercepted, <b>warning</b> when it depends on
 * a matchCondition the model does not evaluate, silent otherwise (so a DELETE-only rule on {@code *} stays silent).
 * Events are not judged: a refused event is dropped and nothing waits for it.
 */
public final class Aps205ControlPlaneResources implements SafetyRule {
    private static final List<Target> CLUSTER = List.of(
            Target.of("", "nodes", Operation.WRITES),
            Target.of("", "nodes/status", Set.of(Operation.UPDATE)),
            Target.of("certificates.k8s.io", "certificatesigningrequests", Set.of(Operation.CREATE)),
            Target.of("certificates.k8s.io", "certificatesigningrequests/approval", Set.of(Operation.UPDATE)),
            Target.of("certificates.k8s.io", "certificatesigningrequests/status", Set.of(Operation.UPDATE)));
    private static final List<Target> LEASES = List.of(Target.of("coordination.k8s.io", "leases", Operation.WRITES));
    /**
     * Kubernetes 1.37 excludes the authentication/authorization reviews from admission webhooks, as admission
     * policies already did (feature ExcludeAdmissionWebhookVirtualResources, beta and on by default in 1.37:
     * k8s.io/apiserver pkg/features/kube_features.go; the list is kubeapiserver/admission/exclusion/resources.go).
     */
    private static final List<Target> REVIEWS_BEFORE_137 = List.of(
            Target.of("authentication.k8s.io", "tokenreviews", Set.of(Operation.CREATE)),
            Target.of("authorization.k8s.io", "subjectaccessreviews", Set.of(Operation.CREATE)));

    private static List<Target> cluster(KubeVersion version) {
        if (version != null && version.atLeast(1, 37)) {
            return CLUSTER;
        }
        List<Target> all = new java.util.ArrayList<>(REVIEWS_BEFORE_137);
        all.addAll(CLUSTER);
        return all;
    }

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
            var hook = w.interceptor();
            List<Target.Reach> reaches = List.of(Target.reach(hook, LEASES, Aps201FailClosedSystemNamespaces.bare("kube-node-lease")),
                    Target.reach(hook, LEASES, Aps201FailClosedSystemNamespaces.bare("kube-system")),
                    Target.reach(hook, cluster(context.options().kubeVersion()), r -> r));
            Set<String> hit = new LinkedHashSet<>();
            Set<String> maybe = new LinkedHashSet<>();
            Set<String> because = new LinkedHashSet<>();
            for (Target.Reach r : reaches) {
                r.matched().forEach(t -> hit.add(t.label()));
                r.undecided().forEach(t -> maybe.add(t.label()));
                because.addAll(r.undecidedBecause());
            }
            String consequence = ", which the control plane itself writes (node heartbeats, leader election, "
                    + "authentication, node registration): while the webhook is unreachable nodes go NotReady, "
                    + "controllers lose leadership and logins fail. Remove these resources from its rules (list resources "
                    + "explicitly instead of *), or set failurePolicy: Ignore";
            if (!hit.isEmpty()) {
                out.add(Finding.error(id(), w.id(), w.field("rules"), w.label() + " has " + w.failureDescription()
                        + " and intercepts " + String.join(", ", hit) + consequence));
            } else if (!maybe.isEmpty()) {
                out.add(Finding.warning(id(), w.id(), w.field("rules"), w.label() + " has " + w.failureDescription()
                        + " and may intercept " + String.join(", ", maybe) + " (it depends on " + String.join("; ", because)
                        + ", which this check cannot decide)" + consequence));
            }
        }
        return out;
    }
}

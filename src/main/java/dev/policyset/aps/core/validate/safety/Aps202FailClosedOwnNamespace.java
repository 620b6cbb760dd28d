package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.intercept.AdmissionRequest;
import dev.policyset.aps.core.intercept.LabelSelector;
import dev.policyset.aps.core.intercept.LabelSet;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * APS202: a fail-closed webhook can intercept what it takes to restore its own backing Service, in that Service's
 * namespace: when the backend is down, the objects that would bring it back are refused by the webhook itself.
 *
 * <p>Risk model: the rule asks the interception model about CREATE and UPDATE of the {@link Recovery} resources in
 * {@code clientConfig.service.namespace}, for a namespace and objects whose labels are known only in part (the
 * chart may label its own namespace and objects): <b>error</b> when the webhook intercepts them whatever those
 * labels are; <b>warning</b> when it depends on them (an opt-out label on the namespace or on the objects, such as
 * Gatekeeper's {@code admission.gatekeeper.sh/ignore}, which the installation may or may not set) or on a
 * matchCondition the model does not evaluate; silent for DELETE/CONNECT-only webhooks, webhooks on other
 * resources (custom resources, ingresses, ...), opt-in selectors, and URL webhooks.
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
            if (!w.failClosed() || w.service().isEmpty()) {
                continue;
            }
            String namespace = Subjects.text(w.service().get(), "namespace").orElse("");
            if (namespace.isEmpty()) {
                continue;
            }
            UnaryOperator<AdmissionRequest> own = r -> r
                    .inNamespace(namespace, LabelSet.atLeast(Map.of(LabelSelector.NAME_LABEL, namespace)))
                    .withObject(r.object() == null ? null : LabelSet.atLeast(Map.of()))
                    .withOldObject(r.oldObject() == null ? null : LabelSet.atLeast(Map.of()));
            Target.Reach reach = Target.reach(w.interceptor(), Recovery.RESOURCES, own);
            String fix = " Exclude " + namespace + " with {key: kubernetes.io/metadata.name, operator: NotIn, values: ["
                    + namespace + "]} (in a set: spec.defaults.excludedNamespaces), or set failurePolicy: Ignore";
            if (!reach.matched().isEmpty()) {
                out.add(Finding.error(id(), w.id(), w.field("namespaceSelector"),
                        w.label() + " has " + w.failureDescription() + " and intercepts CREATE/UPDATE of "
                                + String.join(", ", reach.labels()) + " in " + namespace + ", the namespace of its own "
                                + "service (clientConfig.service.namespace): if its backend is down, the objects that "
                                + "would bring it back are refused by the webhook itself." + fix));
            } else if (reach.any()) {
                out.add(Finding.warning(id(), w.id(), w.field("namespaceSelector"),
                        w.label() + " has " + w.failureDescription() + " and may intercept CREATE/UPDATE of "
                                + String.join(", ", reach.labels()) + " in " + namespace + ", the namespace of its own "
                                + "service: it depends on " + String.join("; ", reach.undecidedBecause())
                                + ", which this check cannot see. If it does, the objects that would bring its backend "
                                + "back are refused by the webhook itself while the backend is down. Make sure the "
                                + "opt-out applies to " + namespace + " and its objects, or:" + fix));
            }
        }
        return out;
    }
}

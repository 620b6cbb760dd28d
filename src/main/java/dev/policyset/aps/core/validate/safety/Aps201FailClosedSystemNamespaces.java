package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.intercept.AdmissionRequest;
import dev.policyset.aps.core.intercept.Interceptor;
import dev.policyset.aps.core.intercept.KubeResources;
import dev.policyset.aps.core.intercept.LabelSelector;
import dev.policyset.aps.core.intercept.LabelSet;
import dev.policyset.aps.core.intercept.Operation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * APS201: a fail-closed webhook can intercept writes in {@code kube-system} (or node heartbeats in
 * {@code kube-node-lease}).
 *
 * <p>Risk model: while the webhook's backend is unreachable, every write it intercepts is refused. The rule asks the
 * interception model about CREATE and UPDATE of ordinary objects (no labels of their own) in kube-system as the API
 * server creates it (only the {@code kubernetes.io/metadata.name} label):
 * <ul>
 *   <li><b>error</b> when that includes what restoring a kube-system add-on takes ({@link Recovery}) or, in
 *       kube-node-lease, leases: the control plane cannot heal the very thing that broke;</li>
 *   <li><b>warning</b> when it only may (a matchCondition the model does not evaluate), or when it reaches only
 *       other built-in namespaced resources or the kube-system Namespace object (writes refused there, but not what
 *       recovery needs);</li>
 *   <li><b>info</b> when only objects that opt in through the objectSelector are intercepted there: ordinary
 *       objects in kube-system are not, unless someone labels them so;</li>
 *   <li>silent for DELETE- or CONNECT-only webhooks, for custom resources only, and when the namespaceSelector
 *       excludes kube-system by name or requires an opt-in label kube-system does not carry.</li>
 * </ul>
 */
public final class Aps201FailClosedSystemNamespaces implements SafetyRule {
    /** Built-in namespaced resources outside {@link Recovery}, and the kube-system Namespace object itself. */
    private static final List<Target> OTHER_BUILTIN = otherBuiltins();

    @Override
    public String id() {
        return "APS201";
    }

    @Override
    public List<Finding> check(SafetyContext context) {
        List<Finding> out = new ArrayList<>();
        for (WebhookRef w : WebhookRef.all(context)) {
            if (w.failClosed()) {
                judge(w).ifPresent(out::add);
            }
        }
        return out;
    }

    static UnaryOperator<AdmissionRequest> bare(String namespace) {
        Map<String, String> name = Map.of(LabelSelector.NAME_LABEL, namespace);
        return r -> {
            AdmissionRequest in = r.inNamespace(namespace, LabelSet.exactly(name));
            // A Namespace object is judged by its own labels: kube-system's own name label.
            return r.isNamespaceObject() ? in.withObject(r.object() == null ? null : LabelSet.exactly(name))
                    .withOldObject(r.oldObject() == null ? null : LabelSet.exactly(name)) : in;
        };
    }

    private java.util.Optional<Finding> judge(WebhookRef w) {
        Interceptor hook = w.interceptor();
        Target.Reach system = Target.reach(hook, Recovery.RESOURCES, bare("kube-system"));
        Target.Reach lease = Target.reach(hook, List.of(Target.of("coordination.k8s.io", "leases", Operation.WRITES)), bare("kube-node-lease"));
        String field = w.field("namespaceSelector");
        String head = w.label() + " has " + w.failureDescription();
        String fix = " Add {key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system"
                + (lease.any() ? ", kube-node-lease" : "") + "]} to the "
                + "namespaceSelector (in a set: spec.defaults.excludedNamespaces), or set failurePolicy: Ignore";
        if (!system.matched().isEmpty() || !lease.matched().isEmpty()) {
            List<String> where = new ArrayList<>();
            if (!system.matched().isEmpty()) {
                where.add(String.join(", ", system.labels()) + " in kube-system");
            }
            if (!lease.matched().isEmpty()) {
                where.add("leases in kube-node-lease (node heartbeats)");
            }
            return java.util.Optional.of(Finding.error(id(), w.id(), field, head + " and intercepts CREATE/UPDATE of "
                    + String.join("; ", where) + ", and its namespaceSelector does not exclude them by name: while the "
                    + "webhook's backend is unreachable these writes are refused and the control plane cannot bring its "
                    + "own components back." + fix));
        }
        if (system.any() || lease.any()) {
            List<String> because = new ArrayList<>(system.undecidedBecause());
            lease.undecidedBecause().stream().filter(b -> !because.contains(b)).forEach(because::add);
            return java.util.Optional.of(Finding.warning(id(), w.id(), field, head + " and may intercept CREATE/UPDATE of "
                    + String.join(", ", system.any() ? system.labels() : List.of("leases")) + " in "
                    + (system.any() ? "kube-system" : "kube-node-lease") + ": it depends on " + String.join("; ", because)
                    + ", which this check cannot decide. If it does, the control plane cannot bring its own components "
                    + "back while the webhook's backend is unreachable." + fix));
        }
        Target.Reach other = Target.reach(hook, OTHER_BUILTIN, bare("kube-system"));
        if (other.any()) {
            return java.util.Optional.of(Finding.warning(id(), w.id(), field, head + " and "
                    + (other.matched().isEmpty() ? "may intercept" : "intercepts") + " CREATE/UPDATE of "
                    + String.join(", ", other.labels()) + " in kube-system: while its backend is unreachable these writes "
                    + "are refused there (none of them is what the control plane needs to restore its components)."
                    + (other.matched().isEmpty() ? " Undecided: " + String.join("; ", other.undecidedBecause()) + "." : "")
                    + fix));
        }
        Interceptor anyObject = w.interceptorForAnyObject();
        Target.Reach optIn = Target.reach(anyObject, Recovery.RESOURCES, bare("kube-system"));
        if (optIn.any()) {
            return java.util.Optional.of(Finding.info(id(), w.id(), w.field("objectSelector"), head + " and its "
                    + "namespaceSelector does not exclude kube-system, but its objectSelector only selects objects that "
                    + "opt in by label: ordinary objects in kube-system (" + String.join(", ", optIn.labels())
                    + ") are not intercepted. Not a risk unless kube-system's objects are given that label"));
        }
        return java.util.Optional.empty();
    }

    private static List<Target> otherBuiltins() {
        List<Target> out = new ArrayList<>();
        KubeResources.NAMESPACED_BY_GROUP.forEach((group, resources) -> resources.forEach(res -> {
            Target t = Target.of(group, res, Operation.WRITES);
            if (Recovery.RESOURCES.stream().noneMatch(r -> r.group().equals(group) && r.resource().equals(res) && r.subresource().isEmpty())) {
                out.add(t);
            }
        }));
        out.add(Target.of("", "namespaces", Operation.WRITES));
        return List.copyOf(out);
    }
}

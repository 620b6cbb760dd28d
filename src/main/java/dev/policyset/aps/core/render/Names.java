package dev.policyset.aps.core.render;

import dev.policyset.aps.core.model.PodControllers;

/**
 * The one place a generated object's name is made.
 *
 * <p>Scheme: a member's {@code name} is the object's {@code metadata.name}, verbatim: what you write is
 * what you get, so {@code kubectl get} finds it by the name in Git. The only names the operator makes up
 * are a policy's default binding, {@code <policy>-binding}, and the pod-controller autogen copies of a policy and
 * its bindings, {@code <name>-autogen} (Deployment, StatefulSet, DaemonSet, ReplicaSet, Job) and
 * {@code <name>-autogen-cronjobs} (CronJob). All six kinds are cluster-scoped and the API
 * server requires a DNS-1123 subdomain: at most 253 characters of lower-case alphanumerics, '-' and '.',
 * starting and ending with an alphanumeric ({@code apimachinery/pkg/util/validation: IsDNS1123Subdomain}).
 * Names are never truncated or hashed: a name that does not fit is a finding, not a surprise.
 *
 * <p>The grammar itself (DNS-1123 subdomain and the other formats the API server checks) is
 * {@link dev.policyset.aps.core.util.NameFormats}, the one port shared with the validator and the CEL libraries.
 */
public final class Names {
    public static final int MAX_LENGTH = 253;
    public static final String DEFAULT_BINDING_SUFFIX = "-binding";

    private Names() {}

    /** The name of the binding generated for a policy whose {@code bindings} list is absent. */
    public static String defaultBindingName(String policyName) {
        return policyName + DEFAULT_BINDING_SUFFIX;
    }

    /** The name of a policy's or binding's pod-controller autogen copy for one template shape. */
    public static String autogenName(String name, PodControllers.Shape shape) {
        return name + "-autogen" + shape.suffix();
    }
}

package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.intercept.Operation;

import java.util.List;
import java.util.Set;

/**
 * What it takes to bring a service backend (a webhook's, or a kube-system add-on's) back in its own namespace: the
 * objects the controllers, the scheduler and the kubelet create or update on the way from "the pods are gone" to
 * "the service has ready endpoints again". A fail-closed webhook that intercepts CREATE or UPDATE of any of them in
 * that namespace, while its own backend is down, blocks that path.
 *
 * <p>Included: the workload controllers and what they write (deployments, replicasets, statefulsets, daemonsets,
 * replicationcontrollers, controllerrevisions), pods with {@code pods/binding} (the scheduler) and {@code pods/status}
 * (the kubelet reports readiness, which is what puts the pod into the endpoints), services, endpoints and
 * endpointslices, the service account with {@code serviceaccounts/token} (the kubelet requests projected tokens to
 * start a pod), the secrets and configmaps a pod mounts, persistentvolumeclaims, and leader-election leases.
 *
 * <p>Left out on purpose: events (best effort: a refused event is dropped, nothing waits for it), the status of
 * workload objects (the controllers create the pods before they write status, and retry it), scale and eviction
 * subresources, and CONNECT subresources (exec, attach, port-forward: debugging, not recovery).
 */
final class Recovery {
    private Recovery() {}

    static final List<Target> RESOURCES = List.of(
            Target.of("", "pods", Operation.WRITES),
            Target.of("", "pods/status", Set.of(Operation.UPDATE)),
            Target.of("", "pods/binding", Set.of(Operation.CREATE)),
            Target.of("apps", "deployments", Operation.WRITES),
            Target.of("apps", "replicasets", Operation.WRITES),
            Target.of("apps", "statefulsets", Operation.WRITES),
            Target.of("apps", "daemonsets", Operation.WRITES),
            Target.of("apps", "controllerrevisions", Operation.WRITES),
            Target.of("", "replicationcontrollers", Operation.WRITES),
            Target.of("", "services", Operation.WRITES),
            Target.of("", "endpoints", Operation.WRITES),
            Target.of("discovery.k8s.io", "endpointslices", Operation.WRITES),
            Target.of("", "serviceaccounts", Operation.WRITES),
            Target.of("", "serviceaccounts/token", Set.of(Operation.CREATE)),
            Target.of("", "secrets", Operation.WRITES),
            Target.of("", "configmaps", Operation.WRITES),
            Target.of("", "persistentvolumeclaims", Operation.WRITES),
            Target.of("coordination.k8s.io", "leases", Operation.WRITES));
}

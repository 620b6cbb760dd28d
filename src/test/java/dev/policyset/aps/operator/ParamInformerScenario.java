package dev.policyset.aps.operator;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.operator.testing.SetStatus;
import dev.policyset.aps.operator.testing.Sets;
import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.OperatorInstall;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.time.Duration;
import java.util.Optional;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * kubernetes/kubernetes#130887 through the operator, on a control plane of the test class's own (a stopped informer
 * stays stopped for the server's life, so one plane per class): set A with ConfigMap params selected by label
 * enforces; set A is deleted (the operator deletes its binding, the last of that paramKind); set B, the same shape
 * with a ConfigMap created after that, then finds its param only if the server still runs the ConfigMap informer.
 * Both sets use {@code parameterNotFoundAction: Deny}, so a missing param shows as "no params found" on every request.
 */
final class ParamInformerScenario {
    static final Duration WAIT = Duration.ofSeconds(90);
    static final String NOT_FOUND = "no params found";

    private final KubeControlPlane plane;
    private final KubernetesClient admin;

    ParamInformerScenario(KubeControlPlane plane) {
        this.plane = plane;
        this.admin = plane.admin();
    }

    /** What the docs tell admins to grant for ConfigMap params (docs/install.md): get and, for selectors, list. */
    void grantConfigMapParams() {
        admin.rbac().clusterRoles().resource(new ClusterRoleBuilder().withNewMetadata().withName("aps-read-configmap-params")
                .endMetadata().addNewRule().withApiGroups("").withResources("configmaps").withVerbs("get", "list").endRule()
                .build()).createOr(r -> r.update());
        admin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder().withNewMetadata()
                .withName("aps-read-configmap-params").endMetadata().withNewRoleRef().withApiGroup("rbac.authorization.k8s.io")
                .withKind("ClusterRole").withName("aps-read-configmap-params").endRoleRef().addNewSubject()
                .withKind("ServiceAccount").withName("admission-policy-operator").withNamespace(OperatorInstall.NAMESPACE)
                .endSubject().build()).createOr(r -> r.update());
    }

    /** A ConfigMap param in {@code default}, labelled {@code limits=<label>}, allowing at most 2 replicas. */
    void param(String label) {
        admin.configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata().withName("limits-" + label)
                .addToLabels("limits", label).endMetadata().addToData("maxReplicas", "2").build()).create();
    }

    /** Set {@code name} with one policy of the same name selecting the params labelled {@code limits=<label>}. */
    AdmissionPolicySet createSet(String name, String label) {
        admin.resource(Sets.parse("""
                apiVersion: admission.policyset.dev/v1alpha1
                kind: AdmissionPolicySet
                metadata: {name: %1$s}
                spec:
                  validatingPolicies:
                    - name: %1$s
                      policy:
                        paramKind: {apiVersion: v1, kind: ConfigMap}
                        matchConstraints:
                          resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]
                        validations:
                          - expression: "object.spec.replicas <= int(params.?data[?'maxReplicas'].orValue('0'))"
                            message: "%1$s: too many replicas"
                      bindings:
                        - name: %1$s
                          spec:
                            paramRef: {selector: {matchLabels: {limits: %2$s}}, parameterNotFoundAction: Deny}
                """.formatted(name, label))).create();
        return SetStatus.awaitReady(admin, name, 1, WAIT);
    }

    /** Waits until the server enforces set {@code name} with its param: 3 replicas denied by its message, 1 admitted. */
    void awaitEnforcedWithParams(String name) {
        await().atMost(WAIT).untilAsserted(() -> {
            String denied = denial(3).orElseThrow(() -> new AssertionError("3 replicas admitted"));
            assertTrue(denied.contains(name + ": too many replicas"), denied);
            assertTrue(denial(1).isEmpty(), () -> "1 replica denied: " + denial(1));
        });
    }

    /** Deletes the set and waits until the server no longer enforces anything on Deployments (its binding is gone). */
    void deleteSetAndAwaitNothingEnforced(String name) {
        admin.resources(AdmissionPolicySet.class).withName(name).delete();
        await().atMost(WAIT).until(() -> admin.resources(AdmissionPolicySet.class).withName(name).get() == null
                && live(AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING, name).isEmpty());
        // admitted means the plugin has recomputed its bindings: the same pass that cancels unused param informers
        await().atMost(WAIT).until(() -> denial(3).isEmpty());
    }

    /** The server's refusal of a dry-run Deployment with this many replicas; empty when admitted. */
    Optional<String> denial(int replicas) {
        try {
            admin.apps().deployments().inNamespace("default").resource(new DeploymentBuilder()
                    .withNewMetadata().withName("params-probe").endMetadata()
                    .withNewSpec().withReplicas(replicas).withNewSelector().addToMatchLabels("app", "probe").endSelector()
                    .withNewTemplate().withNewMetadata().addToLabels("app", "probe").endMetadata()
                    .withNewSpec().addNewContainer().withName("c").withImage("example.com/probe:1").endContainer().endSpec()
                    .endTemplate().endSpec().build()).dryRun().create();
            return Optional.empty();
        } catch (KubernetesClientException e) {
            return Optional.of(e.getMessage());
        }
    }

    Optional<GenericKubernetesResource> live(AdmissionKind kind, String name) {
        int minor = Integer.parseInt(plane.version().split("\\.")[1]);
        String version = kind.isMutatingPolicyKind() && minor < 36 ? "v1beta1" : "v1";
        return Optional.ofNullable(admin.genericKubernetesResources(ManagedKinds.context(kind, version)).withName(name).get());
    }
}

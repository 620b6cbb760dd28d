package dev.policyset.aps.operator.testing;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * AdmissionPolicySets for the reconciler tests and the benchmark. Every object is clean under the
 * validator's rules (explicit failure policies, webhooks that exclude system namespaces, fail open, narrow
 * rules), so the tests exercise the operator, not the rules.
 */
public final class Sets {
    private Sets() {}

    /** A set with six objects: VAP + binding, MAP + binding, one validating and one mutating webhook configuration. */
    public static AdmissionPolicySet six(String name, String message) {
        return parse("""
                apiVersion: admission.policyset.dev/v1alpha1
                kind: AdmissionPolicySet
                metadata:
                  name: %1$s
                spec:
                  defaults:
                    failurePolicy: Fail
                    validationActions: [Deny]
                  validatingPolicies:
                    - name: %1$s-vap
                      policy:
                        matchConstraints:
                          resourceRules:
                            - apiGroups: [apps]
                              apiVersions: [v1]
                              operations: [CREATE, UPDATE]
                              resources: [deployments]
                        validations:
                          - expression: "has(object.metadata.labels) && 'team' in object.metadata.labels"
                            message: "%2$s"
                  mutatingPolicies:
                    - name: %1$s-map
                      policy:
                        matchConstraints:
                          resourceRules:
                            - apiGroups: [""]
                              apiVersions: [v1]
                              operations: [CREATE]
                              resources: [configmaps]
                        reinvocationPolicy: Never
                        mutations:
                          - patchType: ApplyConfiguration
                            applyConfiguration:
                              expression: "Object{metadata: Object.metadata{labels: {'managed': 'true'}}}"
                  validatingWebhooks:
                    - name: %1$s-vwc
                      webhooks:
                        - name: check.%1$s.example.com
                          failurePolicy: Ignore
                          sideEffects: None
                          admissionReviewVersions: [v1]
                          timeoutSeconds: 5
                          clientConfig:
                            service: {namespace: webhooks, name: checker, path: /validate}
                            caBundle: Y2VydA==
                          rules:
                            - apiGroups: [apps]
                              apiVersions: [v1]
                              operations: [CREATE]
                              resources: [deployments]
                  mutatingWebhooks:
                    - name: %1$s-mwc
                      webhooks:
                        - name: inject.%1$s.example.com
                          failurePolicy: Ignore
                          sideEffects: None
                          reinvocationPolicy: Never
                          admissionReviewVersions: [v1]
                          timeoutSeconds: 5
                          clientConfig:
                            service: {namespace: webhooks, name: injector, path: /mutate}
                            caBundle: Y2VydA==
                          rules:
                            - apiGroups: [""]
                              apiVersions: [v1]
                              operations: [CREATE]
                              resources: [pods]
                """.formatted(name, message));
    }

    /** A set of validating policies, each with its default binding. */
    public static AdmissionPolicySet validating(String name, String... policies) {
        StringBuilder members = new StringBuilder();
        for (String p : policies) {
            members.append("""
                        - name: %s
                          policy:
                            matchConstraints:
                              resourceRules:
                                - apiGroups: [apps]
                                  apiVersions: [v1]
                                  operations: [CREATE, UPDATE]
                                  resources: [deployments]
                            validations:
                              - expression: "has(object.metadata.labels)"
                                message: workloads need labels
                    """.formatted(p));
        }
        return parse("""
                apiVersion: admission.policyset.dev/v1alpha1
                kind: AdmissionPolicySet
                metadata:
                  name: %s
                spec:
                  defaults:
                    failurePolicy: Fail
                  validatingPolicies:
                %s""".formatted(name, members));
    }

    public static AdmissionPolicySet parse(String yaml) {
        return Serialization.unmarshal(yaml, AdmissionPolicySet.class);
    }

    /** Deletes the named sets and waits until they are gone (finalizers run), so a shared server stays clean. */
    public static void deleteAndWait(io.fabric8.kubernetes.client.KubernetesClient admin, java.util.List<String> names,
                                     java.time.Duration wait) {
        for (String name : names) {
            admin.resources(AdmissionPolicySet.class).withName(name).delete();
        }
        org.awaitility.Awaitility.await().atMost(wait).until(() -> names.stream()
                .allMatch(n -> admin.resources(AdmissionPolicySet.class).withName(n).get() == null));
    }
}

package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.finding.Finding;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * APS501 stays silent on the webhooks whose own controller fills the caBundle at run time (Gatekeeper, istiod,
 * Kyverno), recognised by their marks, and still fires on a look-alike without them. The objects are the published
 * ones, trimmed to the fields that matter (../shared/corpus holds them whole).
 */
class Aps501RuntimeInjectorTest {
    private static final Aps501MissingCaBundle RULE = new Aps501MissingCaBundle();

    private static List<String> flagged(String yaml) {
        return SafetyFixtures.run(RULE, yaml).stream().map(Finding::field).toList();
    }

    /** open-policy-agent/gatekeeper: deploy/gatekeeper.yaml (@dd8507eb), both configurations. */
    private static final String GATEKEEPER = """
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingWebhookConfiguration
            metadata:
              labels:
                gatekeeper.sh/system: "yes"
              name: gatekeeper-validating-webhook-configuration
            webhooks:
            - admissionReviewVersions: [v1, v1beta1]
              clientConfig:
                service: {name: gatekeeper-webhook-service, namespace: gatekeeper-system, path: /v1/admit}
              failurePolicy: Ignore
              name: validation.gatekeeper.sh
              rules: [{apiGroups: ['*'], apiVersions: ['*'], operations: [CREATE, UPDATE], resources: ['*']}]
              sideEffects: None
              timeoutSeconds: 3
            - admissionReviewVersions: [v1, v1beta1]
              clientConfig:
                service: {name: gatekeeper-webhook-service, namespace: gatekeeper-system, path: /v1/admitlabel}
              failurePolicy: Fail
              name: check-ignore-label.gatekeeper.sh
              rules: [{apiGroups: [''], apiVersions: ['*'], operations: [CREATE, UPDATE], resources: [namespaces]}]
              sideEffects: None
              timeoutSeconds: 3
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: MutatingWebhookConfiguration
            metadata:
              labels:
                gatekeeper.sh/system: "yes"
              name: gatekeeper-mutating-webhook-configuration
            webhooks:
            - admissionReviewVersions: [v1, v1beta1]
              clientConfig:
                service: {name: gatekeeper-webhook-service, namespace: gatekeeper-system, path: /v1/mutate}
              failurePolicy: Ignore
              name: mutation.gatekeeper.sh
              rules: [{apiGroups: ['*'], apiVersions: ['*'], operations: [CREATE, UPDATE], resources: ['*']}]
              sideEffects: None
              timeoutSeconds: 1
            """;

    /**
     * istio/istio: operator/cmd/mesh/testdata/manifest-generate/output/pilot_default.golden.yaml (@86c9f01f) for the
     * injector and the revision validator, operator/pkg/helm/testdata/output/base-webhook-install.golden.yaml for
     * istiod-default-validator.
     */
    private static final String ISTIO = """
            apiVersion: admissionregistration.k8s.io/v1
            kind: MutatingWebhookConfiguration
            metadata:
              labels:
                app: sidecar-injector
                istio.io/rev: default
                operator.istio.io/component: Pilot
              name: istio-sidecar-injector
            webhooks:
            - admissionReviewVersions: [v1]
              clientConfig:
                service: {name: istiod, namespace: istio-system, path: /inject, port: 443}
              failurePolicy: Fail
              name: rev.namespace.sidecar-injector.istio.io
              namespaceSelector:
                matchExpressions:
                - {key: istio.io/rev, operator: In, values: [default]}
              reinvocationPolicy: Never
              rules: [{apiGroups: [''], apiVersions: [v1], operations: [CREATE], resources: [pods]}]
              sideEffects: None
            - admissionReviewVersions: [v1]
              clientConfig:
                service: {name: istiod, namespace: istio-system, path: /inject, port: 443}
              failurePolicy: Fail
              name: namespace.sidecar-injector.istio.io
              namespaceSelector:
                matchLabels: {istio-injection: enabled}
              reinvocationPolicy: Never
              rules: [{apiGroups: [''], apiVersions: [v1], operations: [CREATE], resources: [pods]}]
              sideEffects: None
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingWebhookConfiguration
            metadata:
              labels:
                app: istiod
                istio: istiod
                istio.io/rev: default
              name: istio-validator-istio-system
            webhooks:
            - admissionReviewVersions: [v1]
              clientConfig:
                service: {name: istiod, namespace: istio-system, path: /validate}
              failurePolicy: Ignore
              name: rev.validation.istio.io
              rules: [{apiGroups: [networking.istio.io], apiVersions: ['*'], operations: [CREATE, UPDATE], resources: ['*']}]
              sideEffects: None
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingWebhookConfiguration
            metadata:
              name: istiod-default-validator
              labels:
                app: istiod
                istio: istiod
                istio.io/rev: "default"
            webhooks:
              - name: validation.istio.io
                clientConfig:
                  service: {name: istiod, namespace: "istio-system", path: "/validate"}
                rules: [{operations: [CREATE, UPDATE], apiGroups: [networking.istio.io], apiVersions: ["*"], resources: ["*"]}]
                failurePolicy: Ignore
                sideEffects: None
                admissionReviewVersions: ["v1"]
            """;

    /**
     * kyverno/kyverno: test/conformance/chainsaw/image-validating-policies/webhook-configuration/combined/webhooks.yaml
     * (@111e07bb): the configurations Kyverno's webhook controller creates.
     */
    private static final String KYVERNO = """
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingWebhookConfiguration
            metadata:
              labels:
                webhook.kyverno.io/managed-by: kyverno
              name: kyverno-resource-validating-webhook-cfg
            webhooks:
            - admissionReviewVersions: [v1]
              clientConfig:
                service: {name: kyverno-svc, namespace: kyverno, path: /ivpol/validate/check-signed-images-basic, port: 443}
              failurePolicy: Fail
              name: ivpol.validate.kyverno.svc-fail
              namespaceSelector:
                matchExpressions:
                - {key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}
              rules: [{apiGroups: [''], apiVersions: [v1], operations: [CREATE], resources: [pods]}]
              sideEffects: NoneOnDryRun
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: MutatingWebhookConfiguration
            metadata:
              labels:
                webhook.kyverno.io/managed-by: kyverno
              name: kyverno-resource-mutating-webhook-cfg
            webhooks:
            - admissionReviewVersions: [v1]
              clientConfig:
                service: {name: kyverno-svc, namespace: kyverno, path: /ivpol/mutate/check-signed-images-basic, port: 443}
              failurePolicy: Fail
              name: ivpol.mutate.kyverno.svc-fail
              reinvocationPolicy: Never
              rules: [{apiGroups: [''], apiVersions: [v1], operations: [CREATE], resources: [pods]}]
              sideEffects: NoneOnDryRun
            """;

    @Test
    void gatekeepersRotatorFillsItsOwnWebhooks() {
        assertEquals(List.of(), flagged(GATEKEEPER));
    }

    @Test
    void istiodPatchesItsInjectorAndValidators() {
        assertEquals(List.of(), flagged(ISTIO));
    }

    @Test
    void kyvernosWebhookControllerBuildsItsConfigurationsWithTheCa() {
        assertEquals(List.of(), flagged(KYVERNO));
    }

    @Test
    void withoutTheMarksTheSameConfigurationsAreStillFlagged() {
        // The name alone proves nothing: a copy without Gatekeeper's label is not rotated by Gatekeeper.
        assertEquals(List.of("webhooks[0].clientConfig.caBundle", "webhooks[1].clientConfig.caBundle"),
                flagged(GATEKEEPER.substring(0, GATEKEEPER.indexOf("---")).replace("gatekeeper.sh/system: \"yes\"", "app: gatekeeper")));
        // istiod selects on istio.io/rev: without it nothing patches the injector.
        assertEquals(2, flagged(ISTIO.substring(0, ISTIO.indexOf("---")).replace("istio.io/rev: default", "release: istio")).size());
        // Only the webhooks whose name istiod's patcher matches are filled; another webhook in the same configuration is not.
        assertEquals(List.of("webhooks[1].clientConfig.caBundle"), flagged(ISTIO.substring(0, ISTIO.indexOf("---"))
                .replace("name: namespace.sidecar-injector.istio.io", "name: extra.example.com")));
        // Kyverno's label must say kyverno.
        assertEquals(2, flagged(KYVERNO.replace("managed-by: kyverno", "managed-by: someone-else")).size());
    }
}

package dev.policyset.aps.operator.bundle;

import io.quarkiverse.operatorsdk.annotations.CSVMetadata;
import io.quarkiverse.operatorsdk.annotations.CSVMetadata.Annotations;
import io.quarkiverse.operatorsdk.annotations.CSVMetadata.Icon;
import io.quarkiverse.operatorsdk.annotations.CSVMetadata.InstallMode;
import io.quarkiverse.operatorsdk.annotations.CSVMetadata.Link;
import io.quarkiverse.operatorsdk.annotations.CSVMetadata.Maintainer;
import io.quarkiverse.operatorsdk.annotations.CSVMetadata.Provider;
import io.quarkiverse.operatorsdk.annotations.SharedCSVMetadata;

/**
 * The OLM ClusterServiceVersion's marketplace metadata, read by QOSDK's bundle generator at build time.
 * {@code name} equals the application name, so every reconciler without a {@code @CSVMetadata} of its own
 * joins this bundle. What QOSDK cannot express (install strategy from {@code config/}, alm-examples from
 * {@code config/samples}, descriptors, related images) is added by the test-scope {@code BundleGenerator}
 * that {@code make bundle} runs.
 */
@CSVMetadata(
        name = OperatorCsvMetadata.BUNDLE_NAME,
        displayName = "Admission Policy Operator",
        description = OperatorCsvMetadata.DESCRIPTION,
        keywords = {"admission", "ValidatingAdmissionPolicy", "MutatingAdmissionPolicy", "webhook", "CEL",
                "policy", "security", "gitops"},
        maturity = "alpha",
        minKubeVersion = "1.30.0",
        provider = @Provider(name = "PolicySet", url = "https://policyset.dev"),
        maintainers = @Maintainer(name = "Admission Policy Operator maintainers", email = "maintainers@policyset.dev"),
        links = {
                @Link(name = "Documentation", url = "https://policyset.dev/docs"),
                @Link(name = "Source", url = "https://github.com/policyset/admission-policy-operator")},
        icon = @Icon(fileName = "admission-policy-operator.icon.svg", mediatype = "image/svg+xml"),
        // The CRD is cluster-scoped and so is everything the operator writes: one instance per cluster.
        installModes = {
                @InstallMode(type = "OwnNamespace", supported = false),
                @InstallMode(type = "SingleNamespace", supported = false),
                @InstallMode(type = "MultiNamespace", supported = false),
                @InstallMode(type = "AllNamespaces", supported = true)},
        annotations = @Annotations(
                capabilities = "Basic Install",
                categories = "Security",
                repository = "https://github.com/policyset/admission-policy-operator",
                others = {
                        @Annotations.Annotation(name = "operatorframework.io/suggested-namespace",
                                value = "admission-policy-operator"),
                        @Annotations.Annotation(name = "support", value = "PolicySet"),
                        // OpenShift's infrastructure features (docs/install.md, With OLM, explains each value).
                        // disconnected: one image, listed in relatedImages; the operator talks to the API server only.
                        @Annotations.Annotation(name = "features.operators.openshift.io/disconnected", value = "true"),
                        @Annotations.Annotation(name = "features.operators.openshift.io/fips-compliant", value = "false"),
                        @Annotations.Annotation(name = "features.operators.openshift.io/proxy-aware", value = "false"),
                        @Annotations.Annotation(name = "features.operators.openshift.io/tls-profiles", value = "false"),
                        @Annotations.Annotation(name = "features.operators.openshift.io/token-auth-aws", value = "false"),
                        @Annotations.Annotation(name = "features.operators.openshift.io/token-auth-azure", value = "false"),
                        @Annotations.Annotation(name = "features.operators.openshift.io/token-auth-gcp", value = "false"),
                        @Annotations.Annotation(name = "features.operators.openshift.io/cnf", value = "false"),
                        @Annotations.Annotation(name = "features.operators.openshift.io/cni", value = "false"),
                        @Annotations.Annotation(name = "features.operators.openshift.io/csi", value = "false")}))
public final class OperatorCsvMetadata implements SharedCSVMetadata {
    public static final String BUNDLE_NAME = "admission-policy-operator";

    static final String DESCRIPTION = """
            Admission policy as code. An `AdmissionPolicySet` describes ValidatingAdmissionPolicies, \
            MutatingAdmissionPolicies, their bindings and admission webhook configurations in one object. \
            The operator renders it into the native objects, validates every one of them before anything \
            touches the cluster (the API server's own rules, CEL compiled and type-checked, and safety rules \
            such as "a fail-closed webhook must not intercept kube-system"), then applies all of them or none \
            (server-side dry run first), prunes what the set no longer contains and repairs drift.

            A set that fails validation is never applied, and the objects of the last good generation stay \
            as they were. The outcome is reported in kstatus-compatible conditions (Ready, Validated, \
            Applied, Reconciling, Stalled) and in findings with stable rule IDs, which Argo CD and Flux read.

            The same checks run offline in the `aps` CLI, so a GitOps pipeline can reject a bad policy set \
            in the pull request.

            **Permissions.** The operator writes only admissionregistration.k8s.io objects (admission \
            policies, their bindings, webhook configurations), its own AdmissionPolicySets' status, and \
            events; it reads nothing else.
            """;

    private OperatorCsvMetadata() {}
}

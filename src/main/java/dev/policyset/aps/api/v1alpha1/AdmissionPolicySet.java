package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn.Type;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;
import io.quarkiverse.operatorsdk.annotations.CSVMetadata;

/**
 * A set of admission policies, their bindings and webhook configurations, applied all or nothing.
 * Cluster-scoped (it does not implement {@link Namespaced}) because everything it owns is.
 */
@Group(AdmissionPolicySet.GROUP)
@Version(AdmissionPolicySet.VERSION)
@Kind(AdmissionPolicySet.KIND)
@Plural("admissionpolicysets")
@Singular("admissionpolicyset")
@ShortNames("aps")
// kubectl get aps: Ready, Reason, Objects, Errors, Age; -o wide adds the rest (priority 1). Age must be listed:
// kubectl only adds it by itself when a CRD declares no columns.
@AdditionalPrinterColumn(name = "Ready", type = Type.STRING, jsonPath = ".status.summary.ready",
        getDescription = "The Ready condition's status")
@AdditionalPrinterColumn(name = "Reason", type = Type.STRING, jsonPath = ".status.summary.reason",
        getDescription = "The Ready condition's reason")
@AdditionalPrinterColumn(name = "Objects", type = Type.INTEGER, jsonPath = ".status.summary.objects",
        getDescription = "Objects the set generates")
@AdditionalPrinterColumn(name = "Errors", type = Type.INTEGER, jsonPath = ".status.summary.errors",
        getDescription = "Error findings")
@AdditionalPrinterColumn(name = "Age", type = Type.DATE, jsonPath = ".metadata.creationTimestamp")
@AdditionalPrinterColumn(name = "Warnings", type = Type.INTEGER, jsonPath = ".status.summary.warnings", priority = 1,
        getDescription = "Warning findings")
@AdditionalPrinterColumn(name = "Generation", type = Type.INTEGER, jsonPath = ".metadata.generation", priority = 1,
        getDescription = "The spec's generation")
@AdditionalPrinterColumn(name = "Observed", type = Type.INTEGER, jsonPath = ".status.observedGeneration", priority = 1,
        getDescription = "The generation the status describes; behind Generation while a change is not reconciled yet")
@AdditionalPrinterColumn(name = "Paused", type = Type.BOOLEAN, jsonPath = ".spec.paused", priority = 1,
        getDescription = "spec.paused")
@CSVMetadata(displayName = "Admission Policy Set",
        description = "Admission policies, their bindings and webhook configurations, validated and applied all or nothing.")
public class AdmissionPolicySet extends CustomResource<AdmissionPolicySetSpec, AdmissionPolicySetStatus> {
    public static final String GROUP = "admission.policyset.dev";
    public static final String VERSION = "v1alpha1";
    public static final String KIND = "AdmissionPolicySet";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    /** Label carried by every generated object, naming the set that owns it. */
    public static final String SET_LABEL = GROUP + "/set";

    /** Decoded leniently ({@link SpecDecoder}): one stored set this version cannot read must not stop the operator. */
    @Override
    @JsonDeserialize(using = SpecDecoder.class)
    public void setSpec(AdmissionPolicySetSpec spec) {
        super.setSpec(spec);
    }

    /** Decoded leniently ({@link StatusDecoder}): a status that does not decode is rewritten, not fatal. */
    @Override
    @JsonDeserialize(using = StatusDecoder.class)
    public void setStatus(AdmissionPolicySetStatus status) {
        super.setStatus(status);
    }

    @Override
    protected AdmissionPolicySetStatus initStatus() {
        return new AdmissionPolicySetStatus();
    }
}

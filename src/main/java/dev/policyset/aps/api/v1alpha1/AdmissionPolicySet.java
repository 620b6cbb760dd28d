package dev.policyset.aps.api.v1alpha1;

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
@CSVMetadata(displayName = "Admission Policy Set",
        description = "Admission policies, their bindings and webhook configurations, validated and applied all or nothing.")
public class AdmissionPolicySet extends CustomResource<AdmissionPolicySetSpec, AdmissionPolicySetStatus> {
    public static final String GROUP = "admission.policyset.dev";
    public static final String VERSION = "v1alpha1";
    public static final String KIND = "AdmissionPolicySet";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    /** Label carried by every generated object, naming the set that owns it. */
    public static final String SET_LABEL = GROUP + "/set";

    @Override
    protected AdmissionPolicySetStatus initStatus() {
        return new AdmissionPolicySetStatus();
    }
}

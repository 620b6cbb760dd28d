package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;

/** {@code status}: see {@link LenientDecoder}; a status that does not decode is treated as none (the operator writes it anew). */
public final class StatusDecoder extends LenientDecoder<AdmissionPolicySetStatus> {
    public StatusDecoder() {
        super(AdmissionPolicySetStatus.class, "status");
    }

    @Override
    AdmissionPolicySetStatus fallback(JsonNode raw, ObjectReader reader, String problem) {
        return null;
    }

    @Override
    String consequence() {
        return "the operator writes a new status";
    }
}

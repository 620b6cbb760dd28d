package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;

/** {@code spec}: see {@link LenientDecoder}; a spec with a value of the wrong type becomes an {@link UndecodableSpec}. */
public final class SpecDecoder extends LenientDecoder<AdmissionPolicySetSpec> {
    public SpecDecoder() {
        super(AdmissionPolicySetSpec.class, "spec");
    }

    @Override
    AdmissionPolicySetSpec fallback(JsonNode raw, ObjectReader reader, String problem) {
        return UndecodableSpec.of(raw, reader, problem);
    }

    @Override
    String consequence() {
        return "the set is judged from the stored document, and its status names the field";
    }
}

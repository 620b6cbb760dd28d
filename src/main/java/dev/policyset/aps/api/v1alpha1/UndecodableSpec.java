package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.Iterator;
import java.util.Map;

/**
 * A stored spec that does not decode into {@link AdmissionPolicySetSpec} (a value of the wrong type). It serializes
 * as the stored document, unchanged, so whatever reads the set as JSON (the operator hands it to
 * {@code core.model.PolicySetReader}, as the CLI does with a file) sees exactly what is stored and reports the bad
 * field as a finding. Its getters answer from the top-level fields that do decode; a {@code deletionPolicy} that
 * is present but does not decode reads as {@link DeletionPolicy#Orphan}: when unsure, deleting a set keeps its objects.
 */
public final class UndecodableSpec extends AdmissionPolicySetSpec {
    private final JsonNode stored;
    private final String problem;
    private boolean deletionPolicyUnreadable;

    private UndecodableSpec(JsonNode stored, String problem) {
        this.stored = stored;
        this.problem = problem;
    }

    /** Every top-level field that decodes on its own is set; the others stay unset. */
    static UndecodableSpec of(JsonNode stored, ObjectReader reader, String problem) {
        UndecodableSpec spec = new UndecodableSpec(stored, problem);
        if (stored.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = stored.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                ObjectNode one = JsonNodeFactory.instance.objectNode().set(f.getKey(), f.getValue());
                try {
                    reader.withValueToUpdate(spec).readValue(one);
                } catch (IOException | IllegalArgumentException e) {
                    spec.deletionPolicyUnreadable |= f.getKey().equals("deletionPolicy");
                }
            }
        }
        return spec;
    }

    /** The spec as stored. */
    @JsonValue
    public JsonNode stored() {
        return stored;
    }

    /** The first field that did not decode, and why. */
    public String problem() {
        return problem;
    }

    @Override
    public DeletionPolicy getDeletionPolicy() {
        return deletionPolicyUnreadable ? DeletionPolicy.Orphan : super.getDeletionPolicy();
    }
}

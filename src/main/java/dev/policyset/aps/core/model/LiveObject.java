package dev.policyset.aps.core.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One admission object as the cluster holds it (from the operator's informer caches, or a test fixture), as
 * its JSON tree. Read leniently: a missing field is an absent value, never an exception.
 */
public record LiveObject(AdmissionKind kind, String name, ObjectNode object) {
    /** One entry of {@code status.typeChecking.expressionWarnings} (ValidatingAdmissionPolicy only). */
    public record TypeCheckWarning(String fieldRef, String warning) {}

    /** A live object from its JSON; empty when its {@code kind} is not one of the six or it has no name. */
    public static Optional<LiveObject> of(ObjectNode object) {
        String name = object.path("metadata").path("name").asText("");
        return AdmissionKind.fromKind(object.path("kind").asText(""))
                .filter(k -> !name.isEmpty())
                .map(k -> new LiveObject(k, name, object));
    }

    public String id() {
        return kind.kind() + "/" + name;
    }

    /** The set that claims it by label; empty for an object made by hand (or by another tool). */
    public Optional<String> setLabel() {
        JsonNode label = object.path("metadata").path("labels").path(AdmissionPolicySet.SET_LABEL);
        return label.isTextual() ? Optional.of(label.asText()) : Optional.empty();
    }

    public boolean isLabelledFor(String setName) {
        return setLabel().filter(setName::equals).isPresent();
    }

    /** Whether an owner reference names this uid. */
    public boolean isOwnedBy(String uid) {
        for (JsonNode ref : object.path("metadata").path("ownerReferences")) {
            if (uid.equals(ref.path("uid").asText())) {
                return true;
            }
        }
        return false;
    }

    /** {@code metadata.generation}, or 0 when the server has not set one. */
    public long generation() {
        return object.path("metadata").path("generation").asLong(0);
    }

    /** {@code status.observedGeneration}: the generation the API server's status describes; empty if none. */
    public Optional<Long> observedGeneration() {
        JsonNode g = object.path("status").path("observedGeneration");
        return g.canConvertToLong() ? Optional.of(g.asLong()) : Optional.empty();
    }

    public List<TypeCheckWarning> typeCheckWarnings() {
        List<TypeCheckWarning> out = new ArrayList<>();
        for (JsonNode w : object.path("status").path("typeChecking").path("expressionWarnings")) {
            out.add(new TypeCheckWarning(w.path("fieldRef").asText(""), w.path("warning").asText("")));
        }
        return out;
    }

    /** Does this object already carry everything in {@code desired} ({@link Convergence})? */
    public boolean carries(JsonNode desired) {
        return Convergence.contains(object, desired);
    }
}

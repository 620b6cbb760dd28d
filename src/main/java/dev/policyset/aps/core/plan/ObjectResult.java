package dev.policyset.aps.core.plan;

import dev.policyset.aps.api.v1alpha1.ResourceStatus;
import dev.policyset.aps.core.model.AdmissionKind;

/** One generated object's row in the plan (and in {@code status.resources}). */
public record ObjectResult(String apiVersion, AdmissionKind kind, String name, ObjectState state, String message) {
    public ObjectResult {
        message = message == null ? "" : message;
    }

    public String id() {
        return kind.kind() + "/" + name;
    }

    ObjectResult with(ObjectState newState, String newMessage) {
        return new ObjectResult(apiVersion, kind, name, newState, newMessage);
    }

    ResourceStatus toStatus() {
        return new ResourceStatus(apiVersion, kind.kind(), name, state.label(), message);
    }
}

package dev.policyset.aps.core.plan;

import dev.policyset.aps.api.v1alpha1.ResourceStatus;
import dev.policyset.aps.core.model.AdmissionKind;

/**
 * One generated object's row in the plan (and in {@code status.resources}).
 *
 * @param repairs drift repairs of the object at this generation (the contested-field guard counts them)
 */
public record ObjectResult(String apiVersion, AdmissionKind kind, String name, ObjectState state, String message,
                           int repairs) {
    public ObjectResult {
        message = message == null ? "" : message;
    }

    public ObjectResult(String apiVersion, AdmissionKind kind, String name, ObjectState state, String message) {
        this(apiVersion, kind, name, state, message, 0);
    }

    public String id() {
        return kind.kind() + "/" + name;
    }

    ObjectResult with(ObjectState newState, String newMessage) {
        return new ObjectResult(apiVersion, kind, name, newState, newMessage, repairs);
    }

    ResourceStatus toStatus() {
        return new ResourceStatus(apiVersion, kind.kind(), name, state.label(), message, repairs == 0 ? null : repairs);
    }
}

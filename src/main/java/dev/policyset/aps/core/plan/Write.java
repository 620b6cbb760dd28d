package dev.policyset.aps.core.plan;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.model.AdmissionKind;

/**
 * One server-side apply the plan asks for: the whole object as it must be (set label, owner reference to the
 * set, every rendered field).
 */
public record Write(AdmissionKind kind, String apiVersion, String name, ObjectNode object, Action action) {
    public enum Action {
        /** The object does not exist yet. */
        CREATE,
        /** The set's generation changed what the object must hold. */
        UPDATE,
        /** The generation was already applied: someone changed the object since (drift). */
        REPAIR,
        /**
         * Drift again after the set's repairs at this generation ran out (APS405): applied without force, so the
         * API server keeps the other manager's fields and answers 409 Conflict naming it, instead of a flip-flop.
         */
        CONTESTED_REPAIR,
        /** The generation is blocked: the object is put back as the last good generation had it. */
        RESTORE,
        /** Not the set's: a param-informer anchor the set's params need ({@link ParamInformerAnchorWrites}). */
        ANCHOR
    }

    /** Whether the apply takes fields back from other field managers ({@code force=true}). */
    public boolean forced() {
        return action != Action.CONTESTED_REPAIR;
    }

    public String id() {
        return kind.kind() + "/" + name;
    }

    /** The API version part of {@code apiVersion} ({@code v1}, {@code v1beta1}, ...). */
    public String version() {
        return apiVersion.substring(apiVersion.indexOf('/') + 1);
    }
}

package dev.policyset.aps.core.plan;

import dev.policyset.aps.core.model.AdmissionKind;

/** One owned object the plan deletes (prune), in removal order: bindings before their policies. */
public record Removal(AdmissionKind kind, String name) {
    public String id() {
        return kind.kind() + "/" + name;
    }
}

package dev.policyset.aps.core.render;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.model.AdmissionKind;

/**
 * One generated native object, as the JSON tree that is validated and applied.
 *
 * @param source the path of the member it came from inside its set ({@code spec.validatingPolicies[0]}),
 *               or empty for an object read as it is
 */
public record RenderedObject(AdmissionKind kind, String apiVersion, String name, ObjectNode manifest, String source) {
    /** {@code Kind/name}: how findings, exemptions and status name an object. */
    public String id() {
        return kind.kind() + "/" + name;
    }

    /** The {@code spec} of a policy or binding; the object itself for webhook configurations. */
    public ObjectNode content() {
        return kind.hasSpec() && manifest.get("spec") instanceof ObjectNode spec ? spec : manifest;
    }
}

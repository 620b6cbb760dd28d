package dev.policyset.aps.core.validate.safety;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.validate.ValidationSubject;

import java.util.List;
import java.util.Optional;

/** Small lenient accessors shared by the policy and binding rules. */
final class Subjects {
    private Subjects() {}

    static List<RenderedObject> ofKind(SafetyContext context, AdmissionKind kind) {
        return context.subjects().stream().map(ValidationSubject::object).filter(o -> o.kind() == kind).toList();
    }

    static Optional<String> text(JsonNode parent, String field) {
        JsonNode n = parent == null ? null : parent.get(field);
        return n != null && n.isTextual() ? Optional.of(n.asText()) : Optional.empty();
    }

    /** The policy kind a binding kind names, or empty for non-bindings. */
    static Optional<AdmissionKind> policyKindOf(AdmissionKind binding) {
        return switch (binding) {
            case VALIDATING_ADMISSION_POLICY_BINDING -> Optional.of(AdmissionKind.VALIDATING_ADMISSION_POLICY);
            case MUTATING_ADMISSION_POLICY_BINDING -> Optional.of(AdmissionKind.MUTATING_ADMISSION_POLICY);
            default -> Optional.empty();
        };
    }

    static String describeOrigin(ValidationSubject s) {
        String where = s.origin() == null ? "" : " in " + s.origin();
        if (s.setName() != null) {
            String src = s.object().source();
            return "set " + s.setName() + (src == null || src.isEmpty() ? "" : " (" + src + ")") + where;
        }
        String src = s.object().source();
        return (src == null || src.isEmpty() ? "a bare object" : src) + where;
    }
}

package dev.policyset.aps.core.evaluate;

import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.schema.SchemaSource;

import java.util.List;

/**
 * The admission configuration a request meets: the policies, bindings and webhook configurations of the
 * sets and bare objects a test loads, in the order they were read (the order policies are evaluated in), and
 * the schemas of the custom resources whose CRDs it loads (for ApplyConfiguration merges).
 */
public record PolicyConfiguration(List<RenderedObject> objects, SchemaSource schemas) {
    public PolicyConfiguration {
        objects = List.copyOf(objects);
        schemas = schemas == null ? SchemaSource.NONE : schemas;
    }

    public PolicyConfiguration(List<RenderedObject> objects) {
        this(objects, SchemaSource.NONE);
    }

    List<RenderedObject> of(AdmissionKind kind) {
        return objects.stream().filter(o -> o.kind() == kind).toList();
    }

    /** The bindings of one policy, in order. */
    List<RenderedObject> bindingsOf(AdmissionKind bindingKind, String policyName) {
        return of(bindingKind).stream()
                .filter(b -> b.manifest().path("spec").path("policyName").asText("").equals(policyName)).toList();
    }

    /** Whether a policy of this name exists (of the validating or mutating kind). */
    public boolean hasPolicy(AdmissionKind kind, String name) {
        return of(kind).stream().anyMatch(p -> p.name().equals(name));
    }
}

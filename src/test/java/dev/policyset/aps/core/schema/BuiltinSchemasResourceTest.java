package dev.policyset.aps.core.schema;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The build's {@value BuiltinSchemas#SCHEMAS_RESOURCE} gives the same schemas as reflection over the fabric8 model
 * classes, for every built-in kind: equal field for field, and sharing the same nodes (the CEL types are made per
 * schema instance, so a node shared on one side and copied on the other would type-check differently).
 */
class BuiltinSchemasResourceTest {
    private static final String META = ModelDefinition.MODEL_PACKAGE + "ObjectMeta";

    @Test
    void theBuildWroteTheResourceAndTheSchemasComeFromIt() {
        assertTrue(BuiltinSchemas.generated().isPresent(),
                BuiltinSchemas.SCHEMAS_RESOURCE + " is missing from target/classes: run mvn process-classes");
        assertTrue(BuiltinSchemas.instance().fromResource());
        assertFalse(new BuiltinSchemas(ModelReflection.instance()).fromResource());
    }

    @Test
    void everyKindHasTheSchemaReflectionGives() {
        ModelDefinitions resource = BuiltinSchemas.generated().orElseThrow();
        List<String> differences = compare(new BuiltinSchemas(resource), new BuiltinSchemas(ModelReflection.instance()), false);
        assertTrue(differences.isEmpty(), String.join("\n", differences));
        // the CLI asks for ObjectMeta first (CRD schemas share it), which changes what is shared between kinds
        differences = compare(new BuiltinSchemas(resource), new BuiltinSchemas(ModelReflection.instance()), true);
        assertTrue(differences.isEmpty(), String.join("\n", differences));
    }

    @Test
    void aDefinitionThatDiffersFromTheModelIsFound() {
        ModelDefinitions resource = BuiltinSchemas.generated().orElseThrow();
        String podSpec = ModelDefinition.MODEL_PACKAGE + "PodSpec";
        ModelDefinitions withoutHostNetwork = name -> resource.definition(name).map(d -> {
            if (!name.equals(podSpec)) {
                return d;
            }
            Map<String, String> properties = new LinkedHashMap<>(d.properties());
            properties.remove("hostNetwork");
            return new ModelDefinition(properties, d.required());
        });
        List<String> differences = compare(new BuiltinSchemas(withoutHostNetwork),
                new BuiltinSchemas(ModelReflection.instance()), true);
        assertTrue(differences.stream().anyMatch(d -> d.startsWith("/v1, Kind=Pod:")), String.join("\n", differences));
        assertTrue(differences.stream().anyMatch(d -> d.startsWith("apps/v1, Kind=Deployment:")), String.join("\n", differences));
        assertFalse(differences.stream().anyMatch(d -> d.startsWith("/v1, Kind=ConfigMap:")), String.join("\n", differences));
    }

    @Test
    void aCopyWhereTheModelSharesANodeIsFound() {
        Schema container = Schema.builder().type("object").property("name", Schema.string()).build();
        Schema copy = Schema.builder().type("object").property("name", Schema.string()).build();
        Schema shared = Schema.builder().type("object").property("a", container).property("b", container).build();
        Schema copied = Schema.builder().type("object").property("a", container).property("b", copy).build();
        assertEquals(shared, copied, "equal field for field");
        assertFalse(sameSharing(shared, copied, new IdentityHashMap<>(), new IdentityHashMap<>()));
        assertTrue(sameSharing(shared, shared, new IdentityHashMap<>(), new IdentityHashMap<>()));
    }

    @Test
    void aRecursiveTypeReadsAsAnyInsideItself() {
        Schema crd = BuiltinSchemas.instance().schema(
                new GroupVersionKind("apiextensions.k8s.io", "v1", "CustomResourceDefinition")).orElseThrow();
        Schema props = crd.property("spec").property("versions").items().property("schema").property("openAPIV3Schema");
        assertEquals("object", props.type());
        assertTrue(props.property("properties").additionalProperties() == Schema.ANY, "JSONSchemaProps inside itself");
    }

    /** Every kind in index order on both sides (and ObjectMeta first when asked), with a shared identity map. */
    private static List<String> compare(BuiltinSchemas actual, BuiltinSchemas expected, boolean metaFirst) {
        List<String> differences = new ArrayList<>();
        IdentityHashMap<Schema, Schema> forward = new IdentityHashMap<>();
        IdentityHashMap<Schema, Schema> backward = new IdentityHashMap<>();
        if (metaFirst) {
            compareOne("ObjectMeta", Optional.of(actual.schemaOf(META)), Optional.of(expected.schemaOf(META)),
                    forward, backward, differences);
        }
        assertEquals(expected.resources(), actual.resources());
        for (ResourceType r : expected.resources()) {
            compareOne(r.gvk().toString(), actual.schema(r.gvk()), expected.schema(r.gvk()), forward, backward, differences);
        }
        return differences;
    }

    private static void compareOne(String what, Optional<Schema> actual, Optional<Schema> expected,
                                   IdentityHashMap<Schema, Schema> forward, IdentityHashMap<Schema, Schema> backward,
                                   List<String> differences) {
        if (expected.isEmpty() || actual.isEmpty()) {
            if (expected.isPresent() != actual.isPresent()) {
                differences.add(what + ": present " + actual.isPresent() + ", reflection " + expected.isPresent());
            }
            return;
        }
        if (!actual.get().equals(expected.get())) {
            differences.add(what + ": a different schema");
        } else if (!sameSharing(actual.get(), expected.get(), forward, backward)) {
            differences.add(what + ": the same fields, shared differently");
        }
    }

    /** Whether two equal trees share nodes alike: a one-to-one map between their instances holds throughout. */
    private static boolean sameSharing(Schema a, Schema b, IdentityHashMap<Schema, Schema> forward,
                                       IdentityHashMap<Schema, Schema> backward) {
        if (a == null || b == null) {
            return a == b;
        }
        Schema seenA = forward.get(a);
        Schema seenB = backward.get(b);
        if (seenA != null || seenB != null) {
            return seenA == b && seenB == a;
        }
        if ((a == Schema.ANY) != (b == Schema.ANY)) {
            return false;
        }
        forward.put(a, b);
        backward.put(b, a);
        if (!a.properties().keySet().equals(b.properties().keySet())) {
            return false;
        }
        for (String name : a.properties().keySet()) {
            if (!sameSharing(a.property(name), b.property(name), forward, backward)) {
                return false;
            }
        }
        return sameSharing(a.items(), b.items(), forward, backward)
                && sameSharing(a.additionalProperties(), b.additionalProperties(), forward, backward);
    }
}

package dev.policyset.aps.core.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.schema.CrdSchemas;
import dev.policyset.aps.core.schema.GroupVersionKind;
import dev.policyset.aps.core.schema.Schema;
import dev.policyset.aps.core.yaml.Document;
import dev.policyset.aps.core.yaml.Yaml;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fields the reader accepts are the fields the CRD declares, at every level down to the native specs: a field
 * added to the API types (and so to {@code crds/}) but not to {@link SetSchema} would be reported as unknown in
 * every set that uses it, and one the CRD lost would be accepted here and pruned by the API server.
 */
class SetSchemaTest {
    private static final Path CRD = Path.of("crds/admissionpolicysets.admission.policyset.dev-v1.yml");

    @Test
    void everyLevelDeclaresTheSameFieldsAsTheCrd() throws Exception {
        List<JsonNode> manifests = Yaml.parse(CRD.toString(), Files.readString(CRD)).stream().map(Document::content).toList();
        Schema crd = CrdSchemas.of(manifests)
                .schema(new GroupVersionKind("admission.policyset.dev", "v1alpha1", "AdmissionPolicySet")).orElseThrow();
        List<String> differences = new ArrayList<>();
        Set<String> compared = new TreeSet<>();
        compare(SetSchema.DOCUMENT, crd, "", differences, compared);
        assertEquals(List.of(), differences);
        // the walk reached the deepest levels of each kind of native spec, so "no differences" covers them
        for (String deep : List.of("metadata.ownerReferences[]", "spec.safety.exemptions[]",
                "spec.validatingPolicies[].policy.matchConstraints.resourceRules[]",
                "spec.validatingPolicies[].bindings[].spec.paramRef.selector.matchExpressions[]",
                "spec.mutatingPolicies[].policy.mutations[].applyConfiguration",
                "spec.mutatingPolicies[].bindings[].spec.matchResources.objectSelector",
                "spec.validatingWebhooks[].webhooks[].clientConfig.service",
                "spec.mutatingWebhooks[].webhooks[].matchConditions[]")) {
            assertTrue(compared.contains(deep), deep + " was not compared: " + compared);
        }
    }

    /** Compares the declared fields of every object below {@code path}, adding each path it compared. */
    private static void compare(Schema ours, Schema crd, String path, List<String> differences, Set<String> compared) {
        if (path.equals("status")) {
            return; // written by the operator, not checked (SetSchema)
        }
        if (!ours.properties().isEmpty() || !crd.properties().isEmpty()) {
            compared.add(path);
            TreeSet<String> mine = new TreeSet<>(ours.properties().keySet());
            TreeSet<String> theirs = new TreeSet<>(crd.properties().keySet());
            if (!mine.equals(theirs)) {
                differences.add((path.isEmpty() ? "<root>" : path) + ": aps " + mine + ", CRD " + theirs);
            }
            for (String name : mine) {
                if (theirs.contains(name)) {
                    compare(ours.property(name), crd.property(name), path.isEmpty() ? name : path + "." + name,
                            differences, compared);
                }
            }
        }
        if ((ours.items() == null) != (crd.items() == null)) {
            differences.add(path + ": a list in only one of them");
        } else if (ours.items() != null) {
            compare(ours.items(), crd.items(), path + "[]", differences, compared);
        }
        if ((ours.additionalProperties() == null) != (crd.additionalProperties() == null)) {
            differences.add(path + ": a map in only one of them");
        }
    }
}

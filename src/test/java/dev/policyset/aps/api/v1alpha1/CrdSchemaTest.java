package dev.policyset.aps.api.v1alpha1;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.yaml.Yaml;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the CRD generated from the Java types makes the API server refuse before the operator sees a set:
 * these are the constraints in {@code crds/}, which a separate check keeps equal to the build's output.
 */
class CrdSchemaTest {
    static final Path CRD = Path.of("crds/admissionpolicysets.admission.policyset.dev-v1.yml");
    private static JsonNode crd;
    private static JsonNode spec;

    @BeforeAll
    static void load() throws Exception {
        crd = Yaml.parse(CRD.toString(), Files.readString(CRD)).get(0).content();
        spec = version().at("/schema/openAPIV3Schema/properties/spec/properties");
    }

    private static JsonNode version() {
        return crd.at("/spec/versions/0");
    }

    @Test
    void identity() {
        assertEquals("admission.policyset.dev", crd.at("/spec/group").asText());
        assertEquals("Cluster", crd.at("/spec/scope").asText());
        assertEquals("AdmissionPolicySet", crd.at("/spec/names/kind").asText());
        assertEquals("aps", crd.at("/spec/names/shortNames/0").asText());
        assertEquals("v1alpha1", version().get("name").asText());
        assertTrue(version().at("/subresources/status").isObject(), "status subresource");
    }

    @Test
    void failurePolicyOutsideTheEnumIsRejected() {
        assertEquals(List.of("Fail", "Ignore"), strings(spec.at("/defaults/properties/failurePolicy/enum")));
    }

    @Test
    void webhookTimeoutOf31IsRejected() {
        JsonNode timeout = spec.at("/defaults/properties/webhookTimeoutSeconds");
        assertEquals("integer", timeout.get("type").asText());
        assertEquals(1, timeout.get("minimum").asInt());
        assertEquals(30, timeout.get("maximum").asInt());
    }

    @Test
    void enumsOfTheSetsOwnFields() {
        assertEquals(List.of("Audit", "Deny", "Warn"), strings(spec.at("/defaults/properties/validationActions/items/enum")));
        assertEquals(List.of("Block", "Warn"), strings(spec.at("/safety/properties/enforcement/enum")));
        assertEquals(List.of("Delete", "Orphan"), strings(spec.at("/deletionPolicy/enum")));
    }

    @Test
    void exemptionsNeedAReason() {
        JsonNode exemption = spec.at("/safety/properties/exemptions/items");
        assertEquals(List.of("object", "reason", "rule"), strings(exemption.get("required")).stream().sorted().toList());
        assertEquals(1, exemption.at("/properties/reason/minLength").asInt());
    }

    @Test
    void memberNamesAreUniqueAndBoundedSoTheRulesCostIsBounded() {
        for (String list : List.of("validatingPolicies", "mutatingPolicies", "validatingWebhooks", "mutatingWebhooks")) {
            JsonNode members = spec.get(list);
            assertEquals(100, members.get("maxItems").asInt(), list);
            assertEquals("self.all(x, self.exists_one(y, y.name == x.name))",
                    members.at("/x-kubernetes-validations/0/rule").asText(), list);
            assertEquals(253, members.at("/items/properties/name/maxLength").asInt(), list);
            assertTrue(strings(members.at("/items/required")).contains("name"), list);
        }
    }

    @Test
    void membersEmbedTheNativeSchemas() {
        JsonNode validations = spec.at("/validatingPolicies/items/properties/policy/properties/validations/items/properties");
        assertTrue(validations.has("expression") && validations.has("messageExpression"), "VAP spec schema is embedded");
        JsonNode webhook = spec.at("/validatingWebhooks/items/properties/webhooks/items/properties");
        assertTrue(webhook.has("clientConfig") && webhook.has("namespaceSelector"), "webhook schema is embedded");
        JsonNode mutation = spec.at("/mutatingPolicies/items/properties/policy/properties");
        assertTrue(mutation.has("reinvocationPolicy") && mutation.has("mutations"), "MAP spec schema is embedded");
    }

    /** {@code kubectl get aps} and {@code -o wide}: each column reads a field the status schema declares. */
    @Test
    void printerColumnsShowReadyReasonCountsAndAgeAndMoreWhenWide() {
        List<String> normal = new ArrayList<>();
        List<String> wide = new ArrayList<>();
        JsonNode properties = version().at("/schema/openAPIV3Schema/properties");
        for (JsonNode column : version().get("additionalPrinterColumns")) {
            String name = column.get("name").asText();
            (column.path("priority").asInt(0) == 0 ? normal : wide).add(name);
            String path = column.get("jsonPath").asText();
            if (!path.startsWith(".metadata.")) {
                JsonNode schema = properties;
                String[] parts = path.substring(1).split("\\.");
                for (int i = 0; i < parts.length; i++) {
                    schema = schema.path(parts[i]);
                    if (i < parts.length - 1) {
                        schema = schema.path("properties");
                    }
                }
                assertTrue(schema.has("type"), name + ": " + path + " is not in the schema");
                String expected = switch (column.get("type").asText()) {
                    case "integer" -> "integer";
                    case "boolean" -> "boolean";
                    default -> "string";
                };
                assertEquals(expected, schema.get("type").asText(), name + "'s type matches the field's");
            }
        }
        assertEquals(List.of("Ready", "Reason", "Objects", "Errors", "Age"), normal);
        assertEquals(List.of("Warnings", "Generation", "Observed", "Paused"), wide);
        JsonNode age = version().at("/additionalPrinterColumns/4");
        assertEquals(".metadata.creationTimestamp", age.get("jsonPath").asText());
        assertEquals("date", age.get("type").asText());
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}

package dev.policyset.aps.install;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * schemas/admissionpolicyset.json is what {@code make manifests} derives from crds/, it is a valid JSON Schema, every
 * shipped sample passes it, and it flags what an editor should flag (a misspelt field, a value outside an enum).
 */
class EditorSchemaTest {
    private static JsonNode schemaJson;
    private static JsonSchema schema;

    @BeforeAll
    static void load() throws Exception {
        Path root = ProjectFiles.root();
        schemaJson = ProjectFiles.JSON.readTree(Files.readString(root.resolve(EditorSchema.FILE)));
        JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
        schema = factory.getSchema(schemaJson);
    }

    @Test
    void committedSchemaIsTheOneDerivedFromCrds() throws Exception {
        Path root = ProjectFiles.root();
        JsonNode crd = ProjectFiles.readAll(root.resolve("crds/" + BundleGenerator.CRD_FILE_NAME)).get(0);
        assertEquals(EditorSchema.fromCrd(crd), Files.readString(root.resolve(EditorSchema.FILE)),
                EditorSchema.FILE + " is stale: run `make manifests` and commit it");
    }

    @Test
    void schemaIsValidAgainstTheDraft202012MetaSchema() {
        JsonSchema meta = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                .getSchema(java.net.URI.create("https://json-schema.org/draft/2020-12/schema"));
        assertEquals(Set.of(), meta.validate(schemaJson));
    }

    @Test
    void everySampleIsValid() throws Exception {
        List<String> problems = new ArrayList<>();
        int sets = 0;
        try (Stream<Path> files = Stream.concat(Files.list(ProjectFiles.root().resolve("config/samples")),
                Files.list(ProjectFiles.root().resolve("examples/image-checker")))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml") && !f.endsWith("kustomization.yaml")).sorted().toList()) {
                for (JsonNode doc : ProjectFiles.readAll(file)) {
                    if ("AdmissionPolicySet".equals(doc.path("kind").asText())) {
                        sets++;
                        schema.validate(doc).forEach(m -> problems.add(file.getFileName() + ": " + m.getMessage()));
                    }
                }
            }
        }
        assertTrue(sets >= 4, "the samples and the image-checker example hold sets: " + sets);
        assertEquals(List.of(), problems);
    }

    @Test
    void flagsMisspeltFieldsWrongEnumsAndMissingNames() throws Exception {
        JsonNode sample = ProjectFiles.readAll(ProjectFiles.root().resolve("config/samples/baseline-security.yaml")).get(0);

        ObjectNode typo = sample.deepCopy();
        ((ObjectNode) typo.path("spec")).put("prunne", true);
        assertTrue(messages(typo).stream().anyMatch(m -> m.contains("prunne")), messages(typo).toString());

        ObjectNode badEnum = sample.deepCopy();
        ((ObjectNode) badEnum.path("spec")).putObject("defaults").put("failurePolicy", "Deny");
        assertTrue(messages(badEnum).stream().anyMatch(m -> m.contains("failurePolicy")), messages(badEnum).toString());

        ObjectNode wrongKind = sample.deepCopy();
        wrongKind.put("kind", "AdmissionPolicy");
        assertFalse(messages(wrongKind).isEmpty());

        ObjectNode noName = sample.deepCopy();
        ((ObjectNode) noName.path("metadata")).remove("name");
        assertTrue(messages(noName).stream().anyMatch(m -> m.contains("name")), messages(noName).toString());

        ObjectNode deepTypo = sample.deepCopy();
        JsonNode member = deepTypo.path("spec").path("validatingPolicies").get(0);
        ((ObjectNode) member.path("policy")).put("failurPolicy", "Fail");
        assertTrue(messages(deepTypo).stream().anyMatch(m -> m.contains("failurPolicy")),
                "unknown fields are flagged inside the embedded native schemas too: " + messages(deepTypo));
    }

    private static List<String> messages(JsonNode doc) {
        return schema.validate(doc).stream().map(ValidationMessage::getMessage).toList();
    }
}

package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.policyset.aps.cli.RenderCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The two misspellings of #22: {@code defaults.failurPolicy} (which rendered {@code failurePolicy: Fail}) and a
 * member's {@code binding:} (which rendered the default Deny binding on every namespace). {@code aps validate}
 * reports each with file, line and the name meant; {@code aps render} refuses the set.
 */
class UnknownFieldCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static final String MISSPELT = """
            apiVersion: admission.policyset.dev/v1alpha1
            kind: AdmissionPolicySet
            metadata:
              name: staged
            spec:
              defaults:
                failurPolicy: Ignore
              validatingPolicies:
                - name: require-team
                  policy:
                    matchConstraints:
                      resourceRules:
                        - apiGroups: [""]
                          apiVersions: [v1]
                          operations: [CREATE]
                          resources: [configmaps]
                    validations:
                      - expression: "has(object.metadata.labels)"
                  binding:
                    - name: require-team-warn
                      spec:
                        validationActions: [Warn]
            """;

    @TempDir
    Path dir;

    private Path write(String text) throws IOException {
        Path file = dir.resolve("set.yaml");
        Files.writeString(file, text);
        return file;
    }

    @Test
    void validateReportsEachMisspeltFieldWithItsLineAndTheNameMeant() throws IOException {
        Path file = write(MISSPELT);
        RenderCommandTest.Run r = run("validate", "-o", "json", file.toString());
        assertEquals(ExitCodes.FINDINGS, r.exit(), r.out() + r.err());
        List<String> located = new ArrayList<>();
        for (JsonNode f : JSON.readTree(r.out()).get("findings")) {
            assertEquals(file.toString(), f.get("file").asText());
            assertEquals("error", f.get("severity").asText());
            located.add(f.get("rule").asText() + " " + f.get("object").asText() + " " + f.get("field").asText()
                    + " :" + f.get("line").asInt() + " " + f.get("message").asText().replaceAll(".*(did you mean \"[^\"]+\").*", "$1"));
        }
        assertEquals(List.of(
                "api/Invalid AdmissionPolicySet/staged spec.defaults.failurPolicy :7 did you mean \"failurePolicy\"",
                "api/Invalid AdmissionPolicySet/staged spec.validatingPolicies[0].binding :19 did you mean \"bindings\""),
                located);
    }

    @Test
    void renderRefusesTheSetAndSaysWhyOnStderr() throws IOException {
        Path file = write(MISSPELT);
        RenderCommandTest.Run r = run("render", file.toString());
        assertEquals(ExitCodes.FINDINGS, r.exit(), r.out() + r.err());
        assertFalse(r.out().contains("kind:"), "nothing is rendered: " + r.out());
        assertTrue(r.err().contains(file + ":7: AdmissionPolicySet/staged: spec.defaults.failurPolicy: "), r.err());
        assertTrue(r.err().contains("did you mean \"failurePolicy\"?"), r.err());
        assertTrue(r.err().contains(file + ":19: AdmissionPolicySet/staged: spec.validatingPolicies[0].binding: "), r.err());
    }

    @Test
    void theSameSetSpelledRightRenders() throws IOException {
        Path file = write(MISSPELT.replace("failurPolicy", "failurePolicy").replace("  binding:", "  bindings:"));
        RenderCommandTest.Run r = run("render", file.toString());
        assertEquals(ExitCodes.OK, r.exit(), r.err());
        assertTrue(r.out().contains("failurePolicy: Ignore"), r.out());
        assertTrue(r.out().contains("name: require-team-warn"), r.out());
        assertFalse(r.out().contains("require-team-binding"), "no default binding: " + r.out());
    }
}

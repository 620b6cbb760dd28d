package dev.policyset.aps.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.policyset.aps.cli.RenderCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Autogen'd policies are type-checked against each controller's schema, like any rendered policy (APS602). */
class AutogenTypeCheckTest {
    @Test
    void rewrittenPathsCheckAgainstTheControllersAndAPodOnlyFieldIsReported(@TempDir Path dir) throws IOException {
        Path set = dir.resolve("set.yaml");
        Files.writeString(set, """
                apiVersion: admission.policyset.dev/v1alpha1
                kind: AdmissionPolicySet
                metadata: {name: pods}
                spec:
                  validatingPolicies:
                    - name: pod-rules
                      autogen: {podControllers: [deployments, cronjobs]}
                      policy:
                        matchConstraints:
                          resourceRules:
                            - {apiGroups: [""], apiVersions: [v1], resources: [pods], operations: [CREATE]}
                        validations:
                          - expression: "object.spec.containers.all(c, c.image != 'latest')"
                          - expression: "!has(object.status.nominatedNodeName)"
                """);
        RenderCommandTest.Run r = run("validate", set.toString());
        String out = r.out() + r.err();
        // containers exist in every template; a Pod's status field exists in no controller's status
        assertTrue(out.contains("""
                ValidatingAdmissionPolicy/pod-rules-autogen
                   7: warning APS602 spec.validations[1].expression: apps/v1, Kind=Deployment"""), out);
        assertTrue(out.contains("""
                ValidatingAdmissionPolicy/pod-rules-autogen-cronjobs
                   7: warning APS602 spec.validations[1].expression: batch/v1, Kind=CronJob"""), out);
        assertFalse(out.contains("validations[0]"), out);
        assertTrue(out.contains("0 error(s), 2 warning(s)"), out);
    }
}

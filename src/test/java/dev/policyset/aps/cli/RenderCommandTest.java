package dev.policyset.aps.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RenderCommandTest {
    /** What one CLI run printed and returned. */
    record Run(int exit, String out, String err) {}

    static Run run(String... args) {
        return runWithStdin(System.in, args);
    }

    /** One run with {@code stdin} as what a PATH of {@code -} reads. */
    static Run runWithStdin(java.io.InputStream stdin, String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int exit = ApsCommand.execute(stdin, args);
            return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    @Test
    void rendersTheSamplesDeterministically() {
        Run first = run("render", "config/samples/");
        Run second = run("render", "config/samples");
        assertEquals(ExitCodes.OK, first.exit(), first.err());
        assertEquals(first.out(), second.out());
        assertTrue(first.out().startsWith("---\napiVersion: admissionregistration.k8s.io/v1\n"), first.out());
        assertTrue(first.out().contains("kind: ValidatingWebhookConfiguration"));
        assertTrue(first.out().contains("apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingAdmissionPolicy\n"),
                "MutatingAdmissionPolicy renders at v1 for the default (newest) version");
    }

    @Test
    void kubeVersionPicksTheMutatingPolicyVersion() {
        Run run = run("render", "--kube-version", "1.34", "config/samples/mutating-defaults.yaml");
        assertEquals(ExitCodes.OK, run.exit(), run.err());
        assertTrue(run.out().contains("apiVersion: admissionregistration.k8s.io/v1beta1\nkind: MutatingAdmissionPolicy\n"));
    }

    @Test
    void badKubeVersionIsAUsageError() {
        Run run = run("render", "--kube-version", "latest", "config/samples/");
        assertEquals(ExitCodes.USAGE_OR_INPUT, run.exit());
        assertTrue(run.err().contains("'latest' is not a Kubernetes version"), run.err());
    }

    @Test
    void unsupportedKubeVersionIsAUsageErrorForEveryCommand() {
        for (String command : new String[] {"render", "validate"}) {
            Run run = run(command, "--kube-version", "1.29", "config/samples/");
            assertEquals(ExitCodes.USAGE_OR_INPUT, run.exit(), command);
            assertTrue(run.err().contains("1.29 is not supported; use 1.30 to 1.37"), command + ": " + run.err());
            assertEquals("", run.out(), command);
        }
    }

    @Test
    void yamlSyntaxErrorNamesFileAndLineAndExits2(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, "apiVersion: v1\nkind: [oops\nmetadata: {}\n");
        Files.writeString(dir.resolve("good.yaml"), Files.readString(Path.of("examples/image-checker/image-checker-webhook.yaml")));
        Run run = run("render", dir.toString());
        assertEquals(ExitCodes.USAGE_OR_INPUT, run.exit());
        assertTrue(run.err().contains(bad + ":"), run.err());
        assertTrue(run.err().matches("(?s).*bad\\.yaml:[23]: .*"), run.err());
        assertTrue(run.out().contains("name: image-checker"), "the other files are still rendered");
    }

    @Test
    void invalidSetIsReportedAndNotRendered(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("s.yaml"), """
                apiVersion: admission.policyset.dev/v1alpha1
                kind: AdmissionPolicySet
                metadata: {name: broken}
                spec:
                  defaults: {webhookTimeoutSeconds: 31}
                """);
        Run run = run("render", dir.toString());
        assertEquals(ExitCodes.FINDINGS, run.exit());
        assertTrue(run.err().contains("AdmissionPolicySet/broken: spec.defaults.webhookTimeoutSeconds"), run.err());
        assertEquals("", run.out());
    }

    @Test
    void missingPathIsAUsageError() {
        Run run = run("render", "does/not/exist.yaml");
        assertEquals(ExitCodes.USAGE_OR_INPUT, run.exit());
        assertTrue(run.err().contains("does/not/exist.yaml: cannot be read"), run.err());
    }

    @Test
    void everyCommandHasHelpWithAnExample() {
        for (String command : new String[] {"render"}) {
            Run run = run(command, "--help");
            assertEquals(ExitCodes.OK, run.exit());
            assertTrue(run.out().contains("Examples:"), command + " --help: " + run.out());
        }
        assertFalse(run("--help").out().isBlank());
    }
}

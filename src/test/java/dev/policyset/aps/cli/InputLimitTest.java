package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.policyset.aps.core.yaml.Yaml;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static dev.policyset.aps.cli.RenderCommandTest.runWithStdin;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An input over 16 MiB is refused before it is parsed (exit 2, {@code input/TooLarge}, naming the input and the
 * limit); at the limit it is parsed as any other. "Before parsing" is asserted without a clock: the refused inputs
 * start with a syntax error that parsing would report, and standard input is an endless stream whose bytes are
 * counted. The timing itself is printed by {@code aps bench-parse} (docs/benchmark.md).
 */
class InputLimitTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BROKEN_START = "kind: [unclosed\n";

    private static final String POLICY_AND_BINDING = """
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata:
              name: require-team
            spec:
              matchConstraints:
                resourceRules:
                  - apiGroups: [apps]
                    apiVersions: [v1]
                    operations: [CREATE, UPDATE]
                    resources: [deployments]
              validations:
                - expression: "has(object.metadata.labels)"
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicyBinding
            metadata:
              name: require-team-binding
            spec:
              policyName: require-team
              validationActions: [Deny]
            ---
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: big
            data:
              blob: \
            """;

    /** A file of exactly {@code size} bytes: {@code head}, then one long scalar line. */
    private static Path write(Path file, String head, long size) throws IOException {
        byte[] start = head.getBytes(StandardCharsets.UTF_8);
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write(head);
            char[] chunk = new char[1 << 16];
            Arrays.fill(chunk, 'a');
            long left = size - start.length - 1;
            while (left > 0) {
                int n = (int) Math.min(chunk.length, left);
                w.write(chunk, 0, n);
                left -= n;
            }
            w.write('\n');
        }
        assertEquals(size, Files.size(file));
        return file;
    }

    @Test
    void aTwentyMebibyteScalarIsRefusedWithoutParsing(@TempDir Path dir) throws IOException {
        Path big = write(dir.resolve("scalar.yaml"), BROKEN_START, 20L << 20);
        RenderCommandTest.Run r = runWithStdin(InputStream.nullInputStream(), "validate", "-o", "json", big.toString());
        assertEquals(ExitCodes.USAGE_OR_INPUT, r.exit(), r.out());
        JsonNode findings = JSON.readTree(r.out()).get("findings");
        assertEquals(1, findings.size(), "only the size, no syntax error (nothing was parsed): " + findings);
        JsonNode f = findings.get(0);
        assertEquals("input/TooLarge", f.get("rule").asText());
        assertEquals("error", f.get("severity").asText());
        assertEquals(big.toString(), f.get("file").asText());
        String message = f.get("message").asText();
        assertTrue(message.contains("is 20.0 MiB, over the 16 MiB limit for one input")
                && message.contains("refused without being parsed") && message.contains("validate a large rendered stream"),
                message);
        assertTrue(r.err().contains(big + ":1: is 20.0 MiB"), r.err());
    }

    @Test
    void oneByteOverTheLimitIsRefusedAndTheOtherFilesStillValidated(@TempDir Path dir) throws IOException {
        write(dir.resolve("a-big.yaml"), BROKEN_START, Yaml.MAX_INPUT_BYTES + 1);
        Files.copy(Path.of("config/samples/unsafe-fail-closed-webhook.yaml"), dir.resolve("b-unsafe.yaml"));
        RenderCommandTest.Run r = runWithStdin(InputStream.nullInputStream(), "validate", "-o", "json", dir.toString());
        assertEquals(ExitCodes.USAGE_OR_INPUT, r.exit());
        String out = r.out();
        assertTrue(out.contains("input/TooLarge") && out.contains("APS201") && !out.contains("not valid YAML"), out);
    }

    @Test
    void anEndlessStandardInputIsRefusedWhileReading() throws IOException {
        CountingEndless endless = new CountingEndless();
        RenderCommandTest.Run r = runWithStdin(endless, "validate", "-o", "json", "-");
        assertEquals(ExitCodes.USAGE_OR_INPUT, r.exit(), r.out());
        JsonNode f = JSON.readTree(r.out()).get("findings").get(0);
        assertEquals("input/TooLarge", f.get("rule").asText());
        assertEquals("<stdin>", f.get("file").asText());
        assertTrue(f.get("message").asText().contains("larger than the 16 MiB limit for one input (reading stopped there)"),
                f.toString());
        assertTrue(endless.read > Yaml.MAX_INPUT_BYTES && endless.read <= Yaml.MAX_INPUT_BYTES + 1,
                "read stops one byte past the limit: " + endless.read);
    }

    @Test
    void aDocumentStreamOfExactlyTheLimitIsParsedAndValidated(@TempDir Path dir) throws IOException {
        // Policy, binding and a ConfigMap whose one value fills the file to exactly 16 MiB.
        Path file = write(dir.resolve("at-limit.yaml"), POLICY_AND_BINDING, Yaml.MAX_INPUT_BYTES);
        RenderCommandTest.Run r = runWithStdin(InputStream.nullInputStream(), "validate", "-o", "json", file.toString());
        assertEquals(ExitCodes.OK, r.exit(), r.out() + r.err());
        JsonNode summary = JSON.readTree(r.out()).get("summary");
        assertEquals(2, summary.get("objects").asInt());
        assertEquals(1, summary.get("skipped").asInt(), "the ConfigMap");
    }

    /** Standard input that never ends, counting what was read. */
    private static final class CountingEndless extends InputStream {
        long read;

        @Override
        public int read() {
            read++;
            return 'a';
        }

        @Override
        public int read(byte[] b, int off, int len) {
            Arrays.fill(b, off, off + len, (byte) 'a');
            read += len;
            return len;
        }
    }
}

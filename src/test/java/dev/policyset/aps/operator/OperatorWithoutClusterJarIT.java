package dev.policyset.aps.operator;

import dev.policyset.aps.operator.testing.OperatorProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The packaged operator started where no API server answers, as a newcomer runs `make run` before pointing
 * KUBECONFIG at a cluster: one line that says it did not start and what to do, exit 1, and nothing after it that
 * claims the opposite (Quarkus' "started ... Listening on", the webhook's own start). Failsafe, after package.
 */
class OperatorWithoutClusterJarIT {

    @Test
    void withoutAClusterItSaysOnceThatItDidNotStartAndExitsOne(@TempDir Path dir) throws Exception {
        Path kubeconfig = dir.resolve("kubeconfig");
        // a server that refuses at once: a port nothing listens on
        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters: [{name: c, cluster: {server: "https://127.0.0.1:%d", insecure-skip-tls-verify: true}}]
                users: [{name: u, user: {token: t}}]
                contexts: [{name: c, context: {cluster: c, user: u}}]
                current-context: c
                """.formatted(closed));
        Path log = dir.resolve("operator.log");
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", OperatorProcess.JAR.toAbsolutePath().toString())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("KUBECONFIG", kubeconfig.toString());
        builder.environment().put("QUARKUS_HTTP_PORT", "0");
        Process process = builder.start();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "still running after 120 s:\n" + Files.readString(log));
        String output = Files.readString(log);
        assertEquals(1, process.exitValue(), output);

        List<String> lines = output.lines().filter(l -> l.contains(" INFO ") || l.contains(" ERROR ") || l.contains(" WARN ")).toList();
        assertFalse(lines.isEmpty(), output);
        String last = lines.get(lines.size() - 1);
        assertTrue(last.contains("Admission Policy Operator not started: cannot reach the Kubernetes API server at https://127.0.0.1:" + closed),
                "the last word is that it did not start:\n" + output);
        assertTrue(last.contains("Point KUBECONFIG at a cluster"), "and what to do:\n" + output);
        assertFalse(output.contains("Listening on"), "no claim that it started:\n" + output);
        assertFalse(output.contains("Validating webhook for AdmissionPolicySets"), "nor a word on a webhook:\n" + output);
    }
}

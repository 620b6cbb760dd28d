package dev.policyset.aps.cli.bench;

import dev.policyset.aps.cli.ApsCommand;
import dev.policyset.aps.cli.ExitCodes;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The benchmarks run from their own entry point, and {@code aps} no longer carries them. */
class BenchmarksTest {
    @Test
    void theParseBenchmarkRunsFromItsEntryPointAndPrintsItsTable() {
        String out = capture(() -> assertEquals(ExitCodes.OK,
                Benchmarks.execute("parse", "--sizes", "1", "--baseline-max", "0", "--iterations", "1")));
        assertTrue(out.contains("aps parse ms"), out);
        assertTrue(out.contains("refuse a 20 MiB file"), out);
    }

    /** The realistic cluster's objects are matched by the policies they are made for, and the scan evaluates them. */
    @Test
    void theImpactBenchmarkScansARealisticClusterAndComparesWithTheFloor() {
        String out = capture(() -> assertEquals(ExitCodes.OK, Benchmarks.execute("impact", "--cluster", "realistic",
                "--objects", "300", "--policies", "5", "--warmup", "0", "--iterations", "1", "--ladder")));
        assertTrue(out.contains("µs per pair: quarter"), out);
        assertTrue(out.contains("peak heap used"), out);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("([\\d,]+) matched and evaluated, ([\\d,]+) would be denied")
                .matcher(out);
        assertTrue(m.find(), out);
        assertTrue(Integer.parseInt(m.group(1).replace(",", "")) > 0, "the policies match the generated objects: " + out);
        assertTrue(Integer.parseInt(m.group(2).replace(",", "")) > 0, "one app in ten violates: " + out);
        // the floor refuses to print a ratio when the scan did not evaluate every object
        String floor = capture(() -> assertEquals(ExitCodes.OK, Benchmarks.execute("impact", "--floor", "--cluster",
                "realistic", "--objects", "300", "--warmup", "0", "--iterations", "1")));
        assertTrue(floor.contains("median ratio"), floor);
    }

    @Test
    void realisticObjectsLookLikeWhatTheApiServerReturns() {
        RealisticCluster cluster = new RealisticCluster(1000);
        java.util.Map<String, Integer> kinds = new java.util.TreeMap<>();
        cluster.forEach(o -> kinds.merge(o.path("kind").asText(), 1, Integer::sum));
        assertEquals(50, kinds.get("Namespace"));
        assertTrue(kinds.get("Pod") > 2 * kinds.get("ReplicaSet") - 10 && kinds.get("Pod") < 3 * kinds.get("ReplicaSet"),
                kinds.toString());
        var pod = cluster.stream().filter(o -> o.path("kind").asText().equals("Pod")).findFirst().orElseThrow();
        assertEquals(2, pod.path("spec").path("containers").size(), pod.toString());
        assertFalse(pod.path("metadata").path("managedFields").isEmpty(), pod.toString());
        assertEquals("Running", pod.path("status").path("phase").asText(), pod.toString());
        assertEquals(cluster.get(123), cluster.get(123), "made the same way each time it is read");
    }

    @Test
    void withoutABenchmarkItIsAUsageError() {
        assertEquals(ExitCodes.USAGE_OR_INPUT, Benchmarks.execute());
    }

    /** `make bench` without ../shared once timed nothing against nothing and printed "ratio 729", exit 0. */
    @Test
    void validateWithoutInputIsAnErrorNotARatio(@org.junit.jupiter.api.io.TempDir java.nio.file.Path empty) {
        String missing = empty.resolve("corpus").toString();
        String out = capture(() -> assertEquals(ExitCodes.USAGE_OR_INPUT,
                Benchmarks.execute("validate", "--warmup", "0", "--iterations", "1", missing)));
        assertFalse(out.contains("ratio"), out);
        String none = capture(() -> assertEquals(ExitCodes.USAGE_OR_INPUT,
                Benchmarks.execute("validate", "--warmup", "0", "--iterations", "1", empty.toString())));
        assertFalse(none.contains("ratio"), "an empty directory has no expressions either: " + none);
    }

    @Test
    void apsHasNoBenchCommands() {
        for (String bench : new String[] {"bench", "bench-impact", "bench-parse"}) {
            assertEquals(ExitCodes.USAGE_OR_INPUT, ApsCommand.execute(bench), bench);
        }
        String help = capture(() -> ApsCommand.execute("--help"));
        assertFalse(help.contains("bench"), help);
    }

    private static String capture(Runnable run) {
        PrintStream saved = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        try {
            run.run();
        } finally {
            System.setOut(saved);
        }
        return buffer.toString(StandardCharsets.UTF_8);
    }
}

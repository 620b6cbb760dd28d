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

package dev.policyset.aps.cli;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.policyset.aps.cli.RenderCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engines' published suites, converted and run (the figures of docs/import.md). They are not part of the
 * project: {@code scripts/fetch-import-suites.sh} brings them into {@code target/import-suites/} with their commits;
 * without that folder (or {@code -Daps.import.suites=DIR}) each test is skipped, saying so.
 */
@Tag("import-suites")
class ImportSuitesTest {
    private static final Pattern PASSING = Pattern.compile("test cases passing +(\\d+) of (\\d+)");

    private static Path suite(String name) {
        Path root = Path.of(System.getProperty("aps.import.suites", "target/import-suites"));
        Path dir = root.resolve(name);
        Assumptions.assumeTrue(Files.isDirectory(dir), dir + " is absent: run scripts/fetch-import-suites.sh to measure the import on it");
        return dir;
    }

    @Test
    void gatekeeperLibraryConvertsAndEveryConvertedTestPasses(@TempDir Path out) throws IOException {
        Path library = suite("open-policy-agent+gatekeeper-library").resolve("library");
        RenderCommandTest.Run r = run("import", "gatekeeper", "--partial", "-o", out.toString(), library.toString());
        System.out.println("gatekeeper-library:\n" + r.out().substring(r.out().indexOf("\npolicies imported")));
        assertEquals(ExitCodes.OK, r.exit(), r.err());
        Matcher m = PASSING.matcher(r.out());
        assertTrue(m.find(), r.out());
        assertTrue(Integer.parseInt(m.group(2)) > 100, r.out());
        // measured: every converted gator case passes (docs/import.md)
        assertEquals(m.group(2), m.group(1), r.out());
    }

    /**
     * kyverno/policies with and without pod-controller autogen. Measured (docs/import.md): 2,823 of 2,855 with
     * autogen, 2,118 without; the 32 failures are causes outside the import (CEL errors Kyverno's engine tolerates,
     * kube-system objects our default excludedNamespaces leaves out, a message with line breaks the server refuses).
     */
    @Test
    void kyvernoPoliciesWithAndWithoutAutogen(@TempDir Path out) throws IOException {
        Path policies = suite("kyverno+policies");
        int[] with = figures("kyverno/policies with autogen", run("import", "kyverno", "--partial", "-o",
                out.resolve("with").toString(), policies.toString()));
        int[] without = figures("kyverno/policies without autogen", run("import", "kyverno", "--autogen", "false",
                "--partial", "-o", out.resolve("without").toString(), policies.toString()));
        assertEquals(with[1], without[1], "the same cases are converted");
        assertTrue(with[0] > without[0], "autogen passes the pod-controller cases");
        assertTrue(with[1] - with[0] <= 32, "more failures than measured (32): " + with[0] + " of " + with[1]);
    }

    private static int[] figures(String what, RenderCommandTest.Run r) {
        System.out.println(what + ":\n" + r.out().substring(r.out().indexOf("\npolicies imported")));
        assertEquals(ExitCodes.OK, r.exit(), r.err());
        Matcher m = PASSING.matcher(r.out());
        assertTrue(m.find(), r.out());
        return new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))};
    }
}

package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.evaluate.suite.CaseResult;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.importer.GatekeeperImporter;
import dev.policyset.aps.core.importer.GatorSuites;
import dev.policyset.aps.core.importer.ImportFinding;
import dev.policyset.aps.core.importer.ImportResult;
import dev.policyset.aps.core.importer.ImportedFile;
import dev.policyset.aps.core.importer.KyvernoImporter;
import dev.policyset.aps.core.importer.KyvernoTests;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.yaml.Document;
import dev.policyset.aps.core.yaml.Yaml;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/** {@code aps import}: another engine's policies and tests into AdmissionPolicySets and PolicyTests (docs/import.md). */
@Command(name = "import",
        mixinStandardHelpOptions = true,
        description = {"Convert Gatekeeper or Kyverno policies (and their engines' tests) into AdmissionPolicySets.",
                "gatekeeper: ConstraintTemplates with a K8sNativeValidation source, their constraints, gator Suites.",
                "kyverno: ValidatingPolicies, MutatingPolicies, ClusterPolicy/Policy validate.cel rules,",
                "  kyverno-test.yaml files (with patchedResources for MutatingPolicies).",
                "What has no native form is refused per policy or rule with an import/<Reason> finding."},
        footer = {"", "Examples:",
                "  aps import gatekeeper -o imported/ gatekeeper-library/library/",
                "  aps import kyverno --partial -o imported/ policies/ && aps test imported/",
                "  aps import kyverno policy.yaml | aps validate -",
                "",
                "Exit codes: 0 everything imported (or --partial), 1 something refused (nothing",
                "written without --partial), 2 usage error or unreadable input."})
final class ImportCommand implements Callable<Integer> {
    enum Engine { gatekeeper, kyverno }

    @Parameters(index = "0", paramLabel = "ENGINE", description = "gatekeeper or kyverno.")
    Engine engine;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "PATH",
            description = "Files or directories (searched recursively for .yaml, .yml, .json).")
    List<Path> paths;

    @Option(names = {"-o", "--output-dir"}, paramLabel = "DIR",
            description = "Write one set file per source file (and the converted tests) under DIR; default: sets on stdout.")
    Path outputDir;

    @Option(names = "--autogen", arity = "1", paramLabel = "true|false", defaultValue = "true",
            description = "kyverno: render Pod rules for pod controllers too, as Kyverno does (default true).")
    boolean autogen = true;

    @Option(names = "--partial", description = "Write what could be imported even when something was refused.")
    boolean partial;

    @picocli.CommandLine.ParentCommand
    ApsCommand parent;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    /** Output-relative source names back to the names the inputs were read by, for messages. */
    private final Map<String, String> sourceNames = new java.util.HashMap<>();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        InputFiles.requireStdinAtMostOnce(paths, spec.commandLine());
        InputFiles.Loaded loaded = InputFiles.load(paths, parent.stdin());
        loaded.problems().forEach(p -> err.println("aps import: " + p.describe()));
        if (!loaded.problems().isEmpty()) {
            return ExitCodes.USAGE_OR_INPUT;
        }
        ImportResult result = engine == Engine.gatekeeper ? gatekeeper(loaded.documents()) : kyverno(loaded.documents());
        boolean refused = result.findings().stream().anyMatch(f -> f.finding().severity() == Severity.ERROR);
        PrintWriter report = outputDir == null ? err : out;
        result.findings().forEach(f -> report.println(describe(f)));
        boolean write = !refused || partial;
        int passing = -1;
        int cases = 0;
        if (write && outputDir != null) {
            List<Path> tests = new ArrayList<>();
            try {
                for (ImportedFile f : result.files()) {
                    Path target = outputDir.resolve(f.path()).normalize();
                    Files.createDirectories(target.toAbsolutePath().getParent());
                    Files.writeString(target, Yaml.write(f.documents()), StandardCharsets.UTF_8);
                    if (f.test()) {
                        tests.add(target);
                    }
                }
            } catch (IOException e) {
                err.println("aps import: cannot write under " + outputDir + ": " + e.getMessage());
                return ExitCodes.USAGE_OR_INPUT;
            }
            if (!tests.isEmpty()) {
                TestRun.Result run = TestRun.run(tests, null, KubeVersion.NEWEST);
                passing = 0;
                for (TestRun.FileResult file : run.files()) {
                    for (CaseResult c : file.cases()) {
                        cases++;
                        passing += c.passed() ? 1 : 0;
                    }
                }
            }
        } else if (write) {
            List<JsonNode> sets = new ArrayList<>();
            result.files().stream().filter(f -> !f.test()).forEach(f -> sets.addAll(f.documents()));
            out.print(Yaml.write(sets));
            out.flush();
            if (result.testCases() > 0) {
                err.println("aps import: " + result.testCases() + " test case(s) converted but not written: give -o DIR");
            }
        }
        summary(report, result, passing, cases, write);
        return refused && !partial ? ExitCodes.FINDINGS : ExitCodes.OK;
    }

    private ImportResult gatekeeper(List<Document> documents) {
        ImportResult result = GatekeeperImporter.importAll(documents.stream().map(this::relative).toList());
        for (Document d : documents) {
            if (GatorSuites.isSuite(d)) {
                GatorSuites.convert(d, TestFiles.beside(Path.of(d.source())), parentOf(relative(d).source()), result);
            }
        }
        return result;
    }

    private ImportResult kyverno(List<Document> documents) {
        ImportResult result = KyvernoImporter.importAll(documents.stream().map(this::relative).toList(), autogen);
        for (Document d : documents) {
            if (KyvernoTests.isTest(d)) {
                KyvernoTests.convert(d, TestFiles.beside(Path.of(d.source())), parentOf(relative(d).source()), autogen, result);
            }
        }
        return result;
    }

    /** The document with its source relative to the PATH it was found under: where its output goes. */
    private Document relative(Document d) {
        Path abs = Path.of(d.source()).toAbsolutePath().normalize();
        for (Path p : paths) {
            Path root = p.toAbsolutePath().normalize();
            if (Files.isRegularFile(root)) {
                root = root.getParent();
            }
            if (root != null && abs.startsWith(root)) {
                return renamed(d, root.relativize(abs).toString());
            }
        }
        return renamed(d, abs.getFileName().toString());
    }

    private Document renamed(Document d, String name) {
        sourceNames.put(name, d.source());
        return new Document(name, d.line(), d.index(), d.content(), d.lines());
    }

    private static String parentOf(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? "" : path.substring(0, slash);
    }

    private String describe(ImportFinding f) {
        return sourceNames.getOrDefault(f.file(), f.file()) + ":" + f.line() + ": " + f.finding().severity().name().toLowerCase(java.util.Locale.ROOT) + " "
                + f.finding().rule() + " " + f.finding().object() + " " + f.finding().field() + ": " + f.finding().message();
    }

    private void summary(PrintWriter report, ImportResult result, int passing, int cases, boolean written) {
        Map<String, Integer> refused = new TreeMap<>();
        result.findings().stream().filter(f -> f.finding().severity() == Severity.ERROR)
                .forEach(f -> refused.merge(f.finding().rule(), 1, Integer::sum));
        report.println();
        report.printf("%-28s %6d%n", "policies imported", result.policies());
        if (result.mutatingPolicies() > 0) {
            report.printf("  %-26s %6d%n", "of which mutating", result.mutatingPolicies());
        }
        report.printf("%-28s %6d%n", "refused", refused.values().stream().mapToInt(Integer::intValue).sum());
        refused.forEach((rule, n) -> report.printf("  %-26s %6d%n", rule, n));
        report.printf("%-28s %6d%n", "test cases converted", result.testCases());
        if (passing >= 0) {
            report.printf("%-28s %6d of %d%n", "test cases passing", passing, cases);
        }
        if (!written) {
            report.println("nothing written: something was refused (above); --partial writes the rest");
        }
    }
}

package dev.policyset.aps.cli;

import dev.policyset.aps.core.cel.CelChecker;
import dev.policyset.aps.core.cel.KubernetesCelChecker;
import dev.policyset.aps.core.evaluate.suite.CaseResult;
import dev.policyset.aps.core.evaluate.suite.Kaptest;
import dev.policyset.aps.core.evaluate.suite.PolicyTest;
import dev.policyset.aps.core.evaluate.suite.PolicyTestReader;
import dev.policyset.aps.core.evaluate.suite.Problem;
import dev.policyset.aps.core.evaluate.suite.TestRunner;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.yaml.Document;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** One {@code aps test} run without printing: find the test documents, read them, run their cases. */
final class TestRun {
    /** A test file's outcome: its cases' results, or the problems that kept it from running. */
    record FileResult(PolicyTest test, List<CaseResult> cases, List<CaseResult> offline) {
        FileResult(PolicyTest test, List<CaseResult> cases) {
            this(test, cases, null);
        }

        /** The offline result of a case of a server run ({@code aps test --server}); null otherwise. */
        CaseResult offlineOf(int index) {
            return offline == null ? null : offline.get(index);
        }
    }

    record Result(List<FileResult> files, List<Problem> problems) {
        long cases() {
            return files.stream().mapToLong(f -> f.cases().size()).sum();
        }

        long failed() {
            return files.stream().flatMap(f -> f.cases().stream()).filter(c -> !c.passed()).count();
        }

        boolean inputProblems() {
            return !problems.isEmpty() || files.stream().anyMatch(f -> !f.test().runnable());
        }
    }

    private static final CelChecker CEL = new KubernetesCelChecker();

    private TestRun() {}

    /**
     * @param stdin what a PATH of {@code -} reads; a test read from it names its files relative to the current
     *              directory (it has no directory of its own)
     */
    static Result run(List<Path> paths, java.io.InputStream stdin, KubeVersion version) {
        InputFiles.Loaded loaded = InputFiles.load(paths, stdin);
        List<Problem> problems = new ArrayList<>();
        for (InputFiles.Problem p : loaded.problems()) {
            problems.add(new Problem(p.file(), p.line() == null ? 1 : p.line(), p.message()));
        }
        List<FileResult> files = new ArrayList<>();
        Set<String> withTests = new LinkedHashSet<>();
        for (Document d : loaded.documents()) {
            PolicyTest test;
            if (PolicyTestReader.isPolicyTest(d)) {
                test = PolicyTestReader.read(d, files(d), version);
            } else if (Kaptest.isManifest(d)) {
                test = Kaptest.read(d, files(d), version);
            } else {
                continue;
            }
            withTests.add(d.source());
            files.add(new FileResult(test, test.runnable() ? RefusedObjects.judge(test, TestRunner.run(test), CEL) : List.of()));
        }
        // a file named on the command line must be a test file; directories may hold anything else
        for (Path p : paths) {
            if (!java.nio.file.Files.isDirectory(p) && java.nio.file.Files.exists(p)
                    && loaded.problems().stream().noneMatch(x -> x.file().equals(p.toString()))
                    && !withTests.contains(p.toString())) {
                problems.add(new Problem(p.toString(), 1, "not a test file: it has no document of kind "
                        + PolicyTestReader.KIND + " (apiVersion " + PolicyTestReader.API_VERSION + ") and no kaptest manifest"));
            }
        }
        if (files.isEmpty() && problems.isEmpty()) {
            problems.add(new Problem(String.join(" ", paths.stream().map(Path::toString).toList()), 1,
                    "no test files found: a test file has kind " + PolicyTestReader.KIND + " (see docs/testing.md)"));
        }
        return new Result(files, problems);
    }

    /**
     * The same run judged by a server: each runnable file's cases replaced by {@code server}'s results, the offline
     * ones kept beside them with a note where the two disagree on what the request got.
     */
    static Result onServer(Result offline, java.util.function.Function<PolicyTest, List<CaseResult>> server) {
        List<FileResult> files = new ArrayList<>();
        for (FileResult f : offline.files()) {
            if (!f.test().runnable()) {
                files.add(f);
                continue;
            }
            List<CaseResult> judged = server.apply(f.test());
            List<CaseResult> withNotes = new ArrayList<>();
            for (int i = 0; i < judged.size(); i++) {
                CaseResult s = judged.get(i);
                List<String> notes = new ArrayList<>(s.notes());
                List<String> apart = OfflineComparison.differences(f.cases().get(i).outcome(), s.outcome());
                notes.add("offline: " + (f.cases().get(i).passed() ? "PASS" : "FAIL") + (s.outcome() == null ? ""
                        : apart.isEmpty() ? "; the server answered the same" : "; the server answered otherwise: "
                        + String.join("; ", apart)));
                withNotes.add(new CaseResult(s.name(), s.line(), s.passed(), s.differences(), notes, s.outcome()));
            }
            files.add(new FileResult(f.test(), withNotes, f.cases()));
        }
        return new Result(files, offline.problems());
    }

    private static TestFiles files(Document d) {
        return d.source().equals(InputFiles.STDIN_NAME) ? TestFiles.relativeToWorkingDirectory()
                : TestFiles.beside(Path.of(d.source()));
    }
}

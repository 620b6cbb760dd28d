package dev.policyset.aps.cli;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.Exemption;
import dev.policyset.aps.core.validate.waiver.RepositoryWaivers;
import dev.policyset.aps.core.validate.waiver.WaiverAnnotation;
import dev.policyset.aps.core.yaml.Document;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The repository's waiver file for {@code aps validate}: {@code --config FILE}, or else the first {@value #NAME}
 * found in the working directory or one of its parents, up to the repository's root (the directory holding
 * {@code .git}), so that a pipeline step run anywhere in the repository finds the same file and one repository never
 * picks up another's. What it holds: {@link RepositoryWaivers}.
 */
final class WaiverFile {
    static final String NAME = ".aps.yaml";

    /**
     * The waivers read, the problems of entries that waive nothing (located in the file), and the document, so that
     * findings about a waiver ({@code waivers[0].objects[1]}) can be located in it too.
     */
    record Read(List<Exemption> waivers, List<LocatedFinding> findings, Document document, boolean unreadable) {
        static final Read NONE = new Read(List.of(), List.of(), null, false);

        /** The line of a finding that names no object and a field of this file; null when it is about something else. */
        Integer lineOf(Finding f) {
            if (document == null || !f.object().isEmpty() || !f.field().startsWith("waivers")) {
                return null;
            }
            return document.lineOf(f.field());
        }
    }

    private WaiverFile() {}

    /**
     * {@value #NAME} in {@code start} or the nearest parent that has one, not above the repository's root; relative
     * to {@code start} when {@code start} is relative (findings then name {@code .aps.yaml}, as SARIF wants).
     */
    static Optional<Path> find(Path start) {
        Path base = start.toAbsolutePath().normalize();
        for (Path dir = base; dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(NAME);
            if (Files.isRegularFile(candidate)) {
                return Optional.of(start.isAbsolute() ? candidate : start.resolve(base.relativize(candidate)));
            }
            if (Files.exists(dir.resolve(".git"))) {
                return Optional.empty(); // the repository's root: a file above it belongs to something else
            }
        }
        return Optional.empty();
    }

    static Read read(Path file) {
        InputFiles.Loaded loaded = InputFiles.load(List.of(file), java.io.InputStream.nullInputStream());
        List<LocatedFinding> findings = new ArrayList<>();
        for (InputFiles.Problem p : loaded.problems()) {
            findings.add(new LocatedFinding(Finding.error(p.rule(), "", "", "waiver file: " + p.message()), p.file(),
                    p.line() == null ? 1 : p.line()));
        }
        if (!loaded.problems().isEmpty()) {
            return new Read(List.of(), findings, null, true);
        }
        if (loaded.documents().isEmpty()) {
            return Read.NONE;
        }
        Document document = loaded.documents().get(0);
        WaiverAnnotation.Read read = RepositoryWaivers.read(document.content(), document.source());
        for (Finding f : read.problems()) {
            findings.add(new LocatedFinding(f, document.source(), document.lineOf(f.field())));
        }
        for (Document extra : loaded.documents().subList(1, loaded.documents().size())) {
            findings.add(new LocatedFinding(Finding.warning(dev.policyset.aps.core.validate.waiver.Waivers.UNUSABLE, "",
                    "", document.source() + ": a second document; only the first is read, so move its waivers into "
                            + "the first document's list"), extra.source(), extra.line()));
        }
        return new Read(read.waivers(), findings, document, false);
    }
}

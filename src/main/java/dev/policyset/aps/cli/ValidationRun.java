package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.cel.CelChecker;
import dev.policyset.aps.core.cel.KubernetesCelEnvironment;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.model.PolicySet;
import dev.policyset.aps.core.model.PolicySetReader;
import dev.policyset.aps.core.render.RenderOptions;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.render.Renderer;
import dev.policyset.aps.core.schema.BuiltinSchemas;
import dev.policyset.aps.core.schema.CrdSchemas;
import dev.policyset.aps.core.schema.SchemaSource;
import dev.policyset.aps.core.validate.AttributedFinding;
import dev.policyset.aps.core.validate.ValidationOptions;
import dev.policyset.aps.core.validate.ValidationSubject;
import dev.policyset.aps.core.validate.Validator;
import dev.policyset.aps.core.yaml.Document;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@code aps validate} run, without printing: documents → subjects (sets rendered, admission objects taken
 * as they are, anything else skipped with an info finding) → one validation over all of them together → findings
 * located in the input files, each where its own object is defined (the same {@code Kind/name} may be defined in
 * several files of one run).
 */
public final class ValidationRun {
    static final String SKIPPED = "input/Skipped";
    static final String UNREADABLE = InputFiles.UNREADABLE;
    static final String TOO_LARGE = InputFiles.TOO_LARGE;
    static final String UNPROCESSABLE = "input/Unprocessable";

    /**
     * What one run found. {@code findings} include one {@link #SKIPPED} info per document that is not an admission
     * object ({@code skipped} counts them; printers list them only on request). {@code inputProblems}: some path
     * could not be read or parsed (exit code 2). {@code mutatingPolicies}: some object read is a
     * MutatingAdmissionPolicy or its binding (whose API version the target cluster may serve only when enabled).
     */
    record Result(List<LocatedFinding> findings, int files, int objects, int skipped, boolean inputProblems,
                  boolean mutatingPolicies) {
        long count(dev.policyset.aps.core.finding.Severity severity) {
            return findings.stream().filter(f -> f.finding().severity() == severity).count();
        }

        /** The findings a waiver turned into {@code info}. */
        long waived() {
            return findings.stream().filter(f -> f.finding().isWaived()).count();
        }

        /**
         * Whether some finding is at least as severe as {@code threshold} ({@code --fail-on}); documents that are
         * not admission objects never count, they are not findings about the input's objects.
         */
        boolean reaches(dev.policyset.aps.core.finding.Severity threshold) {
            return findings.stream().anyMatch(f -> !isSkipped(f) && f.finding().severity().compareTo(threshold) <= 0);
        }

        /** The findings to print: all, or all but the skipped documents. */
        List<LocatedFinding> shown(boolean showSkipped) {
            return showSkipped ? findings : findings.stream().filter(f -> !isSkipped(f)).toList();
        }

        static boolean isSkipped(LocatedFinding f) {
            return f.finding().rule().equals(SKIPPED);
        }
    }

    /**
     * The subjects of some documents and the findings made while reading them. {@code origins} is parallel to
     * {@code subjects}: where each one was defined. {@code firstOrigins}: the first definition of each
     * {@code Kind/name} (sets included), for findings that are about no single subject.
     */
    public record Subjects(List<ValidationSubject> subjects, List<LocatedFinding> findings, List<Origin> origins,
                    Map<String, Origin> firstOrigins) {}

    /**
     * Where an object came from: its document and, for an object a set generated, the member's path in the set
     * ({@code spec.validatingPolicies[0]}), so that a finding points at the line that needs the fix.
     */
    record Origin(Document document, RenderedObject object) {
        /** {@code file:line} of the object (for a set's object, of its member), for messages. */
        String describe() {
            return document.source() + ":" + lineOf("metadata.name");
        }

        int lineOf(String field) {
            return document.lineOf(object == null || object.source().isEmpty() ? field : inSet(field));
        }

        /** The object's field as a path in the set: each member holds what ends up in the object's spec/webhooks. */
        private String inSet(String field) {
            String member = object.source();
            if (field.startsWith("metadata.name")) {
                return member + ".name";
            }
            if (field.startsWith("webhooks")) {
                return member + "." + field;
            }
            if (field.startsWith("spec.") || field.equals("spec")) {
                String rest = field.substring("spec".length());
                boolean binding = object.kind() == AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING
                        || object.kind() == AdmissionKind.MUTATING_ADMISSION_POLICY_BINDING;
                return member + (binding ? ".spec" : ".policy") + rest;
            }
            return member;
        }
    }

    private ValidationRun() {}

    static Result run(List<Path> paths, KubeVersion version, CelChecker cel) {
        return run(paths, System.in, version, cel);
    }

    static Result run(List<Path> paths, java.io.InputStream stdin, KubeVersion version, CelChecker cel) {
        return run(paths, stdin, version, cel, List.of());
    }

    /**
     * @param crdDirs files or directories of CustomResourceDefinitions ({@code --crds}): their schemas type-check the
     *                policies (APS602, APS603) besides the CRDs among {@code paths}; nothing in them is validated
     */
    static Result run(List<Path> paths, java.io.InputStream stdin, KubeVersion version, CelChecker cel, List<Path> crdDirs) {
        return run(paths, stdin, version, cel, crdDirs, WaiverFile.Read.NONE, null);
    }

    /**
     * @param waivers the repository's waiver file ({@link WaiverFile}), for the bare objects of the run
     * @param today   the date waiver expiries are judged on
     */
    static Result run(List<Path> paths, java.io.InputStream stdin, KubeVersion version, CelChecker cel, List<Path> crdDirs,
                      WaiverFile.Read waivers, java.time.LocalDate today) {
        InputFiles.Loaded loaded = InputFiles.load(paths, stdin);
        List<LocatedFinding> findings = new ArrayList<>(waivers.findings());
        for (InputFiles.Problem p : loaded.problems()) {
            findings.add(new LocatedFinding(Finding.error(p.rule(), "", "", p.message()), p.file(),
                    p.line() == null ? 1 : p.line()));
        }
        List<JsonNode> crds = new ArrayList<>();
        loaded.documents().stream().map(Document::content).filter(CrdSchemas::isCrd).forEach(crds::add);
        boolean crdProblems = false;
        if (!crdDirs.isEmpty()) {
            InputFiles.Loaded extra = InputFiles.load(crdDirs, stdin);
            for (InputFiles.Problem p : extra.problems()) {
                findings.add(new LocatedFinding(Finding.error(p.rule(), "", "", "--crds: " + p.message()), p.file(),
                        p.line() == null ? 1 : p.line()));
                crdProblems = true;
            }
            extra.documents().stream().map(Document::content).filter(CrdSchemas::isCrd).forEach(crds::add);
        }
        Subjects read = subjects(loaded.documents(), version);
        findings.addAll(read.findings());
        // a run keeps every environment its policies need (about 20 per policy over the corpus; one run, one input)
        KubernetesCelEnvironment.cacheAtLeast(32 * (int) read.subjects().stream().map(s -> s.object().kind())
                .filter(k -> k == AdmissionKind.VALIDATING_ADMISSION_POLICY || k == AdmissionKind.MUTATING_ADMISSION_POLICY)
                .count());
        ValidationOptions options = ValidationOptions.offline(version).withWaivers(waivers.waivers(), today);
        if (!crds.isEmpty()) {
            options = options.withSchemas(SchemaSource.first(CrdSchemas.of(crds), BuiltinSchemas.instance()));
        }
        Validator validator = new Validator(options, cel);
        for (AttributedFinding a : validator.validateAttributed(read.subjects())) {
            // Located where its own subject was defined: with the same Kind/name in two files, each file keeps its own.
            Finding f = a.finding();
            Integer inWaiverFile = waivers.lineOf(f);
            if (inWaiverFile != null) {
                // About a waiver of the repository's file (APS901, APS902): located at its entry there.
                findings.add(new LocatedFinding(f, waivers.document().source(), inWaiverFile));
                continue;
            }
            Origin origin = a.subject() >= 0 ? read.origins().get(a.subject()) : read.firstOrigins().get(f.object());
            findings.add(new LocatedFinding(f, origin == null ? null : origin.document().source(),
                    origin == null ? null : origin.lineOf(f.field())));
        }
        int skipped = (int) findings.stream().filter(Result::isSkipped).count();
        boolean mutatingPolicies = read.subjects().stream().map(s -> s.object().kind())
                .anyMatch(k -> k == AdmissionKind.MUTATING_ADMISSION_POLICY || k == AdmissionKind.MUTATING_ADMISSION_POLICY_BINDING);
        return new Result(List.copyOf(findings), loaded.files(), read.subjects().size(), skipped,
                !loaded.problems().isEmpty() || crdProblems || waivers.unreadable(), mutatingPolicies);
    }

    public static Subjects subjects(List<Document> documents, KubeVersion version) {
        RenderOptions renderOptions = RenderOptions.forKubeVersion(version);
        List<ValidationSubject> subjects = new ArrayList<>();
        List<LocatedFinding> findings = new ArrayList<>();
        List<Origin> origins = new ArrayList<>();
        for (Document document : documents) {
            try {
                read(document, renderOptions, subjects, findings, origins);
            } catch (RuntimeException e) {
                // Nothing a user writes may crash the CLI; say which document could not be processed.
                findings.add(new LocatedFinding(Finding.error(UNPROCESSABLE, describe(document), "",
                        "this document could not be processed (" + e.getClass().getSimpleName() + ": " + e.getMessage()
                                + "); check its structure against the kind's schema"), document.source(), document.line()));
            }
        }
        Map<String, Origin> firstOrigins = new HashMap<>();
        for (int i = 0; i < subjects.size(); i++) {
            firstOrigins.putIfAbsent(subjects.get(i).object().id(), origins.get(i));
        }
        for (Document document : documents) {
            if (PolicySetReader.KIND.equals(document.kind())) {
                firstOrigins.putIfAbsent(PolicySetReader.KIND + "/" + document.name(), new Origin(document, null));
            }
        }
        return new Subjects(subjects, findings, origins, firstOrigins);
    }

    private static void read(Document document, RenderOptions renderOptions, List<ValidationSubject> subjects,
                             List<LocatedFinding> findings, List<Origin> origins) {
        JsonNode content = document.content();
        if (content.isTextual() && content.asText().isBlank()) {
            return; // a trailing "---" reads as an empty document
        }
        String kind = document.kind();
        if (content.isObject() && PolicySetReader.KIND.equals(kind)
                && document.apiVersion().startsWith("admission.policyset.dev/")) {
            PolicySetReader.Result result = PolicySetReader.read(content);
            for (Finding f : result.findings()) {
                findings.add(new LocatedFinding(f, document.source(), document.lineOf(f.field())));
            }
            if (result.set().isPresent()) {
                PolicySet set = result.set().get();
                for (RenderedObject object : Renderer.render(set, renderOptions)) {
                    Origin origin = new Origin(document, object);
                    subjects.add(new ValidationSubject(object, set.name(), set.safety()).at(origin.describe()));
                    origins.add(origin);
                }
            }
            return;
        }
        var admissionKind = AdmissionKind.fromKind(kind);
        if (content.isObject() && admissionKind.isPresent()
                && document.apiVersion().startsWith(AdmissionKind.GROUP + "/")) {
            RenderedObject object = new RenderedObject(admissionKind.get(), document.apiVersion(), document.name(),
                    (ObjectNode) content, "");
            Origin origin = new Origin(document, object);
            subjects.add(ValidationSubject.bare(object).at(origin.describe()));
            origins.add(origin);
            return;
        }
        String what = !content.isObject() ? "is not a Kubernetes object (no apiVersion/kind mapping)"
                : kind.isEmpty() ? "has no kind" : "is a " + kind + " (" + document.apiVersion() + ")";
        findings.add(new LocatedFinding(Finding.info(SKIPPED, describe(document), "",
                "skipped: this document " + what + "; aps validates AdmissionPolicySets and admissionregistration.k8s.io "
                        + "policies, bindings and webhook configurations"), document.source(), document.line()));
    }

    private static String describe(Document document) {
        if (!document.content().isObject()) {
            return "";
        }
        String kind = document.kind();
        String name = document.name();
        return kind.isEmpty() && name.isEmpty() ? "" : kind + "/" + name;
    }
}

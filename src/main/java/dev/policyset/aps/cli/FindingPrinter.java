package dev.policyset.aps.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.finding.RuleCatalog;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.validate.waiver.WaiverAnnotation;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The output formats of {@code aps validate}: text (grouped per object), JSON (a contract), SARIF 2.1.0 (GitHub
 * code scanning), and GitLab's code-quality report.
 */
final class FindingPrinter {
    enum Format { text, json, sarif, codequality }

    static final String SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    /** For JSON and SARIF only, made when first needed: text output, the default, needs no object mapper. */
    private static final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    }
    private static final Comparator<LocatedFinding> ORDER = Comparator
            .comparing((LocatedFinding f) -> f.file() == null ? "" : f.file())
            .thenComparing(f -> f.finding().object())
            .thenComparing(f -> f.line() == null ? 0 : f.line())
            .thenComparing(LocatedFinding::finding, Finding.ORDER);

    /** Text output: a finding's message wrapped to 100 columns, its further lines indented past line number and severity. */
    private static final int TEXT_WIDTH = 100;
    private static final String ADVICE_INDENT = " ".repeat(14);

    private FindingPrinter() {}

    /**
     * @param showSkipped list the documents that are not admission objects too (one {@code input/Skipped} info
     *                    each); they are always counted in the summary, and JSON always lists them: the output
     *                    contract (DESIGN §5) says other kinds are skipped with an info finding, and scripts
     *                    that read JSON filter by severity. Text, SARIF and Code Quality reach people (a terminal,
     *                    annotations on a pull request), who asked to see what matters.
     */
    static void print(Format format, ValidationRun.Result result, boolean showSkipped, PrintWriter out, boolean colour) {
        List<LocatedFinding> findings = result.shown(showSkipped || format == Format.json).stream().sorted(ORDER).toList();
        switch (format) {
            case text -> text(findings, result, showSkipped, out, colour);
            case json -> out.println(write(json(findings, result)));
            case sarif -> out.println(write(sarif(findings)));
            case codequality -> out.println(write(CodeQualityReport.of(findings)));
        }
        out.flush();
    }

    // ---- text ---------------------------------------------------------------------------------------------

    private static void text(List<LocatedFinding> findings, ValidationRun.Result result, boolean showSkipped,
                             PrintWriter out, boolean colour) {
        Map<String, List<LocatedFinding>> byObject = new LinkedHashMap<>();
        for (LocatedFinding f : findings) {
            String where = (f.file() == null ? "" : f.file() + ": ")
                    + (f.finding().object().isEmpty() ? "(input)" : f.finding().object());
            byObject.computeIfAbsent(where, k -> new ArrayList<>()).add(f);
        }
        byObject.forEach((where, list) -> {
            out.println(colour ? "\u001b[1m" + where + "\u001b[0m" : where);
            for (LocatedFinding lf : list) {
                Finding f = lf.finding();
                String severity = String.format("%-7s", f.severity().label());
                String line = String.format("%5s", lf.line() == null ? "" : lf.line() + ":");
                String subject = " " + f.rule() + (f.field().isEmpty() ? "" : " " + f.field()) + ": ";
                int headWidth = line.length() + 1 + severity.length() + subject.length();
                int adviceWidth = TEXT_WIDTH - ADVICE_INDENT.length();
                // a long field path leaves too little room beside it: then the whole message goes below
                boolean besideTheHead = TEXT_WIDTH - headWidth >= 30;
                List<String> message = new ArrayList<>(MessageLines.of(f.message(),
                        besideTheHead ? TEXT_WIDTH - headWidth : adviceWidth, adviceWidth));
                if (!besideTheHead) {
                    message.add(0, "");
                }
                if (colour) {
                    severity = switch (f.severity()) {
                        case ERROR -> "\u001b[31m" + severity + "\u001b[0m";
                        case WARNING -> "\u001b[33m" + severity + "\u001b[0m";
                        case INFO -> "\u001b[36m" + severity + "\u001b[0m";
                    };
                }
                out.println((line + " " + severity + subject + message.get(0)).stripTrailing());
                message.subList(1, message.size()).forEach(advice -> out.println(ADVICE_INDENT + advice));
            }
        });
        long errors = result.count(Severity.ERROR);
        long warnings = result.count(Severity.WARNING);
        out.println((byObject.isEmpty() ? "" : "\n") + result.files() + " file(s), " + result.objects() + " object(s): "
                + errors + " error(s), " + warnings + " warning(s)"
                + (result.waived() == 0 ? "" : ", " + result.waived() + " waived")
                + (result.skipped() == 0 ? "" : ";\n" + result.skipped() + " other document(s) skipped"
                        + (showSkipped ? "" : " (--show-skipped lists them)")));
    }

    // ---- JSON (contract, DESIGN §5) ---------------------------------------------------------------------------

    static ObjectNode json(List<LocatedFinding> findings, ValidationRun.Result result) {
        ObjectNode root = JSON.objectNode();
        ArrayNode list = root.putArray("findings");
        for (LocatedFinding lf : findings) {
            Finding f = lf.finding();
            ObjectNode n = list.addObject();
            n.put("rule", f.rule());
            n.put("severity", f.severity().label());
            n.put("object", f.object());
            n.put("field", f.field());
            n.put("message", f.message());
            n.put("file", lf.file());
            if (lf.line() == null) {
                n.putNull("line");
            } else {
                n.put("line", lf.line());
            }
            if (f.isWaived()) {
                // An addition to the contract's fields, on waived findings only: the decision and what it hid.
                n.putObject("waived")
                        .put("reason", f.waiver().reason())
                        .put("by", f.waiver().source())
                        .put("severity", f.waiver().severity().label());
            }
        }
        ObjectNode summary = root.putObject("summary");
        summary.put("files", result.files());
        summary.put("objects", result.objects());
        summary.put("errors", result.count(Severity.ERROR));
        summary.put("warnings", result.count(Severity.WARNING));
        // An addition to the contract's summary: documents that are not admission objects (listed with --show-skipped).
        summary.put("skipped", result.skipped());
        // Also an addition: findings a waiver turned into info (each listed with its "waived" reason).
        summary.put("waived", result.waived());
        return root;
    }

    // ---- SARIF 2.1.0 -----------------------------------------------------------------------------------------

    static ObjectNode sarif(List<LocatedFinding> findings) {
        ObjectNode root = JSON.objectNode();
        root.put("$schema", SARIF_SCHEMA);
        root.put("version", "2.1.0");
        ObjectNode run = root.putArray("runs").addObject();
        ObjectNode driver = run.putObject("tool").putObject("driver");
        driver.put("name", "aps");
        String version = ApsCommand.class.getPackage().getImplementationVersion();
        driver.put("version", version == null ? "dev" : version);
        List<String> ids = new ArrayList<>(new TreeSet<>(findings.stream().map(f -> f.finding().rule()).toList()));
        ArrayNode rules = driver.putArray("rules");
        for (String id : ids) {
            sarifRule(rules.addObject(), id);
        }
        ArrayNode results = run.putArray("results");
        for (LocatedFinding lf : findings) {
            Finding f = lf.finding();
            ObjectNode r = results.addObject();
            r.put("ruleId", f.rule());
            r.put("ruleIndex", ids.indexOf(f.rule()));
            r.put("level", level(f.severity()));
            String prefix = f.object().isEmpty() ? "" : f.object() + (f.field().isEmpty() ? "" : " " + f.field()) + ": ";
            r.putObject("message").put("text", prefix + f.message());
            if (f.isWaived()) {
                // SARIF's own way to keep a waived result visible: code-scanning UIs show it as dismissed, with why.
                // In the source when the object itself carries the waiver, external otherwise (.aps.yaml, a set).
                r.putArray("suppressions").addObject()
                        .put("kind", f.waiver().source().equals(WaiverAnnotation.DESCRIPTION) ? "inSource" : "external")
                        .put("status", "accepted")
                        .put("justification", f.waiver().reason() + " (" + f.waiver().source() + "; "
                                + f.waiver().severity().label() + " before the waiver)");
            }
            if (lf.file() != null) {
                ObjectNode location = r.putArray("locations").addObject();
                ObjectNode physical = location.putObject("physicalLocation");
                physical.putObject("artifactLocation").put("uri", uri(lf.file()));
                if (lf.line() != null) {
                    physical.putObject("region").put("startLine", lf.line());
                }
                if (!f.object().isEmpty()) {
                    location.putArray("logicalLocations").addObject()
                            .put("fullyQualifiedName", f.object() + (f.field().isEmpty() ? "" : "." + f.field()))
                            .put("kind", "object");
                }
            }
        }
        return root;
    }

    /**
     * One entry of SARIF's rule table: the catalog's summary and default level, the documentation's "catches"
     * paragraph as the full description and its whole section as help (code-scanning UIs show it beside each
     * alert), and a link to the published section.
     */
    private static void sarifRule(ObjectNode r, String id) {
        r.put("id", id);
        String summary = RuleCatalog.summary(id);
        r.putObject("shortDescription").put("text", summary);
        r.putObject("fullDescription").put("text", RuleDocs.catches(id).orElse(summary));
        r.put("helpUri", RuleCatalog.helpUri(id));
        ObjectNode help = r.putObject("help");
        java.util.Optional<String> section = RuleDocs.section(id);
        help.put("text", section.map(RuleDocs::plain).orElse(summary + ". See " + RuleCatalog.helpUri(id)));
        help.put("markdown", section.orElse(summary + ". See [the rule's documentation](" + RuleCatalog.helpUri(id) + ")."));
        RuleCatalog.find(id).ifPresent(rule -> r.putObject("defaultConfiguration").put("level", level(rule.severity())));
    }

    private static String level(Severity severity) {
        return switch (severity) {
            case ERROR -> "error";
            case WARNING -> "warning";
            case INFO -> "note";
        };
    }

    /**
     * A relative URI for a relative path (forward slashes, as code-scanning UIs expect for files in the
     * repository), a {@code file:} URI for an absolute one.
     */
    private static String uri(String file) {
        if (file.equals(InputFiles.STDIN_NAME)) {
            return "%3Cstdin%3E"; // a relative reference that names no file in the repository (and no Path on Windows)
        }
        java.nio.file.Path path = java.nio.file.Path.of(file);
        if (path.isAbsolute()) {
            return path.toUri().toString();
        }
        StringBuilder out = new StringBuilder();
        for (java.nio.file.Path part : path.normalize()) {
            if (out.length() > 0) {
                out.append('/');
            }
            out.append(java.net.URLEncoder.encode(part.toString(), java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20"));
        }
        return out.toString();
    }

    static String write(com.fasterxml.jackson.databind.JsonNode node) {
        try {
            return Json.MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}

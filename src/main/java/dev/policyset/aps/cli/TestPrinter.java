package dev.policyset.aps.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.evaluate.AdmissionOutcome;
import dev.policyset.aps.core.evaluate.suite.CaseResult;
import dev.policyset.aps.core.evaluate.suite.Problem;
import dev.policyset.aps.core.yaml.Yaml;

import java.io.PrintWriter;
import java.util.List;

/** {@code aps test} output: text for people, JSON for tools, JUnit XML for CI dashboards. */
final class TestPrinter {
    enum Format { text, json }

    private TestPrinter() {}

    static void print(Format format, TestRun.Result result, PrintWriter out) {
        if (format == Format.json) {
            out.println(json(result));
        } else {
            text(result, out);
        }
        out.flush();
    }

    private static void text(TestRun.Result result, PrintWriter out) {
        for (Problem p : result.problems()) {
            out.println("ERROR " + p.describe());
        }
        for (TestRun.FileResult f : result.files()) {
            out.println(f.test().file() + " (" + f.test().format() + " " + f.test().name() + ")");
            for (Problem p : f.test().problems()) {
                out.println("  ERROR " + p.describe());
            }
            for (CaseResult c : f.cases()) {
                out.println("  " + (c.passed() ? "PASS" : "FAIL") + "  " + c.name()
                        + (c.passed() ? "" : "  (" + f.test().file() + ":" + c.line() + ")"));
                for (String d : c.differences()) {
                    out.println("        " + d.replace("\n", "\n        "));
                }
                for (String n : c.notes()) {
                    out.println("        note: " + n);
                }
            }
        }
        long cases = result.cases();
        long failed = result.failed();
        long broken = result.problems().size() + result.files().stream().mapToLong(f -> f.test().problems().size()).sum();
        out.println();
        out.println(result.files().size() + " test file(s), " + cases + " case(s): " + (cases - failed) + " passed, "
                + failed + " failed" + (broken > 0 ? "; " + broken + " problem(s) in test files" : ""));
    }

    static String json(TestRun.Result result) {
        ObjectNode root = Yaml.mapper().createObjectNode();
        ArrayNode files = root.putArray("files");
        for (TestRun.FileResult f : result.files()) {
            ObjectNode file = files.addObject();
            file.put("file", f.test().file());
            file.put("name", f.test().name());
            file.put("format", f.test().format());
            problems(file.putArray("problems"), f.test().problems());
            ArrayNode cases = file.putArray("cases");
            for (int i = 0; i < f.cases().size(); i++) {
                CaseResult c = f.cases().get(i);
                ObjectNode n = cases.addObject();
                n.put("name", c.name());
                n.put("line", c.line());
                n.put("passed", c.passed());
                CaseResult offline = f.offlineOf(i);
                if (offline != null) {
                    // aps test --server: the case as judged offline, beside the server's verdict above
                    ObjectNode o = n.putObject("offline");
                    o.put("passed", offline.passed());
                    offline.differences().forEach(o.putArray("differences")::add);
                    if (c.outcome() != null) {
                        o.put("agrees", OfflineComparison.differences(offline.outcome(), c.outcome()).isEmpty());
                    }
                }
                c.differences().forEach(n.putArray("differences")::add);
                c.notes().forEach(n.putArray("notes")::add);
                AdmissionOutcome o = c.outcome();
                if (o != null) {
                    ObjectNode outcome = n.putObject("outcome");
                    outcome.put("allowed", o.allowed());
                    if (!o.allowed()) {
                        outcome.put("code", o.code());
                        outcome.put("reason", o.reason());
                        outcome.put("message", o.message());
                    }
                    o.warnings().forEach(outcome.putArray("warnings")::add);
                    ObjectNode audit = outcome.putObject("auditAnnotations");
                    o.auditAnnotations().forEach(audit::put);
                    if (o.object() != null) {
                        outcome.set("object", o.object());
                    }
                    o.webhooks().forEach(outcome.putArray("webhooks")::add);
                    o.errors().forEach(outcome.putArray("errors")::add);
                    o.trace().forEach(outcome.putArray("trace")::add);
                }
            }
        }
        problems(root.putArray("problems"), result.problems());
        ObjectNode summary = root.putObject("summary");
        summary.put("files", result.files().size());
        summary.put("cases", result.cases());
        summary.put("passed", result.cases() - result.failed());
        summary.put("failed", result.failed());
        try {
            return Yaml.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void problems(ArrayNode into, List<Problem> problems) {
        for (Problem p : problems) {
            ObjectNode n = into.addObject();
            n.put("file", p.file());
            n.put("line", p.line());
            n.put("message", p.message());
        }
    }

    /** JUnit XML: one testsuite per test file, one testcase per case, problems as errors. */
    static String junit(TestRun.Result result) {
        StringBuilder x = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        x.append("<testsuites name=\"aps test\" tests=\"").append(result.cases()).append("\" failures=\"")
                .append(result.failed()).append("\">\n");
        for (Problem p : result.problems()) {
            x.append("  <testsuite name=\"").append(esc(p.file())).append("\" tests=\"1\" failures=\"0\" errors=\"1\">\n")
                    .append("    <testcase name=\"read ").append(esc(p.file())).append("\" classname=\"aps.test\">\n")
                    .append("      <error message=\"").append(esc(p.describe())).append("\"/>\n    </testcase>\n  </testsuite>\n");
        }
        for (TestRun.FileResult f : result.files()) {
            long failed = f.cases().stream().filter(c -> !c.passed()).count();
            x.append("  <testsuite name=\"").append(esc(f.test().file())).append("\" tests=\"").append(f.cases().size())
                    .append("\" failures=\"").append(failed).append("\" errors=\"").append(f.test().problems().size()).append("\">\n");
            for (Problem p : f.test().problems()) {
                x.append("    <testcase name=\"read\" classname=\"").append(esc(f.test().name())).append("\">\n")
                        .append("      <error message=\"").append(esc(p.describe())).append("\"/>\n    </testcase>\n");
            }
            for (CaseResult c : f.cases()) {
                x.append("    <testcase name=\"").append(esc(c.name())).append("\" classname=\"").append(esc(f.test().name()))
                        .append("\" file=\"").append(esc(f.test().file())).append("\" line=\"").append(c.line()).append("\"");
                if (c.passed()) {
                    x.append("/>\n");
                } else {
                    x.append(">\n      <failure message=\"").append(esc(c.differences().isEmpty() ? "failed" : c.differences().get(0)))
                            .append("\">").append(esc(String.join("\n", c.differences()))).append("</failure>\n    </testcase>\n");
                }
            }
            x.append("  </testsuite>\n");
        }
        return x.append("</testsuites>\n").toString();
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}

package dev.policyset.aps.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.review.LineDiff;
import dev.policyset.aps.core.review.ReviewFinding;
import dev.policyset.aps.core.review.ReviewRequest;
import dev.policyset.aps.core.review.ReviewResult;
import dev.policyset.aps.core.review.WebhookTarget;
import dev.policyset.aps.core.yaml.Yaml;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** Text and JSON output of {@code aps review}. */
final class ReviewPrinter {
    private ReviewPrinter() {}

    static void print(ReviewCommand.ReviewRun run, boolean json, boolean showRequest, PrintWriter out) {
        if (json) {
            out.println(FindingPrinter.write(json(run)));
        } else {
            text(run, showRequest, out);
        }
        out.flush();
    }

    /** {@code --- object} / {@code +++ mutated} over the YAML of both. */
    static List<String> diff(ReviewRequest request, ReviewResult result) {
        if (result == null || result.patched() == null || request.object() == null) {
            return List.of();
        }
        return LineDiff.unified(Yaml.write(List.of(request.object())), Yaml.write(List.of(result.patched())),
                "object", "mutated");
    }

    private static void text(ReviewCommand.ReviewRun run, boolean showRequest, PrintWriter out) {
        ReviewRequest q = run.request;
        out.println("Request: " + q.operation() + " " + q.describeResource() + (q.name().isEmpty() ? "" : " \"" + q.name() + "\"")
                + (q.namespace().isEmpty() ? "" : " in namespace " + q.namespace())
                + (q.username().isEmpty() ? "" : " as " + q.username()) + (q.groups().isEmpty() ? "" : " " + q.groups())
                + (q.dryRun() ? " (dry run)" : ""));
        WebhookTarget t = run.target;
        out.println("Webhook: " + (t == null ? run.traits.webhookName() + " (--url, " + (run.traits.mutating() ? "mutating" : "validating") + ")"
                : t.name() + " (" + t.configuration() + ", failurePolicy " + t.failurePolicy() + ", sideEffects "
                + (t.sideEffects() == null ? "unset" : t.sideEffects()) + ")") + ", timeout " + run.timeoutSeconds + " s");
        if (run.unreachable != null) {
            out.println("Not reached: " + run.unreachable);
            return;
        }
        if (run.review != null) {
            out.println("Sent: POST " + run.url + " (" + run.review.path("apiVersion").asText() + " AdmissionReview, uid "
                    + run.uid + ")");
        } else {
            out.println("Sent: nothing (the API server would not call this webhook for this request; see the checks)");
        }
        if (showRequest && run.review != null) {
            out.println();
            out.println("AdmissionReview sent:");
            indent(Yaml.write(List.of(run.review)), out);
        }
        if (run.http != null) {
            out.println("Answer: HTTP " + run.http.status() + (run.http.contentType().isEmpty() ? "" : " " + run.http.contentType())
                    + " in " + run.http.elapsedMillis() + " ms");
        }
        ReviewResult r = run.result;
        if (run.review != null) {
            out.println();
        }
        if (r != null && r.decision() != null) {
            ReviewResult.Decision d = r.decision();
            if (d.allowed()) {
                out.println("Decision: allowed" + (d.message().isEmpty() ? "" : " (" + d.message() + ")"));
            } else {
                out.println("Decision: denied, HTTP " + d.apiServerStatus() + (d.reason().isEmpty() ? "" : " " + d.reason())
                        + (d.message().isEmpty() ? "" : ": " + d.message()));
                out.println("  the client sees: " + d.apiServerMessage());
            }
        } else if (run.review != null) {
            out.println("Decision: none the API server would accept (see the checks)");
        }
        if (r != null && !r.warnings().isEmpty()) {
            out.println("Warnings:");
            r.warnings().forEach(w -> out.println("  - " + w));
        }
        if (r != null && !r.auditAnnotations().isEmpty()) {
            out.println("Audit annotations (recorded as " + run.traits.webhookName() + "/KEY):");
            r.auditAnnotations().forEach((k, v) -> out.println("  " + k + ": " + v));
        }
        if (r != null && r.patch() != null) {
            out.println("Patch (JSONPatch, " + r.patch().size() + " operation" + (r.patch().size() == 1 ? "" : "s") + "):");
            r.patch().forEach(op -> out.println("  " + op));
        }
        List<String> diff = diff(q, r);
        if (!diff.isEmpty()) {
            out.println("Changes:");
            diff.forEach(l -> out.println("  " + l));
        }
        if (r != null && r.patched() != null) {
            out.println("Mutated object:");
            indent(Yaml.write(List.of(r.patched())), out);
        }
        List<ReviewFinding> findings = findings(run);
        out.println();
        out.println("Checks:");
        if (run.result != null && run.result.decision() != null && !run.result.hasErrors()) {
            out.println("  ok       response present, uid echoed, " + run.review.path("apiVersion").asText()
                    + " AdmissionReview, patch/patchType as the contract asks, answered in time");
        }
        for (ReviewFinding f : findings) {
            out.println("  " + pad(f.severity().label()) + " " + f.check() + ": " + f.message());
        }
        long errors = findings.stream().filter(f -> f.severity() == Severity.ERROR).count();
        long warnings = findings.stream().filter(f -> f.severity() == Severity.WARNING).count();
        out.println();
        out.println("Result: " + verdict(run) + " (" + errors + " error" + (errors == 1 ? "" : "s") + ", " + warnings
                + " warning" + (warnings == 1 ? "" : "s") + ")");
    }

    private static String verdict(ReviewCommand.ReviewRun run) {
        if (run.review == null) {
            return "not sent";
        }
        ReviewResult r = run.result;
        if (r.decision() == null) {
            return "the call failed";
        }
        String d = r.decision().allowed() ? "allowed" : "denied";
        return r.hasErrors() ? d + ", with contract violations" : d;
    }

    private static List<ReviewFinding> findings(ReviewCommand.ReviewRun run) {
        List<ReviewFinding> all = new ArrayList<>(run.plan.findings());
        if (run.result != null) {
            all.addAll(run.result.findings());
        }
        return all;
    }

    private static String pad(String s) {
        return (s + "        ").substring(0, 8);
    }

    private static void indent(String text, PrintWriter out) {
        for (String line : text.split("\n")) {
            out.println("  " + line);
        }
    }

    private static ObjectNode json(ReviewCommand.ReviewRun run) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode root = f.objectNode();
        ReviewRequest q = run.request;
        ObjectNode req = root.putObject("request");
        req.put("operation", q.operation().name()).put("group", q.resourceGroup()).put("version", q.resourceVersion())
                .put("resource", q.resource()).put("subresource", q.subresource()).put("kind", q.kind())
                .put("name", q.name()).put("namespace", q.namespace()).put("dryRun", q.dryRun());
        if (run.uid != null) {
            req.put("uid", run.uid);
        }
        ObjectNode hook = root.putObject("webhook");
        hook.put("name", run.traits.webhookName()).put("mutating", run.traits.mutating())
                .put("timeoutSeconds", run.timeoutSeconds);
        if (run.url != null) {
            hook.put("url", run.url.toString());
        }
        if (run.target != null) {
            hook.put("configuration", run.target.configuration()).put("failurePolicy", run.target.failurePolicy());
            if (run.target.sideEffects() != null) {
                hook.put("sideEffects", run.target.sideEffects());
            }
        }
        root.put("sent", run.review != null && run.unreachable == null);
        if (run.unreachable != null) {
            root.put("unreachable", run.unreachable);
        }
        if (run.review != null) {
            root.set("admissionReview", run.review);
        }
        if (run.http != null) {
            root.putObject("http").put("status", run.http.status()).put("contentType", run.http.contentType())
                    .put("elapsedMillis", run.http.elapsedMillis());
        }
        ReviewResult r = run.result;
        if (r != null && r.decision() != null) {
            ReviewResult.Decision d = r.decision();
            ObjectNode dn = root.putObject("decision");
            dn.put("allowed", d.allowed()).put("code", d.code()).put("reason", d.reason()).put("message", d.message());
            if (!d.allowed()) {
                dn.put("apiServerStatus", d.apiServerStatus()).put("apiServerMessage", d.apiServerMessage());
            }
        } else {
            root.putNull("decision");
        }
        ArrayNode warnings = root.putArray("warnings");
        ObjectNode annotations = root.putObject("auditAnnotations");
        if (r != null) {
            r.warnings().forEach(warnings::add);
            r.auditAnnotations().forEach(annotations::put);
            root.set("response", r.response());
            root.set("patch", r.patch());
            root.set("mutatedObject", r.patched());
        }
        ArrayNode diff = root.putArray("diff");
        if (r != null) {
            diff(q, r).forEach(diff::add);
        }
        ArrayNode findings = root.putArray("findings");
        List<ReviewFinding> all = findings(run);
        for (ReviewFinding x : all) {
            findings.addObject().put("severity", x.severity().label()).put("check", x.check()).put("message", x.message());
        }
        ObjectNode summary = root.putObject("summary");
        summary.put("result", run.unreachable != null ? "unreachable" : verdict(run))
                .put("errors", all.stream().filter(x -> x.severity() == Severity.ERROR).count())
                .put("warnings", all.stream().filter(x -> x.severity() == Severity.WARNING).count())
                .put("exitCode", run.exitCode());
        return root;
    }
}

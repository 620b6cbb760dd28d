package dev.policyset.aps.core.evaluate.suite;

import dev.policyset.aps.core.evaluate.AdmissionOutcome;
import dev.policyset.aps.core.evaluate.AdmissionSimulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Runs a test file's cases and compares each outcome with its expectation. */
public final class TestRunner {
    private TestRunner() {}

    public static List<CaseResult> run(PolicyTest test) {
        List<CaseResult> results = new ArrayList<>();
        for (TestCase c : test.cases()) {
            results.add(run(c));
        }
        return results;
    }

    public static CaseResult run(TestCase c) {
        if (c.setupError() != null) {
            return new CaseResult(c.name(), c.line(), false, List.of("setup: " + c.setupError()), List.of(), null);
        }
        AdmissionOutcome outcome;
        try {
            outcome = AdmissionSimulator.review(c.config(), c.fixtures(), c.request(), c.options());
        } catch (RuntimeException e) {
            // a case must never crash the run: say which case and what broke
            return new CaseResult(c.name(), c.line(), false, List.of("the case could not be evaluated ("
                    + e.getClass().getSimpleName() + ": " + e.getMessage() + ")"), List.of(), null);
        }
        List<String> differences = c.expect().kaptest() != null
                ? Kaptest.compare(c.expect(), outcome) : compare(c.expect(), outcome);
        List<String> notes = new ArrayList<>();
        outcome.webhooks().forEach(w -> notes.add("also intercepted by webhook " + w + " (webhooks are not called offline)"));
        outcome.trace().stream().filter(t -> t.contains("NOT APPLIED BY THE API SERVER")).forEach(notes::add);
        return new CaseResult(c.name(), c.line(), differences.isEmpty(), differences, notes, outcome);
    }

    static List<String> compare(Expectation e, AdmissionOutcome o) {
        List<String> d = new ArrayList<>();
        if (e.allowed() != null && e.allowed() != o.allowed()) {
            d.add("verdict: expected " + verdict(e.allowed()) + ", got " + verdict(o.allowed())
                    + (o.allowed() ? "" : " (" + o.code() + " " + o.reason() + ": " + o.message() + ")"));
        }
        if (e.message() != null && !e.message().equals(o.message())) {
            d.add("message:\n    expected: " + e.message() + "\n    actual:   " + o.message());
        }
        if (e.messageContains() != null && !o.message().contains(e.messageContains())) {
            d.add("message: expected it to contain '" + e.messageContains() + "'\n    actual: "
                    + (o.message().isEmpty() ? "(none: the request is allowed)" : o.message()));
        }
        if (e.reason() != null && !e.reason().equals(o.reason())) {
            d.add("reason: expected " + e.reason() + ", got " + (o.reason().isEmpty() ? "(none)" : o.reason()));
        }
        if (e.code() != null && e.code() != o.code()) {
            d.add("code: expected " + e.code() + ", got " + (o.code() == 0 ? "(none: allowed)" : o.code()));
        }
        if (e.warnings() != null && !e.warnings().equals(o.warnings())) {
            d.add("warnings:\n    expected: " + e.warnings() + "\n    actual:   " + o.warnings());
        }
        if (e.auditAnnotations() != null) {
            for (Map.Entry<String, String> a : e.auditAnnotations().entrySet()) {
                String got = o.auditAnnotations().get(a.getKey());
                if (!a.getValue().equals(got)) {
                    d.add("auditAnnotations." + a.getKey() + ": expected '" + a.getValue() + "', got "
                            + (got == null ? "no such annotation (present: " + o.auditAnnotations().keySet() + ")" : "'" + got + "'"));
                }
            }
        }
        if (e.object() != null) {
            ObjectDiff.diff(e.object(), o.object(), false).forEach(x -> d.add("object " + x));
        }
        if (e.objectContains() != null) {
            ObjectDiff.diff(e.objectContains(), o.object(), true).forEach(x -> d.add("object " + x));
        }
        if (e.decisions() != null) {
            e.decisions().forEach(x -> d.addAll(compare(x, o)));
        }
        if (!d.isEmpty() && !o.errors().isEmpty()) {
            o.errors().forEach(x -> d.add("evaluation error: " + x));
        }
        return d;
    }

    /** A policy's decision whatever its bindings' actions: violated or not, how often, with which message. */
    static List<String> compare(Expectation.Decision e, AdmissionOutcome o) {
        List<String> all = o.violations().stream().filter(v -> v.policy().equals(e.policy()))
                .map(AdmissionOutcome.Violation::message).toList();
        java.util.regex.Pattern pattern = e.messageMatches() == null ? null : java.util.regex.Pattern.compile(e.messageMatches());
        List<String> messages = pattern == null ? all : all.stream().filter(m -> pattern.matcher(m).find()).toList();
        String what = "decisions." + e.policy() + (pattern == null ? "" : " (messages matching /" + e.messageMatches() + "/)");
        String got = all.isEmpty() ? "not violated" : "violated: " + all;
        List<String> d = new ArrayList<>();
        if (e.violated() != null && messages.isEmpty() == e.violated()) {
            d.add(what + ": expected " + (e.violated() ? "violated" : "not violated") + ", got " + got);
        }
        if (e.count() != null && messages.size() != e.count()) {
            d.add(what + ": expected " + e.count() + " failed validation(s), got " + messages.size() + " (" + got + ")");
        }
        if (e.message() != null && !all.contains(e.message())) {
            d.add("decisions." + e.policy() + " message:\n    expected: " + e.message() + "\n    actual:   "
                    + (all.isEmpty() ? "(not violated)" : String.join("\n              ", all)));
        }
        return d;
    }

    private static String verdict(boolean allowed) {
        return allowed ? "allowed" : "denied";
    }
}

package dev.policyset.aps.core.validate.waiver;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.cel.CelChecker;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.Exemption;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.model.SafetySettings;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.validate.ValidationOptions;
import dev.policyset.aps.core.validate.ValidationSubject;
import dev.policyset.aps.core.validate.Validator;
import dev.policyset.aps.core.validate.safety.SafetyContext;
import dev.policyset.aps.core.validate.safety.SafetyRule;
import dev.policyset.aps.core.yaml.Yaml;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The annotation, the repository file and a set's exemptions, applied along one path (Validator → Waivers). */
class WaiversTest {
    private static final LocalDate TODAY = LocalDate.of(2026, 3, 1);

    /** Stands in for the real rules: APS302 (error) and APS301 (warning) on every subject. */
    private static final SafetyRule SLOW = new SafetyRule() {
        @Override
        public String id() {
            return "APS302";
        }

        @Override
        public List<Finding> check(SafetyContext context) {
            return context.subjects().stream().flatMap(s -> java.util.stream.Stream.of(
                    Finding.error("APS302", s.object().id(), "webhooks[0].timeoutSeconds", "60 s over the budget"),
                    Finding.warning("APS301", s.object().id(), "webhooks[0].timeoutSeconds", "30 s timeout"))).toList();
        }
    };

    private static final CelChecker NO_CEL = (type, params, version) -> new CelChecker.Scope() {
        @Override
        public java.util.Optional<String> declareVariable(String name, String expression) {
            return java.util.Optional.empty();
        }

        @Override
        public java.util.Optional<String> check(dev.policyset.aps.core.cel.ExpressionKind kind, String e) {
            return java.util.Optional.empty();
        }
    };

    private static ValidationSubject bare(String name, String annotation) {
        String yaml = """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata:
                  name: %s
                %s
                webhooks: []
                """.formatted(name, annotation == null ? "" : ("annotations:\n  admission.policyset.dev/waive: |\n"
                + annotation.indent(4)).indent(2).stripTrailing());
        try {
            var d = Yaml.parse("t.yaml", yaml).get(0);
            return ValidationSubject.bare(new RenderedObject(AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION,
                    d.apiVersion(), d.name(), (ObjectNode) d.content(), ""));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static List<Finding> validate(List<ValidationSubject> subjects, List<Exemption> repository) {
        ValidationOptions options = ValidationOptions.offline(KubeVersion.NEWEST).withWaivers(repository, TODAY);
        return new Validator(options, NO_CEL, List.of(SLOW)).validate(subjects).findings().stream()
                .filter(f -> !f.isApiServerRule()).toList();
    }

    private static Finding find(List<Finding> findings, String rule, String object) {
        return findings.stream().filter(f -> f.rule().equals(rule) && f.object().equals(object)).findFirst()
                .orElseThrow(() -> new AssertionError(rule + " on " + object + " not in " + findings));
    }

    private static List<Finding> rule(List<Finding> findings, String rule) {
        return findings.stream().filter(f -> f.rule().equals(rule)).toList();
    }

    @Test
    void theAnnotationWaivesEachRuleItNamesWithItsReason() {
        List<Finding> f = validate(List.of(bare("cert-manager-webhook",
                "APS302: vendored chart, 30 s by design\nAPS301: same timeout, reviewed")), List.of());
        Finding latency = find(f, "APS302", "ValidatingWebhookConfiguration/cert-manager-webhook");
        assertEquals(Severity.INFO, latency.severity());
        assertEquals("vendored chart, 30 s by design", latency.waiver().reason());
        assertEquals(Severity.ERROR, latency.waiver().severity(), "the waiver keeps what it hid");
        assertTrue(latency.message().contains("60 s over the budget"), latency.message());
        assertEquals("same timeout, reviewed", find(f, "APS301", latency.object()).waiver().reason());
        assertEquals(List.of(), rule(f, "APS901"));
        assertEquals(List.of(), rule(f, "APS902"));
    }

    @Test
    void severalRulesOnOneLineShareTheReason() {
        List<Finding> f = validate(List.of(bare("w", "APS301, APS302: reviewed")), List.of());
        assertTrue(f.stream().filter(x -> x.rule().startsWith("APS30")).allMatch(Finding::isWaived), f.toString());
    }

    @Test
    void anAnnotationWithoutAReasonWaivesNothingAndIsReported() {
        List<Finding> f = validate(List.of(bare("w", "APS302")), List.of());
        assertEquals(Severity.ERROR, find(f, "APS302", "ValidatingWebhookConfiguration/w").severity());
        Finding problem = find(f, "APS902", "ValidatingWebhookConfiguration/w");
        assertEquals(WaiverAnnotation.FIELD, problem.field());
        assertTrue(problem.message().contains("without a reason"), problem.message());
    }

    @Test
    void apiServerRulesCannotBeWaivedAndTheFindingSaysSo() {
        List<Finding> f = validate(List.of(bare("w", "api/Invalid: the server is wrong")), List.of());
        Finding problem = find(f, "APS902", "ValidatingWebhookConfiguration/w");
        assertTrue(problem.message().contains("api/Invalid cannot be waived"), problem.message());
        assertEquals(Severity.ERROR, find(f, "APS302", "ValidatingWebhookConfiguration/w").severity());
    }

    @Test
    void aRepositoryWaiverWaivesTheObjectsItsPatternNames() {
        Exemption waiver = new Exemption("APS302", "ValidatingWebhookConfiguration/cert-manager-*", "vendored", null,
                new Exemption.Source("", "waivers[0].objects[0]", ".aps.yaml waivers[0].objects[0]"));
        List<Finding> f = validate(List.of(bare("cert-manager-webhook", null), bare("other", null)), List.of(waiver));
        Finding waived = find(f, "APS302", "ValidatingWebhookConfiguration/cert-manager-webhook");
        assertEquals(Severity.INFO, waived.severity());
        assertEquals(".aps.yaml waivers[0].objects[0]", waived.waiver().source());
        assertEquals(Severity.ERROR, find(f, "APS302", "ValidatingWebhookConfiguration/other").severity());
    }

    @Test
    void anExpiredWaiverNoLongerWaivesAndSaysSo() {
        Exemption expired = new Exemption("APS302", "ValidatingWebhookConfiguration/w", "until the upgrade",
                TODAY.minusDays(1), new Exemption.Source("", "waivers[0].object", ".aps.yaml waivers[0].object"));
        Exemption lastDay = new Exemption("APS301", "ValidatingWebhookConfiguration/w", "until the upgrade",
                TODAY, new Exemption.Source("", "waivers[1].object", ".aps.yaml waivers[1].object"));
        List<Finding> f = validate(List.of(bare("w", null)), List.of(expired, lastDay));
        Finding back = find(f, "APS302", "ValidatingWebhookConfiguration/w");
        assertEquals(Severity.ERROR, back.severity());
        assertNull(back.waiver());
        assertTrue(back.message().contains("expired on " + TODAY.minusDays(1)), back.message());
        Finding report = find(f, "APS902", "");
        assertEquals("waivers[0].object", report.field());
        assertTrue(report.message().contains("no longer waives"), report.message());
        assertTrue(find(f, "APS301", "ValidatingWebhookConfiguration/w").isWaived(), "a waiver holds on its last day");
        assertEquals(List.of(), rule(f, "APS901"), "an expired waiver is reported once, as expired");
    }

    @Test
    void waiversThatMatchNothingAreReportedWhereTheyWereWritten() {
        Exemption stale = new Exemption("APS302", "ValidatingWebhookConfiguration/gone-*", "old", null,
                new Exemption.Source("", "waivers[0].objects[0]", ".aps.yaml waivers[0].objects[0]"));
        ValidationSubject annotated = bare("w", "APS204: matches everything on purpose");
        ValidationSubject inSet = new ValidationSubject(bare("from-set", null).object(), "baseline",
                new SafetySettings(SafetySettings.Enforcement.BLOCK, List.of(
                        new Exemption("APS302", "ValidatingWebhookConfiguration/from-set", "reviewed"),
                        new Exemption("APS201", "ValidatingWebhookConfiguration/from-set", "no longer needed"))));
        List<Finding> f = validate(List.of(annotated, inSet), List.of(stale));
        List<Finding> unmatched = rule(f, "APS901");
        assertEquals(3, unmatched.size(), unmatched.toString());
        assertEquals("waivers[0].objects[0]", find(unmatched, "APS901", "").field());
        assertEquals(WaiverAnnotation.FIELD, find(unmatched, "APS901", "ValidatingWebhookConfiguration/w").field());
        assertEquals("spec.safety.exemptions[1]", find(unmatched, "APS901", "AdmissionPolicySet/baseline").field());
        Finding exempted = find(f, "APS302", "ValidatingWebhookConfiguration/from-set");
        assertTrue(exempted.message().startsWith("exempted (reviewed): "), "a set's exemption reads as before: " + exempted);
    }

    @Test
    void repositoryWaiversDoNotReachTheObjectsOfASet() {
        // The operator applies only the set's own exemptions; the CLI must not pass what the operator would block.
        Exemption everything = new Exemption("APS302", "*", "too broad", null,
                new Exemption.Source("", "waivers[0].object", ".aps.yaml waivers[0].object"));
        ValidationSubject inSet = new ValidationSubject(bare("from-set", null).object(), "baseline", SafetySettings.DEFAULT);
        List<Finding> f = validate(List.of(inSet), List.of(everything));
        assertEquals(Severity.ERROR, find(f, "APS302", "ValidatingWebhookConfiguration/from-set").severity());
        assertTrue(find(f, "APS901", "").message().contains("bare objects only"));
    }

    @Test
    void theRepositoryFileReportsEntriesThatWaiveNothingAtTheirField() throws Exception {
        var root = Yaml.parse(".aps.yaml", """
                waivers:
                  - rule: APS302
                    objects: [ValidatingWebhookConfiguration/cert-manager-*, MutatingWebhookConfiguration/cert-manager-*]
                    reason: vendored
                    expires: 2026-06-30
                  - {rule: APS302, object: ValidatingWebhookConfiguration/x}
                  - {rule: cel/Unchecked, object: ValidatingWebhookConfiguration/x, reason: r}
                  - {rule: APS302, object: no-slash, reason: r}
                  - {rule: APS302, object: ValidatingWebhookConfiguration/x, reason: r, expires: soon}
                  - {rule: APS302, object: ValidatingWebhookConfiguration/x, reason: r, expire: 2026-01-01}
                """).get(0).content();
        WaiverAnnotation.Read read = RepositoryWaivers.read(root, ".aps.yaml");
        List<String> fields = new ArrayList<>(read.problems().stream().map(Finding::field).toList());
        assertEquals(List.of("waivers[1].reason", "waivers[2].rule", "waivers[3].object", "waivers[4].expires",
                "waivers[5].expire"), fields);
        assertTrue(read.problems().stream().allMatch(p -> p.rule().equals(Waivers.UNUSABLE)));
        assertEquals(3, read.waivers().size(), "two patterns of the first entry, and the last (an unknown key is only reported)");
        assertEquals(LocalDate.of(2026, 6, 30), read.waivers().get(0).expires());
        assertTrue(read.waivers().get(0).matches("APS302", "ValidatingWebhookConfiguration/cert-manager-webhook"));
    }
}

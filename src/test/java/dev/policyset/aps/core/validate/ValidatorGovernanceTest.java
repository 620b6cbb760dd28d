package dev.policyset.aps.core.validate;

import dev.policyset.aps.core.cel.CelChecker;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.Exemption;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.model.SafetySettings;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.validate.safety.SafetyContext;
import dev.policyset.aps.core.validate.safety.SafetyRule;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Exemptions and enforcement: what a set's spec.safety does to safety findings, and never to api/*. */
class ValidatorGovernanceTest {
    private static final String OBJECT = "ValidatingWebhookConfiguration/hook";

    /** A stand-in rule that reports one error and one warning on every subject. */
    private static final SafetyRule FAKE = new SafetyRule() {
        @Override
        public String id() {
            return "APS201";
        }

        @Override
        public List<Finding> check(SafetyContext context) {
            return context.subjects().stream().flatMap(s -> java.util.stream.Stream.of(
                    Finding.error("APS201", s.object().id(), "webhooks[0].namespaceSelector", "fail-closed"),
                    Finding.warning("APS301", s.object().id(), "webhooks[0].timeoutSeconds", "slow"))).toList();
        }
    };

    private static final SafetyRule API_LIKE = new SafetyRule() {
        @Override
        public String id() {
            return "APS999";
        }

        @Override
        public List<Finding> check(SafetyContext context) {
            return List.of(Finding.error("api/Invalid", OBJECT, "webhooks[0].sideEffects", "bad"));
        }
    };

    private static final SafetyRule BROKEN = new SafetyRule() {
        @Override
        public String id() {
            return "APS998";
        }

        @Override
        public List<Finding> check(SafetyContext context) {
            throw new IllegalStateException("boom");
        }
    };

    private static ValidationReport validate(SafetySettings safety, SafetyRule... rules) {
        ObjectNode manifest = JsonNodeFactory.instance.objectNode();
        manifest.putObject("metadata").put("name", "hook");
        RenderedObject object = new RenderedObject(AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION,
                "admissionregistration.k8s.io/v1", "hook", manifest, "spec.validatingWebhooks[0]");
        CelChecker noCel = (type, params, version) -> new CelChecker.Scope() {
            @Override
            public java.util.Optional<String> declareVariable(String name, String expression) {
                return java.util.Optional.empty();
            }

            @Override
            public java.util.Optional<String> check(dev.policyset.aps.core.cel.ExpressionKind kind, String e) {
                return java.util.Optional.empty();
            }
        };
        return new Validator(ValidationOptions.offline(KubeVersion.NEWEST), noCel, List.of(rules))
                .validate(List.of(new ValidationSubject(object, "set-a", safety)));
    }

    private static Finding byRule(ValidationReport report, String rule) {
        return report.findings().stream().filter(f -> f.rule().equals(rule)).findFirst().orElseThrow();
    }

    /** The stand-in object is not a complete manifest, so api/* findings are expected and ignored here. */
    private static List<Finding> safetyErrors(ValidationReport r) {
        return r.findings().stream().filter(f -> f.isError() && !f.isApiServerRule()).toList();
    }

    @Test
    void blockKeepsSeverities() {
        ValidationReport r = validate(SafetySettings.DEFAULT, FAKE);
        assertEquals(Severity.ERROR, byRule(r, "APS201").severity());
        assertTrue(r.hasErrors());
    }

    @Test
    void exemptionTurnsTheMatchingFindingIntoInfoWithTheReason() {
        SafetySettings safety = new SafetySettings(SafetySettings.Enforcement.BLOCK,
                List.of(new Exemption("APS201", OBJECT, "reviewed; highly available")));
        ValidationReport r = validate(safety, FAKE);
        Finding exempted = byRule(r, "APS201");
        assertEquals(Severity.INFO, exempted.severity());
        assertTrue(exempted.message().contains("reviewed; highly available"), exempted.message());
        assertTrue(exempted.message().contains("fail-closed"), "the original message is kept");
        assertEquals(Severity.WARNING, byRule(r, "APS301").severity(), "other rules are not exempted");
        assertTrue(safetyErrors(r).isEmpty(), () -> safetyErrors(r).toString());
    }

    @Test
    void exemptionForAnotherObjectDoesNothing() {
        SafetySettings safety = new SafetySettings(SafetySettings.Enforcement.BLOCK,
                List.of(new Exemption("APS201", "ValidatingWebhookConfiguration/other", "n/a")));
        assertEquals(Severity.ERROR, byRule(validate(safety, FAKE), "APS201").severity());
    }

    @Test
    void warnEnforcementDowngradesSafetyErrorsButNeverApiFindings() {
        SafetySettings warn = new SafetySettings(SafetySettings.Enforcement.WARN, List.of());
        ValidationReport r = validate(warn, FAKE, API_LIKE);
        assertEquals(Severity.WARNING, byRule(r, "APS201").severity());
        assertTrue(byRule(r, "APS201").message().contains("enforcement is Warn"));
        assertEquals(Severity.ERROR, r.findings().stream().filter(f -> f.message().equals("bad")).findFirst().orElseThrow().severity());
    }

    @Test
    void apiFindingsCannotBeExempted() {
        SafetySettings safety = new SafetySettings(SafetySettings.Enforcement.BLOCK,
                List.of(new Exemption("api/Invalid", OBJECT, "no")));
        assertEquals(Severity.ERROR, validate(safety, API_LIKE).findings().stream()
                .filter(f -> f.message().equals("bad")).findFirst().orElseThrow().severity());
    }

    @Test
    void aRuleThatThrowsDoesNotStopTheOthers() {
        ValidationReport r = validate(SafetySettings.DEFAULT, BROKEN, FAKE);
        assertEquals(Severity.ERROR, byRule(r, "APS201").severity());
        assertEquals(Severity.WARNING, byRule(r, "APS998").severity());
    }
}

package dev.policyset.aps.core.validate;

import dev.policyset.aps.core.cel.CelChecker;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.Exemption;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.model.SafetySettings;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.validate.safety.Aps404DuplicateObject;
import dev.policyset.aps.core.validate.safety.SafetyContext;
import dev.policyset.aps.core.validate.safety.SafetyRule;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each finding belongs to the definition it is about, also when several subjects share one Kind/name. */
class ValidatorAttributionTest {
    private static final String HOOK = "ValidatingWebhookConfiguration/hook";

    /** A per-object stand-in: one error on every subject whose manifest says {@code bad: true}. */
    private static final SafetyRule PER_OBJECT = new SafetyRule() {
        @Override
        public String id() {
            return "APS201";
        }

        @Override
        public List<Finding> check(SafetyContext context) {
            return context.subjects().stream().filter(s -> s.object().manifest().path("bad").asBoolean())
                    .map(s -> Finding.error("APS201", s.object().id(), "webhooks[0].failurePolicy", "fail-closed")).toList();
        }
    };

    /** A stand-in that pairs objects: a warning on "hook" whenever an object named "partner" is in the input. */
    private static final SafetyRule PAIRING = new SafetyRule() {
        @Override
        public String id() {
            return "APS401";
        }

        @Override
        public List<Finding> check(SafetyContext context) {
            boolean partner = context.subjects().stream().anyMatch(s -> s.object().name().equals("partner"));
            return !partner ? List.of() : context.subjects().stream().filter(s -> s.object().name().equals("hook")
                    && s.object().manifest().path("pairs").asBoolean())
                    .map(s -> Finding.warning("APS401", s.object().id(), "", "paired")).toList();
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

    private static ValidationSubject subject(String name, boolean bad, SafetySettings safety, String origin) {
        ObjectNode manifest = JsonNodeFactory.instance.objectNode();
        manifest.putObject("metadata").put("name", name);
        manifest.put("bad", bad);
        manifest.put("pairs", bad);
        RenderedObject object = new RenderedObject(AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION,
                "admissionregistration.k8s.io/v1", name, manifest, "");
        return new ValidationSubject(object, null, safety).at(origin);
    }

    private static List<String> attributed(List<ValidationSubject> subjects, SafetyRule... rules) {
        List<String> out = new ArrayList<>();
        for (AttributedFinding a : new Validator(ValidationOptions.offline(KubeVersion.NEWEST), NO_CEL, List.of(rules))
                .validateAttributed(subjects)) {
            if (!a.finding().isApiServerRule()) { // the stand-in manifests are incomplete: api/* is expected
                out.add(a.finding().rule() + " " + a.finding().object() + " " + a.finding().severity().label() + " @" + a.subject());
            }
        }
        return out.stream().sorted().toList();
    }

    @Test
    void repeatedNamesKeepEachDefinitionsOwnFindings() {
        List<ValidationSubject> subjects = List.of(
                subject("hook", false, SafetySettings.DEFAULT, "a.yaml:3"),
                subject("hook", true, SafetySettings.DEFAULT, "b.yaml:3"),
                subject("hook", true, SafetySettings.DEFAULT, "c.yaml:3"),
                subject("other", true, SafetySettings.DEFAULT, "d.yaml:3"));
        assertEquals(List.of(
                "APS201 " + HOOK + " error @1",
                "APS201 " + HOOK + " error @2",
                "APS201 ValidatingWebhookConfiguration/other error @3"), attributed(subjects, PER_OBJECT));
    }

    @Test
    void rulesThatPairObjectsStillSeeTheirPartnersInEveryLayer() {
        List<ValidationSubject> subjects = List.of(
                subject("hook", false, SafetySettings.DEFAULT, "a.yaml:3"),
                subject("hook", true, SafetySettings.DEFAULT, "b.yaml:3"),
                subject("partner", false, SafetySettings.DEFAULT, "p.yaml:3"));
        assertEquals(List.of("APS401 " + HOOK + " warning @1"), attributed(subjects, PAIRING));
    }

    @Test
    void eachDefinitionIsGovernedByItsOwnSetsSafety() {
        SafetySettings exempting = new SafetySettings(SafetySettings.Enforcement.BLOCK,
                List.of(new Exemption("APS201", HOOK, "reviewed")));
        List<ValidationSubject> subjects = List.of(
                subject("hook", true, exempting, "a.yaml:3"),
                subject("hook", true, SafetySettings.DEFAULT, "b.yaml:3"));
        assertEquals(List.of("APS201 " + HOOK + " error @1", "APS201 " + HOOK + " info @0"),
                attributed(subjects, PER_OBJECT));
    }

    @Test
    void theDuplicateFindingStaysWithTheFirstDefinitionAndNamesEveryOrigin() {
        List<ValidationSubject> subjects = List.of(
                subject("hook", false, SafetySettings.DEFAULT, "a.yaml:3"),
                subject("hook", false, SafetySettings.DEFAULT, "b.yaml:7"));
        List<AttributedFinding> found = new Validator(ValidationOptions.offline(KubeVersion.NEWEST), NO_CEL,
                List.of(new Aps404DuplicateObject())).validateAttributed(subjects).stream()
                .filter(a -> a.finding().rule().equals("APS404")).toList();
        assertEquals(1, found.size());
        assertEquals(0, found.get(0).subject());
        assertTrue(found.get(0).finding().message().contains("a bare object in a.yaml:3; a bare object in b.yaml:7"),
                found.get(0).finding().message());
    }

    @Test
    void uniqueNamesNeedNoLayersAndAFailingRuleIsAboutNoSubject() {
        SafetyRule broken = new SafetyRule() {
            @Override
            public String id() {
                return "APS998";
            }

            @Override
            public List<Finding> check(SafetyContext context) {
                throw new IllegalStateException("boom");
            }
        };
        List<ValidationSubject> subjects = List.of(subject("hook", true, SafetySettings.DEFAULT, null));
        assertEquals(List.of("APS201 " + HOOK + " error @0", "APS998  warning @-1"), attributed(subjects, PER_OBJECT, broken));
    }
}

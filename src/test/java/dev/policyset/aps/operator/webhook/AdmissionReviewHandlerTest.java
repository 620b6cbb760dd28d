package dev.policyset.aps.operator.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.policyset.aps.core.cel.KubernetesCelChecker;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.plan.Planner;
import dev.policyset.aps.core.plan.SetAdmission;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The handler's limits and failure paths, beside the recorded reviews of {@link AdmissionReviewGoldenTest}. */
class AdmissionReviewHandlerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SetAdmission ADMISSION = new SetAdmission(new Planner(new KubernetesCelChecker()));

    @Test
    void aSetThatCannotBeJudgedIsAdmittedWithAWarningNotAnError() throws Exception {
        byte[] request = Files.readAllBytes(AdmissionReviewGoldenTest.CASES.resolve("create-unsafe-set-denied/in-review.json"));
        AdmissionReviewHandler handler = new AdmissionReviewHandler(ADMISSION, () -> {
            throw new IllegalStateException("the operator's controller is not running yet");
        });
        AdmissionReviewHandler.Reply reply = handler.handle(request);
        JsonNode response = JSON.readTree(reply.body()).path("response");
        WireContract.check(request, reply.status(), JSON.readTree(reply.body()));
        assertEquals(200, reply.status());
        assertTrue(response.path("allowed").asBoolean());
        assertEquals("the operator's webhook could not judge this set (IllegalStateException: the operator's controller "
                + "is not running yet); it was admitted, and the operator validates it before applying anything",
                response.path("warnings").get(0).asText());
    }

    @Test
    void warningsAreWholeWhileTheyFitAndCutToTheApiServersLimitsOtherwise() {
        List<Finding> few = List.of(Finding.warning("APS301", "ValidatingWebhookConfiguration/a", "webhooks[0].timeoutSeconds",
                "x".repeat(1000)));
        List<String> whole = AdmissionReviewHandler.warnings(new SetAdmission.Decision(List.of(), List.of(), few, true));
        assertEquals(1, whole.size());
        assertTrue(whole.get(0).endsWith("x".repeat(1000)), "one long warning fits in 4,096 runes: sent whole");

        List<Finding> many = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            many.add(Finding.warning("APS203", "ValidatingWebhookConfiguration/w" + i, "webhooks[0].namespaceSelector",
                    "line one\nline two " + "é".repeat(400)));
        }
        List<String> cut = AdmissionReviewHandler.warnings(new SetAdmission.Decision(List.of(), List.of(), many, true));
        assertEquals(AdmissionReviewHandler.MAX_WARNINGS + 1, cut.size());
        assertEquals("25 more warning(s): `aps validate` or the set's status.findings lists them all", cut.get(15));
        int total = 0;
        for (String w : cut) {
            int runes = w.codePointCount(0, w.length());
            assertTrue(runes <= AdmissionReviewHandler.MAX_WARNING_RUNES, w);
            assertFalse(w.contains("\n"), "one line: " + w);
            total += runes;
        }
        assertTrue(total <= AdmissionReviewHandler.MAX_TOTAL_WARNING_RUNES, "total " + total);
        assertTrue(cut.get(0).startsWith("APS203 ValidatingWebhookConfiguration/w0 webhooks[0].namespaceSelector: line one line two é"));
        assertTrue(cut.get(0).endsWith("…"));
    }

    @Test
    void aDenialListsTwentyFindingsAndCountsTheRest() {
        List<Finding> errors = new ArrayList<>();
        for (int i = 0; i < 23; i++) {
            errors.add(Finding.error("api/Invalid", "ValidatingAdmissionPolicy/p" + i, "spec.validations[0].expression", "bad"));
        }
        String message = AdmissionReviewHandler.denial("many", errors);
        assertTrue(message.startsWith("AdmissionPolicySet \"many\" has 23 error findings (the operator would not apply it):\n"
                + "- api/Invalid ValidatingAdmissionPolicy/p0 spec.validations[0].expression: bad\n"), message);
        assertEquals(20, message.lines().filter(l -> l.startsWith("- api/Invalid")).count());
        assertTrue(message.contains("\n- and 3 more\n"), message);
    }

    @Test
    void judgingKeepsNoStateBetweenRequests() throws Exception {
        Path dir = AdmissionReviewGoldenTest.CASES.resolve("update-existing-errors-ratcheted");
        byte[] request = Files.readAllBytes(dir.resolve("in-review.json"));
        AdmissionReviewHandler handler = new AdmissionReviewHandler(ADMISSION,
                () -> dev.policyset.aps.core.model.ClusterView.of(dev.policyset.aps.core.model.KubeVersion.NEWEST,
                        java.util.Optional.of("v1beta1"), List.of()));
        assertEquals(handler.handle(request), handler.handle(request));
    }
}

package dev.policyset.aps.core.validate.apiserver;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.KubeVersion;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DecodingTest {
    @Test
    void wrongJsonTypesAreReportedOnTheFieldAndStopValidation() {
        String yaml = Api.webhooks("ValidatingWebhookConfiguration",
                "  timeoutSeconds: '10'\n  rules: {operations: [CREATE]}\n  failurePolicy: Nope\n");
        assertEquals(List.of("webhooks[0].rules Invalid", "webhooks[0].timeoutSeconds Invalid"), Api.errors(yaml));
        Finding f = Api.findings(yaml, KubeVersion.NEWEST, new FakeCelChecker()).get(0);
        assertTrue(f.message().contains("cannot decode"), f.message());
    }

    @Test
    void integersMustFitAndBytesMustBeBase64() {
        assertEquals(List.of("webhooks[0].clientConfig.service.port Invalid", "webhooks[0].timeoutSeconds Invalid"),
                Api.errors(Api.webhooks("ValidatingWebhookConfiguration", "  timeoutSeconds: 1.5\n")
                        .replace("namespace: ns}", "namespace: ns, port: 99999999999}")));
        assertEquals(List.of("webhooks[0].clientConfig.caBundle Invalid"),
                Api.errors(Api.webhooks("ValidatingWebhookConfiguration", "")
                        .replace("namespace: ns}", "namespace: ns}\n    caBundle: 'not base64!'")));
        assertEquals(List.of(), Api.errors(Api.webhooks("ValidatingWebhookConfiguration", "")
                .replace("namespace: ns}", "namespace: ns}\n    caBundle: 'Y2E='")));
    }

    @Test
    void unknownFieldsAreReportedAndValidationGoesOn() {
        String yaml = Api.vap(Api.VAP_SPEC + "  failurPolicy: Fail\n  failurePolicy: Retry\n");
        assertEquals(List.of("spec.failurPolicy Invalid", "spec.failurePolicy NotSupported"), Api.errors(yaml));
        Finding unknown = Api.findings(yaml, KubeVersion.NEWEST, new FakeCelChecker()).stream()
                .filter(f -> f.field().equals("spec.failurPolicy")).findFirst().orElseThrow();
        assertTrue(unknown.message().contains("unknown field \"spec.failurPolicy\""), unknown.message());
        assertTrue(unknown.message().contains("did you mean \"failurePolicy\"?"), unknown.message());
    }

    @Test
    void nullIsTheSameAsAbsent() {
        assertEquals(List.of(), Api.errors(Api.vap(Api.VAP_SPEC + "  failurePolicy: null\n  variables: null\n")));
    }

    @Test
    void hugeAndDeepDocumentsDoNotCrash() {
        StringBuilder yaml = new StringBuilder();
        yaml.append(Api.vap(Api.VAP_SPEC.replace("  validations:\n  - expression: object.spec.replicas <= 5\n", "")))
                .append("  validations:\n");
        for (int i = 0; i < 5_000; i++) {
            yaml.append("  - expression: 'true'\n    reason: Bad\n");
        }
        assertEquals(5_000, Api.errors(yaml.toString()).size());
        String deep = Api.vap(Api.VAP_SPEC + "  paramKind: " + "{a: ".repeat(150) + "1" + "}".repeat(150) + "\n");
        assertEquals(List.of("spec.paramKind.a Invalid", "spec.paramKind.apiVersion Required", "spec.paramKind.kind Required"),
                Api.errors(deep));
        String deepStatus = Api.vap(Api.VAP_SPEC) + "status: " + "{a: [".repeat(90) + "1" + "]}".repeat(90) + "\n";
        assertEquals(List.of(), Api.errors(deepStatus));
    }
}

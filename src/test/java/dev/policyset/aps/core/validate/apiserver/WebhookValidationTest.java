package dev.policyset.aps.core.validate.apiserver;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.KubeVersion;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WebhookValidationTest {
    private static final String VWC = "ValidatingWebhookConfiguration";
    private static final String MWC = "MutatingWebhookConfiguration";

    private static List<String> hook(String kind, String extra) {
        return Api.errors(Api.webhooks(kind, extra));
    }

    @Test
    void defaultsMakeTheMinimalWebhookValid() {
        assertEquals(List.of(), hook(VWC, ""));
        assertEquals(List.of(), hook(MWC, ""));
    }

    @Test
    void enumsAndLimits() {
        assertEquals(List.of("webhooks[0].failurePolicy NotSupported", "webhooks[0].matchPolicy NotSupported",
                        "webhooks[0].reinvocationPolicy NotSupported", "webhooks[0].timeoutSeconds Invalid"),
                hook(MWC, "  failurePolicy: fail\n  matchPolicy: ''\n  reinvocationPolicy: Always\n  timeoutSeconds: 0\n"));
        assertEquals(List.of("webhooks[0].sideEffects NotSupported"),
                Api.errors(Api.webhooks(VWC, "").replace("sideEffects: None", "sideEffects: Unknown")));
        assertEquals(List.of("webhooks[0].admissionReviewVersions Required", "webhooks[0].sideEffects Required"),
                Api.errors(Api.webhooks(VWC, "").replace("  sideEffects: None\n  admissionReviewVersions: [v1]\n", "")));
    }

    @Test
    void admissionReviewVersions() {
        assertEquals(List.of("webhooks[0].admissionReviewVersions[1] Invalid"),
                Api.errors(Api.webhooks(VWC, "").replace("[v1]", "[v1, v1]")));
        assertEquals(List.of("webhooks[0].admissionReviewVersions Invalid"),
                Api.errors(Api.webhooks(VWC, "").replace("[v1]", "[v2]")));
        assertEquals(List.of("webhooks[0].admissionReviewVersions Invalid", "webhooks[0].admissionReviewVersions[0] Invalid"),
                Api.errors(Api.webhooks(VWC, "").replace("[v1]", "[V1]")));
    }

    @Test
    void namesAreFullyQualifiedAndUnique() {
        assertEquals(List.of("webhooks[0].name Invalid"),
                Api.errors(Api.webhooks(VWC, "").replace("check.example.com", "example.com")));
        assertEquals(List.of("webhooks[0].name Invalid"),
                Api.errors(Api.webhooks(VWC, "").replace("check.example.com", "Check.example.com")));
        String twice = Api.webhooks(VWC, "") + "- name: check.example.com\n  clientConfig: {url: 'https://h'}\n"
                + "  sideEffects: NoneOnDryRun\n  admissionReviewVersions: [v1beta1]\n";
        assertEquals(List.of("webhooks[1].name Duplicate"), Api.errors(twice));
    }

    @Test
    void clientConfigUrl() {
        assertEquals(List.of("webhooks[0].clientConfig Required"),
                Api.errors(Api.webhooks(VWC, "").replace("service: {name: svc, namespace: ns}", "{}")));
        assertEquals(List.of("webhooks[0].clientConfig Required"),
                Api.errors(Api.webhooks(VWC, "").replace("service: {name: svc, namespace: ns}",
                        "{url: 'https://h', service: {name: s, namespace: n}}")));
        assertEquals(List.of(), url("HTTPS://hook.example.com:8443/validate"));
        assertEquals(List.of("webhooks[0].clientConfig.url Invalid"), url("http://hook.example.com"));
        assertEquals(List.of("webhooks[0].clientConfig.url Invalid", "webhooks[0].clientConfig.url Invalid"), url(""));
        assertEquals(List.of("webhooks[0].clientConfig.url Invalid", "webhooks[0].clientConfig.url Invalid",
                "webhooks[0].clientConfig.url Invalid"), url("https://u:p@h/?q=1#f"));
        assertEquals(List.of("webhooks[0].clientConfig.url Required"), url("https://exa mple.com/"));
        assertEquals(List.of("webhooks[0].clientConfig.url Required"), url("https://h:port/"));
        assertEquals(List.of(), url("https://h/#"));
    }

    private static List<String> url(String url) {
        return Api.errors(Api.webhooks(VWC, "").replace("service: {name: svc, namespace: ns}", "url: '" + url + "'"));
    }

    @Test
    void aMissingServiceNameOrNamespaceSaysWhichPathTheApiServerReportsItOn() {
        // The real server swaps the two paths (StructureDifferentialRealServerTest, conformance VWC 032/033).
        String yaml = Api.webhooks(VWC, "").replace("service: {name: svc, namespace: ns}", "service: {namespace: ns}");
        List<Finding> findings = Api.findings(yaml, KubeVersion.NEWEST, new FakeCelChecker());
        assertEquals(1, findings.size(), findings.toString());
        assertEquals("webhooks[0].clientConfig.service.name", findings.get(0).field());
        assertTrue(findings.get(0).message().contains("the API server reports this as webhooks[0].clientConfig.service.namespace"),
                findings.get(0).message());
    }

    @Test
    void clientConfigService() {
        assertEquals(List.of("webhooks[0].clientConfig.service.name Required",
                        "webhooks[0].clientConfig.service.namespace Required", "webhooks[0].clientConfig.service.port Invalid"),
                service("{port: 0}"));
        assertEquals(List.of(), service("{name: Not_A_DNS_Name, namespace: ns, path: /}"));
        assertEquals(List.of(), service("{name: s, namespace: ns, path: /validate/pods/}"));
        assertEquals(List.of("webhooks[0].clientConfig.service.path Invalid"), service("{name: s, namespace: ns, path: '//'}"));
        assertEquals(List.of("webhooks[0].clientConfig.service.path Invalid"), service("{name: s, namespace: ns, path: validate}"));
        assertEquals(List.of("webhooks[0].clientConfig.service.path Invalid"), service("{name: s, namespace: ns, path: /a//b}"));
        assertEquals(List.of("webhooks[0].clientConfig.service.path Invalid"), service("{name: s, namespace: ns, path: /Validate}"));
    }

    private static List<String> service(String service) {
        return Api.errors(Api.webhooks(VWC, "").replace("service: {name: svc, namespace: ns}", "service: " + service));
    }
}

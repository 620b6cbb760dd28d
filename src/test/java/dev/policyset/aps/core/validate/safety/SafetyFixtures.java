package dev.policyset.aps.core.validate.safety;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.model.SafetySettings;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.validate.ValidationOptions;
import dev.policyset.aps.core.validate.ValidationSubject;
import dev.policyset.aps.core.yaml.Yaml;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Builds subjects from YAML text for the safety-rule tests. */
final class SafetyFixtures {
    private SafetyFixtures() {}

    static List<ValidationSubject> subjects(String yaml) {
        List<ValidationSubject> out = new ArrayList<>();
        try {
            for (var d : Yaml.parse("test.yaml", yaml)) {
                if (!d.content().isObject()) {
                    continue; // a trailing "---" reads as an empty document
                }
                AdmissionKind kind = AdmissionKind.fromKind(d.kind()).orElseThrow();
                out.add(ValidationSubject.bare(new RenderedObject(kind, d.apiVersion(), d.name(), (ObjectNode) d.content(), "")));
            }
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        return out;
    }

    static List<Finding> run(SafetyRule rule, String yaml) {
        return run(rule, yaml, Set.of());
    }

    static List<Finding> run(SafetyRule rule, String yaml, Set<String> clusterPolicies) {
        return rule.check(new SafetyContext(subjects(yaml),
                new ValidationOptions(KubeVersion.NEWEST, clusterPolicies)));
    }

    static ValidationSubject inSet(ValidationSubject s, String set, SafetySettings safety) {
        return new ValidationSubject(s.object(), set, safety);
    }

    /** A validating webhook configuration with one webhook; {@code extra} is indented webhook fields. */
    static String vwc(String name, String extra) {
        return webhookConfig("ValidatingWebhookConfiguration", name, extra);
    }

    static String mwc(String name, String extra) {
        return webhookConfig("MutatingWebhookConfiguration", name, extra);
    }

    private static String webhookConfig(String kind, String name, String extra) {
        return """
                apiVersion: admissionregistration.k8s.io/v1
                kind: %s
                metadata:
                  name: %s
                  annotations:
                    cert-manager.io/inject-ca-from: hooks/cert
                webhooks:
                  - name: %s.example.com
                    admissionReviewVersions: [v1]
                    sideEffects: None
                    clientConfig:
                      service: {namespace: hooks, name: %s}
                %s
                ---
                """.formatted(kind, name, name, name, extra.indent(4).stripTrailing());
    }

    static final String PODS = """
            rules:
              - apiGroups: [""]
                apiVersions: [v1]
                operations: [CREATE, UPDATE]
                resources: [pods]
            """;

    static final String EXCLUDE_SYSTEM = """
            namespaceSelector:
              matchExpressions:
                - key: kubernetes.io/metadata.name
                  operator: NotIn
                  values: [kube-system, kube-node-lease, hooks]
            """;
}

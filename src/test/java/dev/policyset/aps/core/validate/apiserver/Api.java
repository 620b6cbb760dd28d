package dev.policyset.aps.core.validate.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.cel.CelChecker;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.yaml.Yaml;

import java.util.List;

/** Test helper: runs {@link ApiServerRules} on a YAML text and lists the errors as "field Type", sorted. */
final class Api {
    static final String VAP_SPEC = """
            spec:
              matchConstraints:
                resourceRules:
                - apiGroups: [apps]
                  apiVersions: [v1]
                  operations: [CREATE, UPDATE]
                  resources: [deployments]
              validations:
              - expression: object.spec.replicas <= 5
            """;

    private Api() {}

    static List<Finding> findings(String yaml, KubeVersion version, CelChecker cel) {
        try {
            JsonNode node = Yaml.parse("test.yaml", yaml).get(0).content();
            AdmissionKind kind = AdmissionKind.fromKind(node.path("kind").asText()).orElseThrow();
            RenderedObject object = new RenderedObject(kind, node.path("apiVersion").asText(),
                    node.path("metadata").path("name").asText(""), (ObjectNode) node, "");
            return ApiServerRules.check(object, version, cel);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static List<String> errors(String yaml) {
        return errors(yaml, KubeVersion.NEWEST);
    }

    static List<String> errors(String yaml, KubeVersion version) {
        return findings(yaml, version, new FakeCelChecker()).stream()
                .filter(Finding::isError)
                .map(f -> f.field() + " " + f.rule().substring("api/".length()))
                .sorted()
                .toList();
    }

    /** A ValidatingAdmissionPolicy named {@code p.example.com} with the given spec (indented by two). */
    static String vap(String spec) {
        return "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\n"
                + "metadata:\n  name: p.example.com\n" + spec;
    }

    static String map(String spec) {
        return "apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingAdmissionPolicy\n"
                + "metadata:\n  name: m.example.com\n" + spec;
    }

    static String binding(String kind, String spec) {
        return "apiVersion: admissionregistration.k8s.io/v1\nkind: " + kind + "\n"
                + "metadata:\n  name: b.example.com\n" + spec;
    }

    /** A webhook configuration of the given kind whose first webhook is valid plus {@code extra} lines. */
    static String webhooks(String kind, String extra) {
        return "apiVersion: admissionregistration.k8s.io/v1\nkind: " + kind + "\nmetadata:\n  name: w\nwebhooks:\n"
                + "- name: check.example.com\n"
                + "  clientConfig:\n    service: {name: svc, namespace: ns}\n"
                + "  sideEffects: None\n  admissionReviewVersions: [v1]\n" + extra;
    }
}

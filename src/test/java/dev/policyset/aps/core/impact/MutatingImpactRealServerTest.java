package dev.policyset.aps.core.impact;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.yaml.Document;
import dev.policyset.aps.core.yaml.Yaml;
import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.RealApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The mutating impact's verdicts judged by the real kube-apiserver: objects are created on the server and read back
 * (with the server's defaults), scanned offline with the policies, then the policies are created on the server and
 * each object is written back unchanged as a dry-run UPDATE. What the scan calls refused (immutable: a Pod's spec, a
 * Deployment's selector; schema: strict decoding) the server must refuse with the same error, and what it calls
 * changed the server must accept with the change.
 */
@RealApiServer
class MutatingImpactRealServerTest {
    private static final String NS = "mutating-impact";
    private static final String POLICIES = """
            apiVersion: admissionregistration.k8s.io/v1
            kind: MutatingAdmissionPolicy
            metadata: {name: impact-non-root}
            spec:
              failurePolicy: Fail
              reinvocationPolicy: Never
              matchConstraints:
                resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [UPDATE], resources: [pods]}]
              matchConditions: [{name: probe, expression: "object.metadata.name == 'refused-pod'"}]
              mutations:
              - patchType: ApplyConfiguration
                applyConfiguration:
                  expression: "Object{spec: Object.spec{securityContext: Object.spec.securityContext{runAsNonRoot: true}}}"
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: MutatingAdmissionPolicy
            metadata: {name: impact-label}
            spec:
              failurePolicy: Fail
              reinvocationPolicy: Never
              matchConstraints:
                resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [UPDATE], resources: [pods]}]
              matchConditions: [{name: probe, expression: "object.metadata.name == 'labelled-pod'"}]
              mutations:
              - patchType: ApplyConfiguration
                applyConfiguration:
                  expression: "Object{metadata: Object.metadata{labels: {'scanned': 'yes'}}}"
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: MutatingAdmissionPolicy
            metadata: {name: impact-selector}
            spec:
              failurePolicy: Fail
              reinvocationPolicy: Never
              matchConstraints:
                resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [UPDATE], resources: [deployments]}]
              matchConditions: [{name: probe, expression: "object.metadata.name == 'selector-deploy'"}]
              mutations:
              - patchType: JSONPatch
                jsonPatch:
                  expression: "[JSONPatch{op: 'add', path: '/spec/selector/matchLabels/tier', value: 'web'}]"
            ---
            apiVersion: admissionregistration.k8s.io/v1
            kind: MutatingAdmissionPolicy
            metadata: {name: impact-typo}
            spec:
              failurePolicy: Ignore
              reinvocationPolicy: Never
              matchConstraints:
                resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [UPDATE], resources: [deployments]}]
              matchConditions: [{name: probe, expression: "object.metadata.name == 'typo-deploy'"}]
              mutations:
              - patchType: JSONPatch
                jsonPatch:
                  expression: "[JSONPatch{op: 'add', path: '/spec/progressDeadlineSecond', value: 600}]"
            """;

    private static String bindings() {
        StringBuilder b = new StringBuilder();
        for (String p : List.of("impact-non-root", "impact-label", "impact-selector", "impact-typo")) {
            b.append("---\napiVersion: admissionregistration.k8s.io/v1\nkind: MutatingAdmissionPolicyBinding\n")
                    .append("metadata: {name: ").append(p).append("}\nspec: {policyName: ").append(p).append("}\n");
        }
        return b.toString();
    }

    private static final String OBJECTS = """
            apiVersion: v1
            kind: Pod
            metadata: {name: refused-pod, namespace: mutating-impact}
            spec: {containers: [{name: c, image: nginx}]}
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: labelled-pod, namespace: mutating-impact}
            spec: {containers: [{name: c, image: nginx}]}
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: selector-deploy, namespace: mutating-impact}
            spec:
              selector: {matchLabels: {app: s}}
              template: {metadata: {labels: {app: s}}, spec: {containers: [{name: c, image: nginx}]}}
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: typo-deploy, namespace: mutating-impact}
            spec:
              selector: {matchLabels: {app: t}}
              template: {metadata: {labels: {app: t}}, spec: {containers: [{name: c, image: nginx}]}}
            """;

    @Test
    void theServerRefusesWhatTheScanCallsRefusedAndAcceptsWhatItCallsChanged(KubeControlPlane plane) throws Exception {
        KubernetesClient admin = plane.admin();
        List<GenericKubernetesResource> policies = resources(POLICIES + bindings());
        admin.resource(resource("apiVersion: v1\nkind: Namespace\nmetadata: {name: " + NS + "}\n")).create();
        try {
            List<ObjectNode> stored = new ArrayList<>();
            for (GenericKubernetesResource o : resources(OBJECTS)) {
                stored.add(Yaml.mapper().valueToTree(admin.resource(o).create()));
            }
            List<String> configuration = new ArrayList<>();
            for (Document d : Yaml.parse("policies.yaml", POLICIES + bindings())) {
                configuration.add(Yaml.mapper().writeValueAsString(d.content()));
            }
            ImpactReport report = ImpactScan.scan(ImpactScanTest.configuration(configuration), stored, KubeVersion.NEWEST,
                    ImpactScan.Options.defaults());
            Map<String, String> offline = new LinkedHashMap<>();
            for (MutatingBindingImpact b : report.mutating()) {
                for (MutatingBindingImpact.Sample s : b.samples()) {
                    offline.put(s.object(), s.outcome() + (s.reason().isEmpty() ? "" : " " + s.reason()));
                }
            }
            assertEquals(Map.of("Pod mutating-impact/refused-pod", "refused immutable",
                    "Pod mutating-impact/labelled-pod", "changed",
                    "Deployment mutating-impact/selector-deploy", "refused immutable",
                    "Deployment mutating-impact/typo-deploy", "refused schema"), offline);

            policies.forEach(p -> admin.resource(p).create());
            Map<String, String> expected = Map.of(
                    "Pod mutating-impact/refused-pod", "422 pod updates may not change fields other than",
                    "Pod mutating-impact/labelled-pod", "200 scanned=yes",
                    "Deployment mutating-impact/selector-deploy", "422 spec.selector: Invalid value",
                    "Deployment mutating-impact/typo-deploy", "500 strict decoding error: unknown field \"spec.progressDeadlineSecond\"");
            // the policies' informers catch up asynchronously: ask again until the server agrees or a minute is gone
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            List<String> disagreements;
            do {
                disagreements = new ArrayList<>();
                for (ObjectNode o : stored) {
                    String name = ImpactScan.describe(o);
                    String got = dryRunUpdate(admin, o);
                    String[] want = expected.get(name).split(" ", 2);
                    if (!got.startsWith(want[0]) || !got.contains(want[1])) {
                        disagreements.add(name + ": expected " + expected.get(name) + ", the server answered " + got);
                    }
                }
                if (!disagreements.isEmpty()) {
                    Thread.sleep(1000);
                }
            } while (!disagreements.isEmpty() && System.nanoTime() < deadline);
            assertEquals(List.of(), disagreements);
        } finally {
            for (GenericKubernetesResource p : policies) {
                admin.resource(p).delete();
            }
            admin.namespaces().withName(NS).delete();
        }
    }

    /** {@code <code> <message>}, or {@code 200 k=v,...} with the labels the server's (mutated) answer carries. */
    private static String dryRunUpdate(KubernetesClient admin, ObjectNode stored) throws Exception {
        GenericKubernetesResource r = Yaml.mapper().treeToValue(stored, GenericKubernetesResource.class);
        try {
            GenericKubernetesResource out = admin.resource(r).dryRun().update();
            Map<String, String> labels = out.getMetadata().getLabels() == null ? Map.of() : out.getMetadata().getLabels();
            return "200 " + String.join(",", labels.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
        } catch (KubernetesClientException e) {
            return e.getCode() + " " + (e.getStatus() == null ? e.getMessage() : e.getStatus().getMessage());
        }
    }

    private static List<GenericKubernetesResource> resources(String yaml) throws Exception {
        List<GenericKubernetesResource> out = new ArrayList<>();
        for (Document d : Yaml.parse("objects.yaml", yaml)) {
            out.add(Yaml.mapper().treeToValue(d.content(), GenericKubernetesResource.class));
        }
        return out;
    }

    private static GenericKubernetesResource resource(String yaml) throws Exception {
        return resources(yaml).get(0);
    }
}

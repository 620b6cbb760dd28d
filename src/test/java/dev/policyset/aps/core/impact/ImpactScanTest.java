package dev.policyset.aps.core.impact;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.render.RenderedObject;
import dev.policyset.aps.core.yaml.Yaml;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ImpactScanTest {
    private static final String REQUIRE_TEAM = """
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: require-team}
            spec:
              failurePolicy: Fail
              matchConstraints:
                resourceRules:
                - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
              validations:
              - expression: "has(object.metadata.labels) && 'team' in object.metadata.labels"
                messageExpression: "'deployment ' + object.metadata.name + ' has no team label'"
            """;

    @Test
    void countsViolatorsPerBindingWithTheirActions() {
        ImpactReport report = scan(List.of(REQUIRE_TEAM, binding("warn", "require-team", "[Warn, Audit]", ""),
                        binding("deny", "require-team", "[Deny]", "")),
                deployment("a", "web", "team: x"), deployment("a", "db", null), deployment("b", "cache", null),
                pod("a", "p"));
        assertEquals(4, report.objects());
        assertEquals(2, report.bindings().size());
        BindingImpact warn = report.bindings().get(0);
        assertEquals(3, warn.matched());
        assertEquals(2, warn.deniedUnderDeny());
        assertEquals(0, warn.denied());
        assertEquals(2, warn.warned());
        assertEquals(2, warn.audited());
        assertEquals(List.of("Deployment a/db", "Deployment b/cache"), warn.samples().stream().map(BindingImpact.Sample::object).toList());
        assertEquals("deployment db has no team label", warn.samples().get(0).message());
        assertEquals("UPDATE", warn.samples().get(0).operation());
        BindingImpact deny = report.bindings().get(1);
        assertEquals(2, deny.denied());
        assertEquals(0, deny.warned());

        List<Finding> findings = report.findings();
        assertEquals(2, findings.size());
        assertEquals(Severity.INFO, findings.get(0).severity());
        assertEquals("ValidatingAdmissionPolicyBinding/warn", findings.get(0).object());
        assertTrue(findings.get(0).message().startsWith("switching this binding to Deny would deny 2 of the 3 existing object(s) it matches (of 4 scanned)"),
                findings.get(0).message());
        assertEquals(Severity.WARNING, findings.get(1).severity());
        assertTrue(findings.get(1).message().contains("denies 2 of the 3"), findings.get(1).message());
        assertTrue(findings.get(1).message().contains("e.g. Deployment a/db (UPDATE): deployment db has no team label"));
    }

    @Test
    void aCleanClusterHasNoFinding() {
        ImpactReport report = scan(List.of(REQUIRE_TEAM, binding("deny", "require-team", "[Deny]", "")),
                deployment("a", "web", "team: x"));
        assertEquals(1, report.bindings().get(0).matched());
        assertEquals(0, report.bindings().get(0).deniedUnderDeny());
        assertTrue(report.findings().isEmpty());
    }

    @Test
    void namespaceSelectorsReadTheNamespacesAmongTheObjects() {
        String selective = binding("prod-only", "require-team", "[Deny]", """
                  matchResources:
                    namespaceSelector: {matchLabels: {env: prod}}
                """);
        ObjectNode prod = node("apiVersion: v1\nkind: Namespace\nmetadata: {name: a, labels: {env: prod}}\n");
        ImpactReport report = scan(List.of(REQUIRE_TEAM, selective), prod, deployment("a", "db", null),
                deployment("b", "cache", null));
        assertEquals(1, report.bindings().get(0).matched());
        assertEquals("Deployment a/db", report.bindings().get(0).samples().get(0).object());
    }

    @Test
    void anUpdateOfItselfPassesTransitionRulesAndACreateOnlyPolicyIsAskedACreate() {
        String immutable = """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: immutable-replicas}
                spec:
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [apps], apiVersions: [v1], operations: [UPDATE], resources: [deployments]}
                  validations:
                  - expression: "object.spec.replicas == oldObject.spec.replicas"
                """;
        String createOnly = """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: small}
                spec:
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
                  validations:
                  - expression: "object.spec.replicas <= 3"
                    message: at most 3 replicas
                """;
        ImpactReport report = scan(List.of(immutable, binding("i", "immutable-replicas", "[Deny]", ""), createOnly,
                binding("s", "small", "[Deny]", "")), deployment("a", "big", null));
        assertEquals(1, report.bindings().get(0).matched());
        assertEquals(0, report.bindings().get(0).deniedUnderDeny());
        BindingImpact small = report.bindings().get(1);
        assertEquals(1, small.denied());
        assertEquals("CREATE", small.samples().get(0).operation());
        assertEquals("at most 3 replicas", small.samples().get(0).message());
    }

    @Test
    void evaluationErrorsDenyUnderFailAndAreAdmittedUnderIgnore() {
        String unguarded = """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: %s}
                spec:
                  failurePolicy: %s
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
                  validations:
                  - expression: "object.metadata.labels.team != ''"
                """;
        ImpactReport report = scan(List.of(unguarded.formatted("closed", "Fail"), binding("c", "closed", "[Warn]", ""),
                unguarded.formatted("open", "Ignore"), binding("o", "open", "[Deny]", "")), deployment("a", "db", null));
        BindingImpact closed = report.bindings().get(0);
        assertEquals(1, closed.errors());
        assertEquals(1, closed.deniedUnderDeny());
        assertEquals(1, closed.warned());
        assertEquals("error", closed.samples().get(0).outcome());
        assertTrue(closed.samples().get(0).message().contains("no such key"), closed.samples().get(0).message());
        BindingImpact open = report.bindings().get(1);
        assertEquals(1, open.errors());
        assertEquals(0, open.deniedUnderDeny());
        assertEquals(0, open.denied());
        List<Finding> findings = report.findings();
        assertEquals(Severity.INFO, findings.get(1).severity());
        assertTrue(findings.get(1).message().contains("failurePolicy Ignore admits them"), findings.get(1).message());
    }

    @Test
    void matchConditionsAndParamsComeFromTheSameEvaluator() {
        String withParams = """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: max-replicas}
                spec:
                  paramKind: {apiVersion: v1, kind: ConfigMap}
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
                  matchConditions:
                  - name: not-web
                    expression: "object.metadata.name != 'web'"
                  validations:
                  - expression: "object.spec.replicas <= int(params.data.max)"
                    messageExpression: "'replicas over ' + params.data.max"
                """;
        String bound = binding("limit", "max-replicas", "[Deny]", """
                  paramRef: {name: limits, namespace: config, parameterNotFoundAction: Deny}
                """);
        ObjectNode limits = node("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: limits, namespace: config}\ndata: {max: '2'}\n");
        ImpactReport report = scan(List.of(withParams, bound), limits, deployment("a", "web", null), deployment("a", "big", null));
        BindingImpact b = report.bindings().get(0);
        assertEquals(1, b.matched());
        assertEquals(1, b.denied());
        assertEquals("replicas over 2", b.samples().get(0).message());

        ImpactReport missing = scan(List.of(withParams, bound), deployment("a", "big", null));
        assertEquals("denied", missing.bindings().get(0).samples().get(0).outcome());
        assertTrue(missing.bindings().get(0).samples().get(0).message().contains("no params found"));
    }

    /** Params are looked up by kind, namespace and name among many (a cluster's ConfigMaps), each object in its own. */
    @Test
    void eachObjectGetsTheParamOfItsOwnNamespaceAmongMany() {
        String policy = """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: max-replicas}
                spec:
                  paramKind: {apiVersion: v1, kind: ConfigMap}
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
                  validations:
                  - expression: "object.spec.replicas <= int(params.data.max)"
                    messageExpression: "'replicas over ' + params.data.max + ' in ' + params.metadata.namespace"
                """;
        // no paramRef namespace: a namespaced paramKind is read from the request's namespace
        String bound = binding("limit", "max-replicas", "[Deny]", """
                  paramRef: {name: limits, parameterNotFoundAction: Deny}
                """);
        List<ObjectNode> objects = new ArrayList<>();
        for (int n = 0; n < 40; n++) {
            objects.add(node("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other-" + n + ", namespace: ns" + n
                    + "}\ndata: {max: '0'}\n"));
            if (n % 2 == 0) {
                // 5 replicas: within the limit in even namespaces but the last
                objects.add(node("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: limits, namespace: ns" + n
                        + "}\ndata: {max: '" + (n == 38 ? 4 : 9) + "'}\n"));
            }
            objects.add(deployment("ns" + n, "d" + n, null));
        }
        ImpactReport report = ImpactScan.scan(configuration(List.of(policy, bound)), objects, KubeVersion.NEWEST,
                new ImpactScan.Options(Integer.MAX_VALUE, 50, null));
        BindingImpact b = report.bindings().get(0);
        assertEquals(40, b.matched());
        // 20 odd namespaces have no 'limits' (Deny), and ns38's allows 4
        assertEquals(21, b.denied());
        assertTrue(b.samples().stream().anyMatch(x -> x.message().equals("replicas over 4 in ns38")), b.samples().toString());
        assertTrue(b.samples().stream().anyMatch(x -> x.message().contains("no params found")), b.samples().toString());
        assertTrue(b.samples().stream().noneMatch(x -> x.message().contains("replicas over 0")),
                "another ConfigMap of the namespace is not the param: " + b.samples());
    }

    @Test
    void theObjectLimitIsReportedAndSamplesAreBounded() {
        List<ObjectNode> many = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            many.add(deployment("a", "d" + i, null));
        }
        List<RenderedObject> config = configuration(List.of(REQUIRE_TEAM, binding("w", "require-team", "[Warn]", "")));
        ImpactReport report = ImpactScan.scan(config, many, KubeVersion.NEWEST, new ImpactScan.Options(25, 3, null));
        assertEquals(25, report.objects());
        assertEquals(5, report.omitted());
        assertEquals(25, report.bindings().get(0).deniedUnderDeny());
        assertEquals(3, report.bindings().get(0).samples().size());
        assertTrue(report.findings().get(0).message().contains("5 not scanned: object limit"));
    }

    @Test
    void listsAreFlattenedAndTypedListItemsGetTheirKind() {
        JsonNode list = node("""
                apiVersion: v1
                kind: List
                items:
                - {apiVersion: apps/v1, kind: Deployment, metadata: {name: x, namespace: a}}
                """);
        JsonNode typed = node("""
                apiVersion: apps/v1
                kind: DeploymentList
                items:
                - {metadata: {name: y, namespace: a}}
                - {metadata: {namespace: a}}
                """);
        ExistingObjects.Read read = ExistingObjects.read(List.of(list, typed), List.of("one.yaml", "two.yaml"));
        assertEquals(List.of("Deployment a/x", "Deployment a/y"), read.objects().stream().map(ImpactScan::describe).toList());
        assertEquals(1, read.problems().size());
        assertTrue(read.problems().get(0).startsWith("two.yaml items[1]: not an existing object (no metadata.name)"));
    }

    // ------------------------------------------------------------------------------------------------ helpers

    static ImpactReport scan(List<String> configuration, ObjectNode... objects) {
        return ImpactScan.scan(configuration(configuration), List.of(objects), KubeVersion.NEWEST, ImpactScan.Options.defaults());
    }

    static List<RenderedObject> configuration(List<String> yaml) {
        List<RenderedObject> out = new ArrayList<>();
        for (String y : yaml) {
            ObjectNode n = node(y);
            AdmissionKind kind = AdmissionKind.fromKind(n.path("kind").asText()).orElseThrow();
            out.add(new RenderedObject(kind, n.path("apiVersion").asText(), n.path("metadata").path("name").asText(), n, ""));
        }
        return out;
    }

    static String binding(String name, String policy, String actions, String extra) {
        return """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: %s}
                spec:
                  policyName: %s
                  validationActions: %s
                %s""".formatted(name, policy, actions, extra);
    }

    static ObjectNode deployment(String ns, String name, String labels) {
        return node("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: " + name + ", namespace: " + ns
                + (labels == null ? "" : ", labels: {" + labels + "}") + "}\nspec: {replicas: 5}\n");
    }

    static ObjectNode pod(String ns, String name) {
        return node("apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", namespace: " + ns + "}\n");
    }

    static ObjectNode node(String yaml) {
        try {
            return (ObjectNode) Yaml.parse("test.yaml", yaml).get(0).content();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}

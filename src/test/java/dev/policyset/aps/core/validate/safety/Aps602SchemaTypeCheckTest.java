package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.model.SafetySettings;
import dev.policyset.aps.core.schema.BuiltinSchemas;
import dev.policyset.aps.core.schema.CrdSchemas;
import dev.policyset.aps.core.schema.SchemaSource;
import dev.policyset.aps.core.validate.ValidationOptions;
import dev.policyset.aps.core.validate.ValidationSubject;
import dev.policyset.aps.core.yaml.Yaml;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Aps602SchemaTypeCheckTest {
    static final String WIDGET_CRD = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata: {name: widgets.example.com}
            spec:
              group: example.com
              scope: Namespaced
              names: {kind: Widget, plural: widgets}
              versions:
              - name: v1
                served: true
                storage: true
                schema:
                  openAPIV3Schema:
                    type: object
                    properties:
                      spec:
                        type: object
                        required: [size]
                        properties:
                          size: {type: integer}
                          tier: {type: string}
              - name: v1beta1
                served: true
                storage: false
                schema:
                  openAPIV3Schema:
                    type: object
                    properties:
                      spec: {type: object, properties: {sizeInGb: {type: integer}}}
            """;

    static String vap(String rules, String expression, String extra) {
        return """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata:
                  name: p
                spec:
                  matchConstraints:
                    resourceRules:
                %s
                %s
                  validations:
                  - expression: %s
                """.formatted(rules.indent(4).stripTrailing(), extra.indent(2).stripTrailing(),
                "'" + expression.replace("'", "''") + "'");
    }

    static final String DEPLOYMENTS = """
            - apiGroups: [apps]
              apiVersions: [v1]
              operations: [CREATE, UPDATE]
              resources: [deployments]""";

    static List<Finding> run(String yaml, SchemaSource schemas) {
        return run(yaml, schemas, SafetySettings.DEFAULT);
    }

    static List<Finding> run(String yaml, SchemaSource schemas, SafetySettings safety) {
        List<ValidationSubject> subjects = SafetyFixtures.subjects(yaml).stream()
                .map(s -> SafetyFixtures.inSet(s, "set", safety)).toList();
        return new Aps602SchemaTypeCheck().check(new SafetyContext(subjects,
                new ValidationOptions(KubeVersion.NEWEST, Set.of()).withSchemas(schemas)));
    }

    static SchemaSource crds(String yaml) {
        try {
            return SchemaSource.first(CrdSchemas.of(Yaml.parse("crd.yaml", yaml).stream().map(d -> d.content()).toList()),
                    BuiltinSchemas.instance());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void typoInABuiltInKindIsReportedInTheApiServersWords() {
        List<Finding> f = run(vap(DEPLOYMENTS, "object.spec.replica > 1", ""), BuiltinSchemas.instance());
        assertEquals(1, f.size(), f.toString());
        assertEquals(Severity.WARNING, f.get(0).severity());
        assertEquals("spec.validations[0].expression", f.get(0).field());
        assertEquals("ValidatingAdmissionPolicy/p", f.get(0).object());
        String m = f.get(0).message();
        assertTrue(m.startsWith("apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replica'"), m);
        assertTrue(m.contains("no field 'replica'"), m);
    }

    @Test
    void correctFieldsAreSilent() {
        assertEquals(List.of(), run(vap(DEPLOYMENTS, "object.spec.replicas > 1 && object.metadata.labels['team'] != ''"
                + " && object.spec.template.spec.containers.all(c, c.image.startsWith('r/'))", ""), BuiltinSchemas.instance()));
    }

    @Test
    void wrongTypeIsReported() {
        List<Finding> f = run(vap(DEPLOYMENTS, "object.spec.replicas == 'three'", ""), BuiltinSchemas.instance());
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).message().contains("found no matching overload for '_==_' applied to '(int, string)'"),
                f.get(0).message());
    }

    @Test
    void oneFindingPerMatchedKind() {
        String rules = """
                - apiGroups: [apps]
                  apiVersions: [v1]
                  operations: [CREATE]
                  resources: [deployments, replicasets]""";
        List<Finding> f = run(vap(rules, "object.replicas > 1", ""), BuiltinSchemas.instance());
        assertEquals(2, f.size(), f.toString());
        assertTrue(f.get(0).message().startsWith("apps/v1, Kind=Deployment: "), f.get(0).message());
        assertTrue(f.get(1).message().startsWith("apps/v1, Kind=ReplicaSet: "), f.get(1).message());
    }

    @Test
    void crdFromFilesEveryServedVersion() {
        String rules = """
                - apiGroups: [example.com]
                  apiVersions: [v1, v1beta1]
                  operations: [CREATE]
                  resources: [widgets]""";
        List<Finding> f = run(vap(rules, "object.spec.size < 10", ""), crds(WIDGET_CRD));
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).message().startsWith("example.com/v1beta1, Kind=Widget: ERROR: <input>:1:12: undefined field 'size'"),
                f.get(0).message());
        // without the CRD the kind is unknown: not checked, not reported
        assertEquals(List.of(), run(vap(rules, "object.spec.size < 10", ""), BuiltinSchemas.instance()));
    }

    @Test
    void paramsAreTypedWithTheParamKind() {
        String params = "paramKind: {apiVersion: v1, kind: ConfigMap}";
        assertEquals(List.of(), run(vap(DEPLOYMENTS, "object.spec.replicas <= int(params.data['max'])", params),
                BuiltinSchemas.instance()));
        List<Finding> f = run(vap(DEPLOYMENTS, "object.spec.replicas <= params.spec.max", params), BuiltinSchemas.instance());
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).message().contains("undefined field 'spec'"), f.get(0).message());
        assertTrue(f.get(0).message().contains("params are typed as ConfigMap"), f.get(0).message());
    }

    @Test
    void paramsOfACustomKind() {
        String params = "paramKind: {apiVersion: example.com/v1, kind: Widget}";
        assertEquals(List.of(), run(vap(DEPLOYMENTS, "object.spec.replicas <= params.spec.size", params), crds(WIDGET_CRD)));
        assertEquals(1, run(vap(DEPLOYMENTS, "object.spec.replicas <= params.spec.sise", params), crds(WIDGET_CRD)).size());
    }

    @Test
    void wildcardsExpandToKnownKindsAndReportWhatNoKindHas() {
        String all = """
                - apiGroups: ["*"]
                  apiVersions: ["*"]
                  operations: [CREATE]
                  resources: ["*"]""";
        assertEquals(List.of(), run(vap(all, "has(object.metadata.labels) && object.metadata.labels.size() > 0", ""),
                BuiltinSchemas.instance()));
        // a field some matched kinds have: a guarded generic policy, not a typo
        assertEquals(List.of(), run(vap(all, "!has(object.spec) || has(object.spec.replicas)", ""), BuiltinSchemas.instance()));
        List<Finding> f = run(vap(all, "object.metadata.lables.size() > 0", ""), crds(WIDGET_CRD));
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).message().contains("undefined field 'lables'"), f.get(0).message());
        assertTrue(f.get(0).message().contains("more kinds the wildcard matches"), f.get(0).message());
        String appsAnyVersion = """
                - apiGroups: [example.com]
                  apiVersions: ["*"]
                  operations: [CREATE]
                  resources: ["widgets"]""";
        // v1 has size, v1beta1 does not: not every matched kind fails
        assertEquals(List.of(), run(vap(appsAnyVersion, "object.spec.size < 10", ""), crds(WIDGET_CRD)));
    }

    @Test
    void variablesAndMatchConditionsAreTypedToo() {
        String extra = """
                variables:
                - name: replicas
                  expression: object.spec.replicas
                matchConditions:
                - name: labelled
                  expression: has(object.metadata.labes)""";
        List<Finding> f = run(vap(DEPLOYMENTS, "variables.replicas == 'x'", extra), BuiltinSchemas.instance());
        assertEquals(2, f.size(), f.toString());
        assertEquals("spec.matchConditions[0].expression", f.get(0).field());
        assertTrue(f.get(0).message().contains("undefined field 'labes'"), f.get(0).message());
        assertEquals("spec.validations[0].expression", f.get(1).field());
        assertTrue(f.get(1).message().contains("'(int, string)'"), f.get(1).message());
    }

    @Test
    void untypedCompileErrorsAreLeftToTheApiServerRules() {
        assertEquals(List.of(), run(vap(DEPLOYMENTS, "object.spec.replica >", ""), BuiltinSchemas.instance()));
    }

    @Test
    void aSetCanAskForErrors() {
        SafetySettings strict = new SafetySettings(SafetySettings.Enforcement.BLOCK, List.of(), SafetySettings.TypeChecking.ERROR);
        List<Finding> f = run(vap(DEPLOYMENTS, "object.spec.replica > 1", ""), BuiltinSchemas.instance(), strict);
        assertEquals(Severity.ERROR, f.get(0).severity());
    }

    @Test
    void mutatingPolicyExpressionsAreChecked() {
        String map = """
                apiVersion: admissionregistration.k8s.io/v1beta1
                kind: MutatingAdmissionPolicy
                metadata: {name: m}
                spec:
                  reinvocationPolicy: Never
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
                  mutations:
                  - patchType: ApplyConfiguration
                    applyConfiguration:
                      expression: 'Object{spec: Object.spec{replicas: object.spec.replics}}'
                """;
        List<Finding> f = run(map, BuiltinSchemas.instance());
        assertEquals(1, f.size(), f.toString());
        assertEquals("spec.mutations[0].applyConfiguration.expression", f.get(0).field());
        assertTrue(f.get(0).message().contains("undefined field 'replics'"), f.get(0).message());
    }

    static final String WORKLOADS = """
            - apiGroups: [""]
              apiVersions: [v1]
              operations: [CREATE]
              resources: [pods]
            - apiGroups: [apps]
              apiVersions: [v1]
              operations: [CREATE]
              resources: [deployments]
            - apiGroups: [batch]
              apiVersions: [v1]
              operations: [CREATE]
              resources: [cronjobs]""";

    @Test
    void branchesAKindNeverTakesAreNotReportedForIt() {
        // kubescape's and Kyverno's dispatch on the kind: each branch is only reached by the kind it names
        assertEquals(List.of(), run(vap(WORKLOADS, "object.kind != 'CronJob' || object.spec.jobTemplate.spec.template.spec"
                + ".containers.all(c, c.image != '')", ""), BuiltinSchemas.instance()));
        assertEquals(List.of(), run(vap(WORKLOADS, "['Deployment'].all(k, object.kind != k) || "
                + "object.spec.template.spec.containers.size() > 0", ""), BuiltinSchemas.instance()));
        assertEquals(List.of(), run(vap(WORKLOADS, "(object.kind == 'Pod' ? object.spec.containers : object.kind == 'CronJob'"
                + " ? object.spec.jobTemplate.spec.template.spec.containers : object.spec.template.spec.containers)"
                + ".all(c, c.name != '')", ""), BuiltinSchemas.instance()));
        assertEquals(List.of(), run(vap(WORKLOADS, "(has(object.spec.containers) ? object.spec.containers : "
                + "has(object.spec.jobTemplate) ? object.spec.jobTemplate.spec.template.spec.containers : "
                + "object.spec.template.spec.containers).all(c, c.name != '')", ""), BuiltinSchemas.instance()));
        // a branch the kind does take is reported: CronJob has no spec.template
        List<Finding> f = run(vap(WORKLOADS, "(has(object.spec.containers) ? object.spec.containers : "
                + "object.spec.template.spec.containers).all(c, c.name != '')", ""), BuiltinSchemas.instance());
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).message().startsWith("batch/v1, Kind=CronJob: ERROR: "), f.get(0).message());
        assertTrue(f.get(0).message().contains("undefined field 'template'"), f.get(0).message());
    }

    @Test
    void aHasTypoInASingleKindPolicyIsReported() {
        List<Finding> f = run(vap(DEPLOYMENTS, "!has(object.spec.replica) || object.spec.replicas < 5", ""),
                BuiltinSchemas.instance());
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).message().contains("undefined field 'replica'"), f.get(0).message());
    }

    @Test
    void nominalObjectTypesOverStructuralDataAreNotReported() {
        String pods = """
                - apiGroups: [""]
                  apiVersions: [v1]
                  operations: [CREATE]
                  resources: [pods]""";
        for (String e : List.of(
                "(object.spec.containers + object.spec.?ephemeralContainers.orValue([])).all(c, c.name != '')",
                "(object.spec.containers + object.spec.?initContainers.orValue([])).all(c, c.name != '')",
                "(has(object.spec.securityContext) ? object.spec.securityContext : {}) != null",
                "'app' in object.metadata",
                "object.metadata.namespace != 'kube-system'")) {
            assertEquals(List.of(), run(vap(pods, e, ""), BuiltinSchemas.instance()), e);
        }
        // an object against a scalar is still wrong
        assertEquals(1, run(vap(pods, "object.spec.securityContext == 'x'", ""), BuiltinSchemas.instance()).size());
    }
}

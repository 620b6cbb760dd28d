package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.model.SafetySettings;
import dev.policyset.aps.core.schema.BuiltinSchemas;
import dev.policyset.aps.core.schema.SchemaSource;
import dev.policyset.aps.core.validate.ValidationOptions;
import dev.policyset.aps.core.validate.ValidationSubject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * APS604 (a mutation writes a field the kind does not declare) and APS605 (an Object initializer named for
 * another path), both ways: the mistakes the API server fails requests for (measured in
 * MutationSemanticsRealServerTest) are found, the same mutations written correctly are silent.
 */
class Aps604And605MutationLiteralsTest {
    static String map(String patchType, String expression) {
        String field = patchType.equals("ApplyConfiguration") ? "applyConfiguration" : "jsonPatch";
        return """
                apiVersion: admissionregistration.k8s.io/v1
                kind: MutatingAdmissionPolicy
                metadata: {name: m}
                spec:
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
                  reinvocationPolicy: Never
                  mutations:
                  - patchType: %s
                    %s:
                      expression: "%s"
                """.formatted(patchType, field, expression);
    }

    static List<Finding> run(String yaml, SchemaSource schemas) {
        List<ValidationSubject> subjects = SafetyFixtures.subjects(yaml).stream()
                .map(s -> SafetyFixtures.inSet(s, "set", SafetySettings.DEFAULT)).toList();
        SafetyContext context = new SafetyContext(subjects,
                new ValidationOptions(KubeVersion.NEWEST, Set.of()).withSchemas(schemas));
        List<Finding> out = new ArrayList<>(new Aps604MutationUndeclaredField().check(context));
        out.addAll(new Aps605ObjectInitializerName().check(context));
        return out;
    }

    @Test
    void anApplyConfigurationWithATypoIsAWarningNamingTheField() {
        List<Finding> f = run(map("ApplyConfiguration", "Object{spec: Object.spec{replicaz: 3}}"), BuiltinSchemas.instance());
        assertEquals(1, f.size(), f.toString());
        assertEquals("APS604", f.get(0).rule());
        assertEquals(Severity.WARNING, f.get(0).severity());
        assertEquals("spec.mutations[0].applyConfiguration.expression", f.get(0).field());
        assertTrue(f.get(0).message().startsWith("the apply configuration sets spec.replicaz, which the schema of "
                + "Deployment (apps/v1, Kind=Deployment) does not declare (did you mean 'replicas'?)"), f.get(0).message());
        assertTrue(f.get(0).message().contains(".spec.replicaz: field not declared in schema"), f.get(0).message());
    }

    @Test
    void declaredFieldsThroughListsAndMapsAreSilent() {
        assertEquals(List.of(), run(map("ApplyConfiguration", "Object{metadata: Object.metadata{labels: {'a': 'b'}}, "
                + "spec: Object.spec{replicas: 3, template: Object.spec.template{spec: Object.spec.template.spec{"
                + "containers: [Object.spec.template.spec.containers{name: 'app', image: 'app:2'}]}}}}"), BuiltinSchemas.instance()));
    }

    @Test
    void aJsonPatchPathOrValueWithAnUndeclaredFieldIsFound() {
        List<Finding> path = run(map("JSONPatch", "[JSONPatch{op: 'add', path: '/spec/replicaz', value: 3}]"), BuiltinSchemas.instance());
        assertEquals(1, path.size(), path.toString());
        assertTrue(path.get(0).message().startsWith("the patch writes spec.replicaz"), path.get(0).message());
        assertTrue(path.get(0).message().contains("strict decoding error: unknown field \"spec.replicaz\""), path.get(0).message());

        List<Finding> value = run(map("JSONPatch", "[JSONPatch{op: 'replace', path: '/spec/template', "
                + "value: Object.spec.template{spec: Object.spec.template.spec{hostnetwork: true}}}]"), BuiltinSchemas.instance());
        assertEquals(1, value.size(), value.toString());
        assertTrue(value.get(0).message().startsWith("the patch writes spec.template.spec.hostnetwork"), value.get(0).message());
        assertTrue(value.get(0).message().contains("did you mean 'hostNetwork'?"), value.get(0).message());
    }

    @Test
    void jsonPatchesOfDeclaredFieldsMapKeysAndRemovalsAreSilent() {
        assertEquals(List.of(), run(map("JSONPatch", "[JSONPatch{op: 'add', path: '/spec/paused', value: true}, "
                + "JSONPatch{op: 'add', path: '/metadata/labels/any~1key', value: 'x'}, "
                + "JSONPatch{op: 'add', path: '/spec/template/spec/containers/0/resources/limits', value: {'cpu': '1'}}, "
                + "JSONPatch{op: 'remove', path: '/spec/whatever'}]"), BuiltinSchemas.instance()));
    }

    @Test
    void anInitializerNamedForAnotherPathIsAnError() {
        List<Finding> f = run(map("ApplyConfiguration", "Object{spec: Object.specx{replicas: 3}}"), SchemaSource.NONE);
        assertEquals(1, f.size(), f.toString());
        assertEquals("APS605", f.get(0).rule());
        assertEquals(Severity.ERROR, f.get(0).severity());
        assertTrue(f.get(0).message().contains("type mismatch: unexpected type name \"Object.specx\", expected \"Object.spec\""),
                f.get(0).message());

        List<Finding> inList = run(map("ApplyConfiguration", "Object{spec: Object.spec{template: Object.spec.template{spec: "
                + "Object.spec.template.spec{containers: [Object.spec.template.spec.container{name: 'a'}]}}}}"), SchemaSource.NONE);
        assertEquals(1, inList.size(), inList.toString());
        assertTrue(inList.get(0).message().startsWith("the initializer Object.spec.template.spec.container{...} sits where "
                + "Object.spec.template.spec.containers is expected"), inList.get(0).message());

        List<Finding> patchValue = run(map("JSONPatch", "[JSONPatch{op: 'replace', path: '/spec/template', "
                + "value: Object.spec.template{metadata: Object.spec.template.meta{}}}]"), SchemaSource.NONE);
        assertEquals(1, patchValue.size(), patchValue.toString());
    }

    @Test
    void aJsonPatchValueIsNamedFromItsOwnTypeAndBothBranchesOfAConditionalAreRead() {
        assertEquals(List.of(), run(map("JSONPatch", "[JSONPatch{op: 'replace', path: '/spec/template/metadata', "
                + "value: Object.spec.template.metadata{labels: {'a': 'b'}}}]"), SchemaSource.NONE));
        List<Finding> f = run(map("ApplyConfiguration", "object.spec.replicas > 1 ? Object{spec: Object.spec{paused: true}} "
                + ": Object{spec: Object.sepc{paused: false}}"), SchemaSource.NONE);
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).message().contains("\"Object.sepc\""), f.get(0).message());
    }
}

package dev.policyset.aps.core.validate.safety;

import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.finding.Severity;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.schema.BuiltinSchemas;
import dev.policyset.aps.core.schema.SchemaSource;
import dev.policyset.aps.core.validate.ValidationOptions;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Unguarded / guarded pairs for each kind of access APS603 knows. */
class Aps603UnguardedAccessTest {
    private static final String PODS = """
            - apiGroups: [""]
              apiVersions: [v1]
              operations: [CREATE, UPDATE]
              resources: [pods]""";

    private static List<Finding> run(String rules, String expression, String extra) {
        return run(Aps602SchemaTypeCheckTest.vap(rules, expression, extra), BuiltinSchemas.instance());
    }

    private static List<Finding> run(String yaml, SchemaSource schemas) {
        return new Aps603UnguardedAccess().check(new SafetyContext(SafetyFixtures.subjects(yaml),
                new ValidationOptions(KubeVersion.NEWEST, Set.of()).withSchemas(schemas)));
    }

    private static void unguarded(String expression, String path) {
        unguarded(PODS, expression, "", path);
    }

    private static void unguarded(String rules, String expression, String extra, String path) {
        List<Finding> f = run(rules, expression, extra);
        assertEquals(1, f.size(), expression + ": " + f);
        assertEquals(Severity.WARNING, f.get(0).severity());
        assertTrue(f.get(0).message().contains("`" + path + "`"), f.get(0).message());
    }

    private static void guarded(String expression) {
        guarded(PODS, expression, "");
    }

    private static void guarded(String rules, String expression, String extra) {
        assertEquals(List.of(), run(rules, expression, extra), expression);
    }

    @Test
    void mapKeyByIndex() {
        unguarded("object.metadata.labels['team'] == 'a'", "object.metadata.labels.team");
        // `in` reads the labels map, which is absent on an object without labels
        unguarded("'team' in object.metadata.labels && object.metadata.labels['team'] == 'a'", "object.metadata.labels");
        guarded("has(object.metadata.labels) && 'team' in object.metadata.labels && object.metadata.labels['team'] == 'a'");
        guarded("object.metadata.?labels[?'team'].orValue('') == 'a'");
    }

    @Test
    void mapKeyBySelection() {
        List<Finding> f = run(PODS, "object.metadata.labels.team == 'a'", "");
        assertEquals(1, f.size(), f.toString());
        String m = f.get(0).message();
        assertTrue(m.contains("`object.metadata.labels.team` (`labels` is an optional map, left out when empty; "
                + "the key 'team' may be missing from `object.metadata.labels`)"), m);
        assertTrue(m.contains("with failurePolicy Fail (the default), the request is denied"), m);
        assertTrue(m.contains("`object.metadata.?labels[?'team'].orValue('')`"), m);
        guarded("has(object.metadata.labels) && has(object.metadata.labels.team) && object.metadata.labels.team == 'a'");
        // has() of the key alone still reads the labels map, which may be absent
        unguarded("has(object.metadata.labels.team) && object.metadata.labels.team == 'a'", "object.metadata.labels");
    }

    @Test
    void optionalField() {
        unguarded("object.spec.hostNetwork == false", "object.spec.hostNetwork");
        guarded("!has(object.spec.hostNetwork) || object.spec.hostNetwork == false");
        guarded("object.spec.hostNetwork == false || !has(object.spec.hostNetwork)");
        guarded("object.spec.?hostNetwork.orValue(false) == false");
        guarded("has(object.spec.hostNetwork) ? object.spec.hostNetwork == false : true");
    }

    @Test
    void fieldsTheApiServerAlwaysSetsAreNotFlagged() {
        guarded("object.spec.containers.all(c, c.image.startsWith('registry.example.com/') && c.name != '')"
                + " && object.metadata.name != '' && object.spec.restartPolicy != 'Never'");
    }

    @Test
    void optionalFieldInsideAComprehension() {
        unguarded("object.spec.containers.all(c, c.securityContext.privileged == false)", "c.securityContext.privileged");
        guarded("object.spec.containers.all(c, !has(c.securityContext) || !has(c.securityContext.privileged)"
                + " || c.securityContext.privileged == false)");
    }

    @Test
    void requestFields() {
        unguarded("request.userInfo.uid != ''", "request.userInfo.uid");
        guarded("has(request.userInfo.uid) && request.userInfo.uid != ''");
        unguarded("request.userInfo.extra['team'][0] == 'a'", "request.userInfo.extra.team");
        guarded("request.userInfo.username != 'admin'");
        guarded("request.namespace != 'kube-system'");
        String namespaces = """
                - apiGroups: [""]
                  apiVersions: [v1]
                  operations: [CREATE]
                  resources: [namespaces]""";
        unguarded(namespaces, "request.namespace != 'kube-system'", "", "request.namespace");
        guarded(namespaces, "request.?namespace.orValue('') != 'kube-system'", "");
    }

    @Test
    void guardsInMatchConditionsAndVariables() {
        String condition = """
                matchConditions:
                - name: labelled
                  expression: has(object.metadata.labels) && 'team' in object.metadata.labels""";
        guarded(PODS, "object.metadata.labels.team == 'a'", condition);
        String variable = """
                variables:
                - name: hasTeam
                  expression: has(object.metadata.labels) && 'team' in object.metadata.labels""";
        guarded(PODS, "variables.hasTeam && object.metadata.labels.team == 'a'", variable);
        unguarded(PODS, "object.metadata.labels.team == 'a'", variable, "object.metadata.labels.team");
    }

    @Test
    void variablesAreLintedToo() {
        String variable = """
                variables:
                - name: team
                  expression: object.metadata.labels.team""";
        List<Finding> f = run(PODS, "variables.team == 'a'", variable);
        assertEquals(1, f.size(), f.toString());
        assertEquals("spec.variables[0].expression", f.get(0).field());
    }

    @Test
    void failOpenPoliciesGetANote() {
        List<Finding> f = run(PODS, "object.spec.hostNetwork == false", "failurePolicy: Ignore");
        assertEquals(1, f.size(), f.toString());
        assertEquals(Severity.INFO, f.get(0).severity());
        assertTrue(f.get(0).message().contains("failurePolicy Ignore, the policy is skipped"), f.get(0).message());
    }

    @Test
    void crdRequiredAndDefaultedFieldsAreAlwaysThere() {
        String crd = """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                spec:
                  group: example.com
                  names: {kind: Gadget, plural: gadgets}
                  versions:
                  - name: v1
                    served: true
                    schema:
                      openAPIV3Schema:
                        type: object
                        required: [spec]
                        properties:
                          spec:
                            type: object
                            required: [size]
                            properties:
                              size: {type: integer}
                              mode: {type: string, default: fast}
                              owner: {type: string}
                """;
        String rules = """
                - apiGroups: [example.com]
                  apiVersions: [v1]
                  operations: [CREATE]
                  resources: [gadgets]""";
        SchemaSource schemas = Aps602SchemaTypeCheckTest.crds(crd);
        assertEquals(List.of(), run(Aps602SchemaTypeCheckTest.vap(rules, "object.spec.size < 10 && object.spec.mode != 'slow'", ""),
                schemas));
        List<Finding> f = run(Aps602SchemaTypeCheckTest.vap(rules, "object.spec.owner != ''", ""), schemas);
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).message().contains("`owner` is optional in the schema"), f.get(0).message());
    }

    @Test
    void messageExpressionsAreNotLinted() {
        String yaml = Aps602SchemaTypeCheckTest.vap(PODS, "true", "").replace("  - expression: 'true'",
                "  - expression: 'true'\n    messageExpression: 'object.metadata.labels.team'");
        assertEquals(List.of(), run(yaml, BuiltinSchemas.instance()));
    }

    @Test
    void keysWithDotsAndSlashesAreWrittenAsIndexes() {
        List<Finding> f = run(PODS, "object.metadata.annotations['example.com/owner'] == 'a'", "");
        assertEquals(1, f.size(), f.toString());
        String m = f.get(0).message();
        assertTrue(m.contains("`object.metadata.annotations['example.com/owner']` (`annotations` is an optional map"), m);
        assertTrue(m.contains("`object.metadata.?annotations[?'example.com/owner'].orValue('')`"), m);
        assertTrue(m.contains("`has(object.metadata.annotations) && 'example.com/owner' in object.metadata.annotations && ...`"), m);
        guarded("has(object.metadata.annotations) && 'example.com/owner' in object.metadata.annotations"
                + " && object.metadata.annotations['example.com/owner'] == 'a'");
        // a quote in a key is escaped, so the advice stays one string literal
        List<Finding> q = run(PODS, "object.metadata.labels[\"it's\"] == 'a'", "");
        assertTrue(q.get(0).message().contains("`object.metadata.?labels[?'it\\'s'].orValue('')`"), q.get(0).message());
    }

    @Test
    void existsOverTheKeysGuardsThatKey() {
        // gateway-api's safe-upgrades policy writes its guard this way
        guarded("has(object.metadata.annotations) && object.metadata.annotations.exists(k, k == 'example.com/owner')"
                + " && object.metadata.annotations['example.com/owner'] == 'a'");
        guarded("has(object.metadata.labels) && object.metadata.labels.exists(k, 'team' == k) && object.metadata.labels.team == 'a'");
        // another key, or a predicate that is not equality with the key, is no guard
        unguarded("has(object.metadata.labels) && object.metadata.labels.exists(k, k == 'app') && object.metadata.labels.team == 'a'",
                "object.metadata.labels.team");
        unguarded("has(object.metadata.labels) && object.metadata.labels.exists(k, k.startsWith('team'))"
                + " && object.metadata.labels.team == 'a'", "object.metadata.labels.team");
    }

    @Test
    void aNonEmptyMapStillMayLackTheKey() {
        // size(m) > 0 says m has some key, not this one; it reads m itself, so it guards m no better than m's own read
        unguarded("has(object.metadata.labels) && size(object.metadata.labels) > 0 && object.metadata.labels['team'] == 'a'",
                "object.metadata.labels.team");
        unguarded("size(object.metadata.labels) > 0 && object.metadata.labels['team'] == 'a'", "object.metadata.labels");
    }

    @Test
    void valuesWithoutALiteralGetOnlyThePresenceTest() {
        // a container's securityContext is an object: there is no literal default to offer
        List<Finding> f = run(PODS, "object.spec.containers.all(c, c.securityContext != null)", "");
        assertEquals(1, f.size(), f.toString());
        String m = f.get(0).message();
        assertTrue(m.contains("Guard it: test presence first, inside the loop: `has(c.securityContext) && ...`"), m);
        assertTrue(!m.contains("orValue("), m);
    }
}

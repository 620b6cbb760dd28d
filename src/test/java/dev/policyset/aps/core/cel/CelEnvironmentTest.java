package dev.policyset.aps.core.cel;

import dev.policyset.aps.core.model.KubeVersion;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link KubernetesCelEnvironment} and {@link CelEvaluator}: version gates, declarations, runtime values. */
class CelEnvironmentTest {
    private static KubernetesCelEnvironment env(int minor) {
        return KubernetesCelEnvironment.create(new KubeVersion(1, minor), KubernetesCelEnvironment.Declarations.validation());
    }

    private static boolean compiles(int minor, String expression) {
        return env(minor).compile(expression).ok();
    }

    @Test
    void versionGates() {
        // (compatibility version it appears at, expression)
        Map<Integer, List<String>> gates = Map.of(
                28, List.of("optional.of(1).hasValue()", "1 < 1.5", "object.?spec.orValue(1) == 1"),
                29, List.of("sets.contains([1], [1])", "'%s'.format(['a']) == 'a'", "strings.quote('a') == '\"a\"'"),
                32, List.of("[1].all(i, v, v > i)", "{'a': 1}.transformMap(k, v, v + 1) == {'a': 2}"),
                34, List.of("lists.range(3) == [0, 1, 2]", "[2, 1].sort() == [1, 2]"));
        gates.forEach((minor, expressions) -> expressions.forEach(e -> {
            assertTrue(compiles(minor, e), e + " should compile at 1." + minor);
            assertTrue(!compiles(minor - 1, e), e + " should not compile at 1." + (minor - 1));
        }));
    }

    @Test
    void kube137CompilesAtCompatibility136WithoutIncludes() {
        // base.go: nothing is introduced at 1.35 or 1.36; Kubernetes lists v1 (includes) at 1.37, i.e. a 1.38 server
        KubeVersion compat = new KubeVersion(1, 37).celCompatibilityVersion();
        assertEquals(new KubeVersion(1, 36), compat);
        for (String e : List.of("semver('1.2.3').major() == 1", "lists.range(2) == [0, 1]", "[1].all(i, v, v > i)",
                "ip('10.0.0.1').family() == 4", "'%s'.format(['a']) == 'a'")) {
            assertTrue(compiles(36, e), e);
        }
        assertTrue(!compiles(36, "[1, 2].includes(2)"));
        assertTrue(compiles(37, "[1, 2].includes(2)"));
    }

    @Test
    void neverAvailable() {
        for (String e : List.of("cel.bind(x, 1, x) == 1", "math.greatest(1, 2) == 2", "base64.encode(b'a') == 'YQ=='",
                "'abc'.reverse() == 'cba'")) {
            assertTrue(!compiles(37, e), e);
        }
    }

    @Test
    void literalChecksFrom129() {
        // before 1.29 the literal still fails, when the program is built (cel-go folds constant conversions)
        assertTrue(env(28).compile("duration('1d') == duration('1s')").error().startsWith("program instantiation failed: "));
        assertTrue(compiles(28, "'a'.matches('(a)\\\\1')"));
        assertTrue(env(29).compile("duration('1d') == duration('1s')").error().contains("invalid duration argument"));
        assertTrue(env(29).compile("'a'.matches('(a)\\\\1')").error().contains("invalid matches argument"));
        assertTrue(env(29).compile("timestamp('yesterday') > timestamp('2020-01-01T00:00:00Z')").error()
                .contains("invalid timestamp argument"));
    }

    @Test
    void literalConversionsFailWhenTheProgramIsBuilt() {
        assertEquals("program instantiation failed: type conversion error from 'string' to 'int'",
                env(35).compile("int('abc') == 1").error());
        assertTrue(env(35).compile("uint(-1) == 1u").error().contains("unsigned integer overflow"));
        assertEquals("program instantiation failed: type conversion error from 'string' to 'uint'",
                env(35).compile("uint('-1') == 1u").error());
        assertEquals("program instantiation failed: type conversion error from 'string' to 'bool'",
                env(35).compile("bool('maybe')").error());
        assertEquals("program instantiation failed: unsigned integer overflow", env(35).compile("uint(1e20) == 1u").error());
        assertEquals("program instantiation failed: integer overflow", env(35).compile("int(1e19) == 1").error());
    }

    @Test
    void numbersFromJsonAreNormalised() {
        CelEvaluator.Activation a = new CelEvaluator.Activation(Map.of("n", 3, "f", 1.5f, "l", List.of(1, 2)),
                null, null, null, null, null, null);
        CelEvaluator.Result r = CelEvaluator.evaluate(env(35), "object.n + 1 == 4 && object.f == 1.5 && object.l[1] == 2", a);
        assertEquals(Boolean.TRUE, r.value(), r::toString);
        CelEvaluator.Result oldObject = CelEvaluator.evaluate(env(35), "oldObject == null", a);
        assertEquals(Boolean.TRUE, oldObject.value(), oldObject::toString);
    }

    @Test
    void requestFieldsAndErrorWording() {
        CelEvaluator.Activation a = new CelEvaluator.Activation(null, null, null,
                Map.of("operation", "CREATE", "userInfo", Map.of("username", "alice")), null, null, null);
        assertEquals("alice", CelEvaluator.evaluate(env(35), "request.userInfo.username", a).value());
        assertEquals("division by zero", CelEvaluator.evaluate(env(35), "1 / 0 == 1", a).error());
        assertEquals("no such key: b", CelEvaluator.evaluate(env(35), "{'a': 1}.b == 1", a).error());
        assertEquals("no such key: b", CelEvaluator.evaluate(env(35), "{'a': 1}['b'] == 1", a).error());
        assertEquals("no such key: x", CelEvaluator.evaluate(env(35), "params.x == 1", a).error());
    }

    @Test
    void aFailingVariableFailsOnlyItsUsers() {
        KubernetesCelEnvironment withVariables = KubernetesCelEnvironment.create(new KubeVersion(1, 35),
                KubernetesCelEnvironment.Declarations.validation().withVariables(
                        Map.of("big", dev.cel.common.types.SimpleType.BOOL, "broken", dev.cel.common.types.SimpleType.DYN)));
        CelEvaluator.Activation a = new CelEvaluator.Activation(Map.of("spec", Map.of("replicas", 5)), null, null, null,
                null, null, Map.of("big", "object.spec.replicas > 3", "broken", "object.spec.missing"));
        assertEquals(Boolean.TRUE, CelEvaluator.evaluate(withVariables, "variables.big", a).value());
        String error = CelEvaluator.evaluate(withVariables, "variables.broken == 1", a).error();
        assertTrue(error != null && error.startsWith("composited variable \"broken\" fails to evaluate: "), error);
    }

    @Test
    void mutationObjectsAreMapsOfTheirFields() {
        KubernetesCelEnvironment mutation = KubernetesCelEnvironment.create(new KubeVersion(1, 35),
                KubernetesCelEnvironment.Declarations.mutationExpression());
        CelEvaluator.Result r = CelEvaluator.evaluate(mutation,
                "Object{metadata: Object.metadata{labels: {'a': 'b'}}}", CelEvaluator.Activation.empty());
        assertEquals(Map.of("metadata", Map.of("labels", Map.of("a", "b"))), r.value());
        assertNull(r.error());
        // an empty string field of a JSONPatch is unset, as upstream's JSONPatchVal has it
        assertEquals(Boolean.TRUE, CelEvaluator.evaluate(mutation,
                "JSONPatch{op: ''} == JSONPatch{} && !has(JSONPatch{path: ''}.path)", CelEvaluator.Activation.empty()).value());
    }

    @Test
    void evaluatesAPolicyExpressionWithItsVariables() {
        Map<String, String> variables = new java.util.LinkedHashMap<>();
        variables.put("name", "object.metadata.name");
        variables.put("label", "'app.kubernetes.io/' + variables.name");
        KubernetesCelEnvironment env = new KubernetesCelChecker().environment(
                dev.policyset.aps.core.cel.CelChecker.PolicyType.MUTATING, false, new KubeVersion(1, 36),
                variables, ExpressionKind.MUTATION_JSON_PATCH);
        CelEvaluator.Activation a = new CelEvaluator.Activation(Map.of("metadata", Map.of("name", "web")), null, null,
                null, null, null, variables);
        CelEvaluator.Result r = CelEvaluator.evaluate(env,
                "[JSONPatch{op: 'add', path: '/metadata/labels/' + jsonpatch.escapeKey(variables.label), value: 'x'}]", a);
        assertEquals(List.of(Map.of("op", "add", "path", "/metadata/labels/app.kubernetes.io~1web", "value", "x")),
                r.value(), r::toString);
    }

    @Test
    void runtimeCostIsBounded() {
        CelEvaluator.Result r = CelEvaluator.evaluate(env(35),
                "lists.range(2000).all(i, lists.range(2000).all(j, true))", CelEvaluator.Activation.empty());
        assertTrue(r.error() != null && r.error().contains("cost limit exceeded"), r::toString);
    }
}

package dev.policyset.aps.core.cel.lib;

import com.google.common.primitives.UnsignedLong;
import dev.policyset.aps.core.cel.CelEvaluator;
import dev.policyset.aps.core.cel.KubernetesCelEnvironment;
import dev.policyset.aps.core.model.KubeVersion;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ListsLibraryTest {
    private final CelLibTesting cel = new CelLibTesting(new ListsLibrary(0));
    private final CelLibTesting v1 = new CelLibTesting(new ListsLibrary(1));

    @Test
    void isSorted() throws Exception {
        assertEquals(true, cel.eval("[1, 2, 3].isSorted()"));
        assertEquals(true, cel.eval("['a', 'b', 'b', 'c'].isSorted()"));
        assertEquals(false, cel.eval("[2.0, 1.0].isSorted()"));
        assertEquals(true, cel.eval("[].isSorted()"));
        assertEquals(true, cel.eval("[duration('1s'), duration('2s')].isSorted()"));
        assertEquals(false, cel.eval("[b'b', b'a'].isSorted()"));
        cel.assertCompileError("[{'a': 1}].isSorted()", "found no matching overload for 'isSorted'");
    }

    @Test
    void dynReceiverDispatchesLikeCelGo() throws Exception {
        Map<String, Object> vars = Map.of("object", Map.of("items", List.of(3L, 1L, 2L), "names", List.of("b", "a")));
        assertEquals(false, cel.eval("object.items.isSorted()", vars));
        assertEquals(1L, cel.eval("object.items.min()", vars));
        assertEquals(3L, cel.eval("object.items.max()", vars));
        assertEquals(6L, cel.eval("object.items.sum()", vars));
        assertEquals("a", cel.eval("object.names.min()", vars));
        assertEquals(false, cel.eval("object.names.isSorted()", vars));
    }

    @Test
    void sum() throws Exception {
        assertEquals(4L, cel.eval("[1, 3].sum()"));
        assertEquals(4.0, cel.eval("[1.0, 3.0].sum()"));
        assertEquals(UnsignedLong.valueOf(6), cel.eval("[1u, 2u, 3u].sum()"));
        assertEquals(Duration.ofSeconds(61), cel.eval("[duration('1m'), duration('1s')].sum()"));
        assertEquals(0L, cel.eval("[].sum()"));
        cel.assertEvalError("[9223372036854775807, 1].sum()", "integer overflow");
        cel.assertCompileError("['a'].sum()", "found no matching overload for 'sum'");
    }

    @Test
    void minMax() throws Exception {
        assertEquals(1L, cel.eval("[1, 3].min()"));
        assertEquals(3L, cel.eval("[1, 3].max()"));
        assertEquals(1.5, cel.eval("[1.5, -2.0, 0.0].max()"));
        assertEquals(0L, cel.eval("([0] + []).min()"));
        cel.assertEvalError("[].min()", "min called on empty list");
        cel.assertEvalError("[].max()", "max called on empty list");
    }

    @Test
    void indexOf() throws Exception {
        assertEquals(1L, cel.eval("[1, 2, 2, 3].indexOf(2)"));
        assertEquals(2L, cel.eval("['a', 'b', 'b', 'c'].lastIndexOf('b')"));
        assertEquals(-1L, cel.eval("[1.0].indexOf(1.1)"));
        assertEquals(-1L, cel.eval("[].indexOf('string')"));
        assertEquals(2L, cel.eval("[[1], [2], [1]].lastIndexOf([1])"));
        assertEquals(1L, cel.eval("[1, 2].indexOf(dyn(2.0))"), "heterogeneous equality");
    }

    /**
     * A dyn receiver (object, params, a variable) leaves both {@code string.indexOf(string)} and
     * {@code list(A).indexOf(A)} open to the checker; cel-go then dispatches on the runtime value
     * ({@code interpreter/interpretable.go: evalVarArgs} tries each overload's operand trait), so a list of
     * containers finds its element and a string still finds its substring.
     */
    @Test
    void indexOfOnDynListDispatchesToTheListOverload() {
        for (KubeVersion version : List.of(new KubeVersion(1, 30), new KubeVersion(1, 36), new KubeVersion(1, 37))) {
            KubernetesCelEnvironment env = KubernetesCelEnvironment.create(version,
                    KubernetesCelEnvironment.Declarations.validation());
            Map<String, Object> c1 = Map.of("name", "a");
            Map<String, Object> c2 = Map.of("name", "b", "image", "x");
            Map<String, Object> object = Map.of("spec", Map.of("containers", List.of(c1, c2, c1)), "s", "banana");
            CelEvaluator.Activation activation = new CelEvaluator.Activation(object, null,
                    Map.of("name", "b", "sub", "an"), null, null, null, null);
            assertEquals(1L, eval(env, "object.spec.containers.indexOf(object.spec.containers[1])", activation), version.toString());
            assertEquals(2L, eval(env, "object.spec.containers.lastIndexOf(object.spec.containers[0])", activation));
            assertEquals(List.of(1L), eval(env, "object.spec.containers.filter(c, c.name == params.name)"
                    + ".map(c, object.spec.containers.indexOf(c))", activation));
            assertEquals(1L, eval(env, "object.spec.containers.map(c, c.name).indexOf(params.name)", activation));
            assertEquals(-1L, eval(env, "object.spec.containers.map(c, c.name).indexOf('zz')", activation));
            assertEquals(1L, eval(env, "object.s.indexOf(params.sub)", activation), "a dyn string still finds its substring");
            assertEquals(3L, eval(env, "object.s.lastIndexOf(params.sub)", activation));
            assertEquals(3L, eval(env, "object.s.indexOf(params.sub, 2)", activation));
        }
    }

    private static Object eval(KubernetesCelEnvironment env, String expression, CelEvaluator.Activation activation) {
        CelEvaluator.Result r = CelEvaluator.evaluate(env, expression, activation);
        assertEquals(null, r.compileError(), expression);
        assertEquals(null, r.error(), expression);
        return r.value();
    }

    @Test
    void includesOnlyFromVersion1() throws Exception {
        cel.assertCompileError("[1, 2, 3].includes(2)", "undeclared reference to 'includes'");
        assertEquals(true, v1.eval("[1, 2, 3].includes(2)"));
        assertEquals(false, v1.eval("[1, 2, 3].includes(4)"));
        assertEquals(true, v1.eval("'model-a'.includes('model-a')"));
        assertEquals(false, v1.eval("'model-a'.includes('model')"), "not a substring test");
    }
}

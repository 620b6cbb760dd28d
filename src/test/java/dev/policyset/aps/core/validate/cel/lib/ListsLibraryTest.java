package dev.policyset.aps.core.validate.cel.lib;

import com.google.common.primitives.UnsignedLong;
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

    @Test
    void includesOnlyFromVersion1() throws Exception {
        cel.assertCompileError("[1, 2, 3].includes(2)", "undeclared reference to 'includes'");
        assertEquals(true, v1.eval("[1, 2, 3].includes(2)"));
        assertEquals(false, v1.eval("[1, 2, 3].includes(4)"));
        assertEquals(true, v1.eval("'model-a'.includes('model-a')"));
        assertEquals(false, v1.eval("'model-a'.includes('model')"), "not a substring test");
    }
}

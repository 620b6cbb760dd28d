package dev.policyset.aps.core.cel;

import dev.policyset.aps.core.model.KubeVersion;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code string.format}, which cel-java lacks: cel-go's legacy formatter as Kubernetes uses it. */
class CelStringFormatTest {
    private static final KubernetesCelEnvironment ENV = KubernetesCelEnvironment.create(new KubeVersion(1, 35),
            KubernetesCelEnvironment.Declarations.validation());

    private static Object eval(String expression) {
        CelEvaluator.Result r = CelEvaluator.evaluate(ENV, expression, CelEvaluator.Activation.empty());
        assertTrue(r.ok(), () -> expression + ": " + r);
        return r.value();
    }

    private static String compileError(String expression) {
        CelEvaluator.Result r = CelEvaluator.evaluate(ENV, expression, CelEvaluator.Activation.empty());
        assertNotNull(r.compileError(), () -> expression + " should not compile: " + r);
        return r.compileError();
    }

    @Test
    void clauses() {
        assertEquals("a 1 b", eval("'a %d b'.format([1])"));
        assertEquals("-1e", eval("'%x'.format([-30])"));
        assertEquals("ff", eval("'%x'.format([b'\\xff'])"));
        assertEquals("101", eval("'%b'.format([5])"));
        assertEquals("0", eval("'%b'.format([false])"));
        assertEquals("100%", eval("'%d%%'.format([100])"));
        assertEquals("3.00", eval("'%.2f'.format([3.0])"));
        assertEquals("1,234.50", eval("'%.2f'.format([1234.5])"));
        assertEquals("-2.50", eval("'%.2f'.format([-2.5])"));
        assertEquals("1.000000×10⁻⁰³", eval("'%e'.format([0.001])"));
    }

    /** What kube-apiserver 1.37.2 answered (CelDifferentialRealServerTest; docs/real-apiserver.md). */
    @Test
    void scientificAsTheServerPrintsIt() {
        assertEquals("2.718280×10⁰⁰", eval("'%e'.format([2.71828])"));
        assertEquals("1.234500×10⁰⁴", eval("'%.0e'.format([12345.0])"), "the precision is not applied");
        assertEquals("3.141593×10⁰⁰", eval("'%.10e'.format([3.14159265358979])"));
        assertEquals("1.000000×10⁰¹", eval("'%e'.format([9.9999999])"));
        assertEquals("4.940656×10⁻³²⁴", eval("'%e'.format([5e-324])"));
        assertEquals("0.000000×10⁰⁰", eval("'%.0e'.format([0.0])"));
        assertEquals("     ∞", eval("'%e'.format([double('Infinity')])"));
        assertEquals("    -∞", eval("'%e'.format([-1.0/0.0])"));
        assertEquals("   NaN", eval("'%e'.format([double('NaN')])"));
        assertEquals("∞", eval("'%f'.format([double('Infinity')])"), "%f does not pad");
    }

    @Test
    void roundsTheExactBinaryValueLikeGo() {
        assertEquals("1.234", eval("'%.3f'.format([1.2345])"));
        assertEquals("0.12", eval("'%.2f'.format([0.125])"));
    }

    @Test
    void stringClauseOfValues() {
        assertEquals("1e+21", eval("'%s'.format([1e21])"));
        assertEquals("1e+06", eval("'%s'.format([1e6])"));
        assertEquals("1e+06", eval("string(1e6)"));
        assertEquals("123456", eval("string(123456.0)"));
        assertEquals("0.0001", eval("'%s'.format([0.0001])"));
        assertEquals("[1, \"a\\n\"]", eval("'%s'.format([[dyn(1), dyn('a\\n')]])"));
        assertEquals("{1:true}", eval("'%s'.format([{1: true}])"));
        assertEquals("bytes", eval("'%s'.format([b'bytes'])"));
        assertEquals("90s", eval("'%s'.format([duration('1m30s')])"));
        assertEquals("list", eval("'%s'.format([type([1])])"));
    }

    @Test
    void literalArgumentsAreCheckedWhenCompiled() {
        assertTrue(compileError("'%d'.format(['x'])").contains("decimal clause can only be used on integers, was given string"));
        assertTrue(compileError("'%b'.format([1.5])").contains("only integers and bools can be formatted as binary, was given double"));
        assertTrue(compileError("'%e'.format([1])").contains("scientific clause can only be used on doubles, was given int"));
        assertTrue(compileError("'%s %s'.format(['a'])").contains("index 1 out of range"));
        assertTrue(compileError("'%q'.format([1])").contains("unrecognized formatting clause \"q\""));
    }

    @Test
    void dynamicArgumentsAreCheckedWhenEvaluated() {
        CelEvaluator.Result r = CelEvaluator.evaluate(ENV, "'%d'.format([dyn('x')])", CelEvaluator.Activation.empty());
        assertTrue(r.error() != null && r.error().contains("decimal clause can only be used on integers"), r::toString);
    }

    @Test
    void notBeforeStringsVersion2() {
        KubernetesCelEnvironment v128 = KubernetesCelEnvironment.create(new KubeVersion(1, 28),
                KubernetesCelEnvironment.Declarations.validation());
        for (String e : new String[] {"'%s'.format(['a'])", "strings.quote('a')", "['a'].join()"}) {
            assertNotNull(CelEvaluator.evaluate(v128, e, CelEvaluator.Activation.empty()).compileError(), e);
        }
        assertNotNull(CelEvaluator.evaluate(ENV, "'abc'.reverse()", CelEvaluator.Activation.empty()).compileError());
    }
}

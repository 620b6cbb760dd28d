package dev.policyset.aps.core.cel.lib;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

class QuantityLibraryTest {
    private final CelLibTesting cel = new CelLibTesting(new QuantityLibrary());

    @ParameterizedTest
    @ValueSource(strings = {"20", "20Mi", "10000k", "1.3Gi", "-1.5Gi", "+1", "1E3", "1e-3", "100m", "0.5", ".5", "1.", "5n", "3Ei"})
    void valid(String s) throws Exception {
        assertEquals(true, cel.eval("isQuantity('" + s + "')"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "10Mo|quantities must match the regular expression",
        "Three|quantities must match the regular expression",
        "1 Gi|quantities must match the regular expression",
        "1,3G|quantities must match the regular expression",
        "200K|unable to parse quantity's suffix",
        "1mi|unable to parse quantity's suffix",
        "1Zi|quantities must match the regular expression",
    })
    void invalid(String s, String message) throws Exception {
        assertEquals(false, cel.eval("isQuantity('" + s + "')"));
        cel.assertEvalError("quantity('" + s + "')", message);
    }

    @Test
    void emptyIsInvalid() throws Exception {
        assertEquals(false, cel.eval("isQuantity('')"));
        cel.assertEvalError("quantity('')", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    }

    @Test
    void equalityComparesValues() throws Exception {
        assertEquals(true, cel.eval("quantity('12Mi') == quantity('12582912')"));
        assertEquals(true, cel.eval("quantity('2M') == quantity('0.002G') && quantity('2000k') == quantity('2M')"));
        assertEquals(true, cel.eval("quantity('1E3') == quantity('1k') && quantity('1Ki') == quantity('1024')"));
        assertEquals(true, cel.eval("quantity('2000m') == quantity('2')"));
        assertEquals(false, cel.eval("quantity('200M') == quantity('0.3G')"));
        assertEquals(true, cel.eval("quantity('1.5Gi') == quantity('1536Mi')"), "decimal and int64 forms");
    }

    @Test
    void comparison() throws Exception {
        assertEquals(true, cel.eval("quantity('50M').isLessThan(quantity('50Mi'))"));
        assertEquals(false, cel.eval("quantity('1k').isLessThan(quantity('1000'))"));
        assertEquals(true, cel.eval("quantity('150Mi').isGreaterThan(quantity('100Mi'))"));
        assertEquals(0L, cel.eval("quantity('200M').compareTo(quantity('0.2G'))"));
        assertEquals(-1L, cel.eval("quantity('50M').compareTo(quantity('50Mi'))"));
        assertEquals(1L, cel.eval("quantity('1Ei').compareTo(quantity('1E'))"));
        cel.assertCompileError("quantity('1') < quantity('2')", "found no matching overload for '_<_'");
    }

    @Test
    void arithmetic() throws Exception {
        assertEquals(true, cel.eval("quantity('50k').add(quantity('20')) == quantity('50.02k')"));
        assertEquals(true, cel.eval("quantity('50k').add(20) == quantity('50020')"));
        assertEquals(true, cel.eval("quantity('50k').sub(20000) == quantity('30k')"));
        assertEquals(-49980L, cel.eval("quantity('50k').add(20).sub(quantity('100k')).asInteger()"));
        assertEquals(true, cel.eval("quantity('1.5Gi').add(quantity('512Mi')) == quantity('2Gi')"));
        cel.assertCompileError("quantity('50k').add('20k')", "found no matching overload for 'add'");
    }

    @Test
    void subtractingFromZeroGivesTheDecimalForm() throws Exception {
        // Go's Quantity.Sub on a zero receiver stores the negated argument as inf.Dec, which AsInt64 refuses.
        assertEquals(false, cel.eval("quantity('0').sub(quantity('1')).isInteger()"));
        assertEquals(true, cel.eval("quantity('0').sub(quantity('1')) == quantity('-1')"));
    }

    @Test
    void integers() throws Exception {
        assertEquals(50000L, cel.eval("quantity('50k').asInteger()"));
        assertEquals(1500L, cel.eval("quantity('1.5k').asInteger()"));
        assertEquals(1073741824L, cel.eval("quantity('1Gi').asInteger()"));
        assertEquals(true, cel.eval("quantity('0').isInteger() && quantity('50').isInteger()"));
        assertEquals(false, cel.eval("quantity('0.5').isInteger()"));
        assertEquals(false, cel.eval("quantity('9999999999999999999999999999999999999G').isInteger()"));
        assertEquals(false, cel.eval("quantity('2000m').isInteger()"), "negative scale");
        assertEquals(false, cel.eval("quantity('1.5Gi').isInteger()"), "decimal form");
        cel.assertEvalError("quantity('2000m').asInteger()", "cannot convert value to integer");
        cel.assertEvalError("quantity('10E') .asInteger()", "cannot convert value to integer");
    }

    @Test
    void floatsAndSign() throws Exception {
        assertEquals(50703.0, cel.eval("quantity('50.703k').asApproximateFloat()"));
        assertEquals(30000.0, cel.eval("quantity('50k').sub(20000).asApproximateFloat()"));
        assertEquals(1.610612736E9, cel.eval("quantity('1.5Gi').asApproximateFloat()"));
        assertEquals(0.001, cel.eval("quantity('1m').asApproximateFloat()"));
        assertEquals(-1L, cel.eval("sign(quantity('-50k'))"));
        assertEquals(1L, cel.eval("sign(quantity('1m'))"));
        assertEquals(0L, cel.eval("sign(quantity('0'))"));
        cel.assertCompileError("quantity('1').sign()", "found no matching overload for 'sign'");
    }
}

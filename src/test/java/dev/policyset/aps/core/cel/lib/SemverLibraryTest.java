package dev.policyset.aps.core.cel.lib;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SemverLibraryTest {
    private final CelLibTesting cel = new CelLibTesting(new SemverLibrary());

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "|Version string empty",
        "v1.0|No Major.Minor.Patch elements found",
        "1.2.x|Invalid character(s) found in patch number \"x\"",
        "a.2.3|Invalid character(s) found in major number \"a\"",
        "1.02.3|Minor number must not contain leading zeroes \"02\"",
        "1.2.3-01|Numeric PreRelease version must not contain leading zeroes \"01\"",
        "1.0.0-|Prerelease is empty",
        "1.0.0+|Build meta data is empty",
        "1.0.0-a_b|Invalid character(s) found in prerelease \"a_b\"",
        "1.0.0+a_b|Invalid character(s) found in build meta data \"a_b\"",
    })
    void parseErrors(String s, String message) throws Exception {
        String in = s == null ? "" : s;
        cel.assertEvalError("semver('" + in + "')", message);
        assertEquals(false, cel.eval("isSemver('" + in + "')"));
    }

    @Test
    void isSemver() throws Exception {
        assertEquals(true, cel.eval("isSemver('1.2.3') && isSemver('1.2.3-rc.1+build.5')"));
        assertEquals(false, cel.eval("isSemver('v1.0.0') || isSemver('1.0.0 ') || isSemver('1.1')"));
        assertEquals(true, cel.eval("isSemver('01.01.01', true) && isSemver('1.1', true) && isSemver('v1', true)"));
        assertEquals(false, cel.eval("isSemver('V1.0.0', true) || isSemver('1.0.0 ', true) || isSemver('', true)"));
        cel.assertCompileError("isSemver([1, 2, 3])", "found no matching overload for 'isSemver'");
    }

    @Test
    void normalize() throws Exception {
        assertEquals(true, cel.eval("semver('1', true) == semver('1.0.0')"));
        assertEquals(true, cel.eval("semver('v01.002.0', true) == semver('1.2.0')"));
        assertEquals(1L, cel.eval("semver('v1.2.3', true).major()"));
        cel.assertEvalError("semver('1.2-rc', true)", "short version cannot contain PreRelease/Build meta data");
        // SplitN("1.2-rc.1", ".", 3) has three parts, so upstream reports the minor number, not a short version.
        cel.assertEvalError("semver('1.2-rc.1', true)", "Invalid character(s) found in minor number \"2-rc\"");
    }

    @Test
    void accessors() throws Exception {
        assertEquals(1L, cel.eval("semver('1.2.3').major()"));
        assertEquals(200L, cel.eval("semver('100.200.300').minor()"));
        assertEquals(3L, cel.eval("semver('1.2.3-rc.1+build.5').patch()"));
    }

    @Test
    void ordering() throws Exception {
        assertEquals(0L, cel.eval("semver('1.2.3').compareTo(semver('1.2.3'))"));
        assertEquals(-1L, cel.eval("semver('1.0.0').compareTo(semver('1.2.3'))"));
        assertEquals(1L, cel.eval("semver('2.0.0').compareTo(semver('1.99.99'))"));
        assertEquals(true, cel.eval("semver('1.2.3').isGreaterThan(semver('1.2.3-rc.1'))"));
        assertEquals(-1L, cel.eval("semver('1.0.0-alpha').compareTo(semver('1.0.0-alpha.1'))"));
        assertEquals(true, cel.eval("semver('1.0.0-2').isLessThan(semver('1.0.0-10'))"));
        assertEquals(true, cel.eval("semver('1.0.0-1').isLessThan(semver('1.0.0-alpha'))"));
        assertEquals(true, cel.eval("semver('1.0.0-beta').isGreaterThan(semver('1.0.0-alpha'))"));
        assertEquals(false, cel.eval("semver('1.0.0').isLessThan(semver('1.0.0'))"));
    }

    @Test
    void equalityIgnoresBuildMetadata() throws Exception {
        assertEquals(true, cel.eval("semver('1.0.0+a') == semver('1.0.0')"));
        assertEquals(0L, cel.eval("semver('1.0.0+a').compareTo(semver('1.0.0+b'))"));
        assertEquals(false, cel.eval("semver('1.2.3') == semver('1.0.0')"));
    }
}

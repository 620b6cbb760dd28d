package dev.policyset.aps.core.cel.lib;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RegexLibraryTest {
    private final CelLibTesting cel = new CelLibTesting(new RegexLibrary());

    @Test
    void find() throws Exception {
        assertEquals("123", cel.eval("'abc 123'.find('[0-9]+')"));
        assertEquals("", cel.eval("'abc 123'.find('[0-9]*')"), "leftmost match is empty at offset 0");
        assertEquals("", cel.eval("'abc 123'.find('xyz')"));
        assertEquals("World", cel.eval("'Hello World'.find('(?i)world')"));
    }

    @Test
    void findAll() throws Exception {
        assertEquals(List.of("123", "456"), cel.eval("'123 abc 456'.findAll('[0-9]+')"));
        assertEquals(List.of("123"), cel.eval("'123 abc 456'.findAll('[0-9]+', 1)"));
        assertEquals(List.of(), cel.eval("'123 abc 456'.findAll('[0-9]+', 0)"));
        assertEquals(List.of("123", "456"), cel.eval("'123 abc 456'.findAll('[0-9]+', -1)"));
        assertEquals(List.of(), cel.eval("'123 abc 456'.findAll('xyz')"));
        assertEquals(List.of("aa", "aa"), cel.eval("'aaaa'.findAll('aa')"));
    }

    @Test
    void findAllDropsEmptyMatchRightAfterAMatch() throws Exception {
        // Go: regexp.MustCompile("[0-9]*").FindAllString("123 abc 456", -1) == ["123" "" "" "" "" "456"]
        assertEquals(List.of("123", "", "", "", "", "456"), cel.eval("'123 abc 456'.findAll('[0-9]*')"));
        assertEquals(List.of("", "b", ""), cel.eval("'abc'.findAll('b*')"));
    }

    @Test
    void constantPatternFailsAtProgramCreation() {
        cel.assertCompileError("'abc'.find('(')", "error parsing regexp: missing closing ): `(`");
        cel.assertCompileError("'abc'.findAll('[a-', 2)", "error parsing regexp");
    }

    @Test
    void dynamicPatternFailsAtEvaluation() throws Exception {
        Map<String, Object> vars = Map.of("params", Map.of("re", "("));
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> cel.eval("'abc'.find(params.re)", vars));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("Illegal regex: error parsing regexp"), e.getMessage());
        assertEquals(List.of("a", "b"), cel.eval("'a1b2'.findAll(params.re)", Map.of("params", Map.of("re", "[a-z]"))));
    }

    @Test
    void typeErrors() {
        cel.assertCompileError("'abc'.find(1)", "found no matching overload for 'find'");
    }
}

package dev.policyset.aps.core.importer;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Kyverno's kind selectors and wildcards as CEL (pkg/utils/kube/kind.go: ParseKindSelector, ext/wildcard). */
class KyvernoExceptionMatchTest {
    @Test
    void kindSelectorsAsKyvernoParsesThem() {
        assertEquals("(request.kind.kind == 'Pod' && request.?subResource.orValue('') in ['', 'ephemeralcontainers'])",
                KyvernoExceptionMatch.kind("Pod"));
        assertEquals("(request.kind.version == 'v1' && request.kind.kind == 'ConfigMap' && request.?subResource.orValue('') == '')",
                KyvernoExceptionMatch.kind("v1/ConfigMap"));
        assertEquals("(request.kind.group == 'apps' && request.kind.version == 'v1' && request.kind.kind == 'Deployment' "
                + "&& request.?subResource.orValue('') == '')", KyvernoExceptionMatch.kind("apps/v1/Deployment"));
        assertEquals("(request.kind.kind == 'Pod' && request.?subResource.orValue('') == 'exec')", KyvernoExceptionMatch.kind("Pod/exec"));
        assertEquals("true", KyvernoExceptionMatch.kind("*/*"));
    }

    @Test
    void wildcardsAreAnchoredAndTheRestLiteral() {
        assertTrue(Wildcard.matches("debug-*", "debug-1"));
        assertFalse(Wildcard.matches("debug-*", "xdebug-1"));
        assertTrue(Wildcard.matches("a.?", "a.b"));
        assertFalse(Wildcard.matches("a.?", "axb"));
        assertTrue(KyvernoExceptions.namesRule("autogen-host-*", "host-network"));
        assertTrue(KyvernoExceptions.namesRule("autogen-cronjob-check", "check"));
        assertFalse(KyvernoExceptions.namesRule("check", "check-2"));
    }

    @Test
    void anEmptyMatchMatchesNothingAndSubjectsAreRefused() throws Exception {
        ObjectMapper json = new ObjectMapper();
        assertEquals("false", KyvernoExceptionMatch.expression(json.readTree("{}"), "object"));
        KyvernoExceptionMatch.Unsupported e = assertThrows(KyvernoExceptionMatch.Unsupported.class, () ->
                KyvernoExceptionMatch.expression(json.readTree("{\"any\":[{\"subjects\":[{\"kind\":\"User\",\"name\":\"a\"}]}]}"), "object"));
        assertTrue(e.getMessage().contains("request.userInfo"), e.getMessage());
    }
}

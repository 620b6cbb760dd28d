package dev.policyset.aps.core.render;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The API server's name formats: one message per problem, as {@code apimachinery/pkg/util/validation}. */
class NamesFormatsTest {
    @Test
    void qualifiedNames() {
        assertEquals(0, Names.qualifiedNameProblems("example.com/My_Name.1").size());
        assertEquals(2, Names.qualifiedNameProblems("").size()); // empty, and does not match
        assertEquals(1, Names.qualifiedNameProblems("/name").size());
        assertEquals(1, Names.qualifiedNameProblems("a/b/c").size());
        assertEquals(2, Names.qualifiedNameProblems("x".repeat(64) + "-").size());
        assertEquals(1, Names.qualifiedNameProblems("Bad_Prefix/name").size());
    }

    @Test
    void labelValuesAndLabels() {
        assertEquals(0, Names.labelValueProblems("").size());
        assertEquals(1, Names.labelValueProblems("platform team!").size());
        assertEquals(2, Names.labelValueProblems("-" + "x".repeat(63)).size());
        assertEquals(0, Names.dns1035LabelProblems("v1beta1").size());
        assertEquals(1, Names.dns1035LabelProblems("0v").size());
        assertEquals(1, Names.dns1123LabelProblems("a.b").size());
    }

    @Test
    void prefixesAndPathSegments() {
        assertEquals(0, Names.subdomainPrefixProblems("policy-").size());
        assertEquals(1, Names.subdomainPrefixProblems("Policy-").size());
        assertEquals(1, Names.pathSegmentNameProblems("..").size());
        assertEquals(2, Names.pathSegmentNameProblems("a/%").size());
        assertEquals(0, Names.pathSegmentNameProblems("").size());
    }
}

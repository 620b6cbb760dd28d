package dev.policyset.aps.core.util;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The one name grammar: one message per problem, as {@code apimachinery/pkg/util/validation} and {@code generic.go}. */
class NameFormatsTest {
    @Test
    void qualifiedNames() {
        assertEquals(0, NameFormats.qualifiedNameProblems("example.com/My_Name.1").size());
        assertEquals(2, NameFormats.qualifiedNameProblems("").size()); // empty, and does not match
        assertEquals(1, NameFormats.qualifiedNameProblems("/name").size());
        assertEquals(1, NameFormats.qualifiedNameProblems("a/b/c").size());
        assertEquals(2, NameFormats.qualifiedNameProblems("x".repeat(64) + "-").size());
        assertEquals(1, NameFormats.qualifiedNameProblems("Bad_Prefix/name").size());
    }

    @Test
    void labelValuesAndLabels() {
        assertEquals(0, NameFormats.labelValueProblems("").size());
        assertEquals(1, NameFormats.labelValueProblems("platform team!").size());
        assertEquals(2, NameFormats.labelValueProblems("-" + "x".repeat(63)).size());
        assertEquals(0, NameFormats.dns1035LabelProblems("v1beta1").size());
        assertEquals(1, NameFormats.dns1035LabelProblems("0v").size());
        assertEquals(List.of("must not contain dots"), NameFormats.dns1123LabelProblems("a.b"));
    }

    @Test
    void prefixesAndPathSegments() {
        assertEquals(0, NameFormats.nameIsDnsSubdomain("policy-", true).size());
        assertEquals(1, NameFormats.nameIsDnsSubdomain("Policy-", true).size());
        assertEquals(1, NameFormats.pathSegmentNameProblems("..").size());
        assertEquals(2, NameFormats.pathSegmentNameProblems("a/%").size());
        assertEquals(0, NameFormats.pathSegmentNameProblems("").size());
    }

    @Test
    void prefixMaskingIsUpstreams() {
        // maskTrailingDash drops two characters and appends "a": "ab-" is checked as "aa", "-" is left as it is.
        assertEquals("aa", NameFormats.maskTrailingDash("ab-"));
        assertEquals("-", NameFormats.maskTrailingDash("-"));
        assertEquals(1, NameFormats.nameIsDnsSubdomain("-", true).size());
        assertEquals(0, NameFormats.nameIsDnsLabel("web-", true).size());
        assertEquals(0, NameFormats.nameIsDns1035Label("1-", true).size(), "masked to \"a\"");
        assertEquals(1, NameFormats.nameIsDns1035Label("1ab-", true).size(), "masked to \"1aa\"");
    }

    @Test
    void messagesAreTheApiServers() {
        assertEquals(List.of("must be no more than 253 characters", "a lowercase RFC 1123 subdomain must consist of lower "
                + "case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
                + "'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"),
                NameFormats.subdomainProblems("A".repeat(254)));
        assertEquals("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
                + "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for "
                + "validation is '[a-z]([-a-z0-9]*[a-z0-9])?')", NameFormats.dns1035LabelProblems("0v").get(0));
        assertEquals(List.of("must be no more than 63 characters"), NameFormats.dns1123LabelProblems("a".repeat(64)));
        assertEquals("must be no more than 63 characters", NameFormats.labelValueProblems("é".repeat(32)).get(0),
                "lengths are UTF-8 bytes: 32 characters, 64 bytes");
    }
}

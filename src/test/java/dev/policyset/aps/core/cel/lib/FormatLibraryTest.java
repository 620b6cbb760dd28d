package dev.policyset.aps.core.cel.lib;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FormatLibraryTest {
    private final CelLibTesting cel = new CelLibTesting(new FormatLibrary());

    @ParameterizedTest
    @CsvSource({
        "dns1123Label, my-label-name, true",
        "dns1123Label, My-Name, false",
        "dns1123Subdomain, apiextensions.k8s.io, true",
        "dns1123Subdomain, -a.com, false",
        "dns1035Label, abc-1, true",
        "dns1035Label, 1abc, false",
        "dns1123LabelPrefix, my-label-prefix-, true",
        "dns1123SubdomainPrefix, mysubdomain.prefix.-, true",
        "dns1035LabelPrefix, abc-, true",
        "qualifiedName, my.name, true",
        "qualifiedName, example.com/My_Name-1.x, true",
        "qualifiedName, a/b/c, false",
        "qualifiedName, /name, false",
        "labelValue, '', true",
        "labelValue, -a, false",
        "uri, http://example.com, true",
        "uri, /api/v1, true",
        "uri, example.com, false",
        "uuid, 123e4567-e89b-12d3-a456-426614174000, true",
        "uuid, 123E4567-E89B-12D3-A456-426614174000, true",
        "uuid, not-a-uuid, false",
        "byte, YQ==, true",
        "byte, aGVsbG8, false",
        "date, 2020-02-29, true",
        "date, 2021-02-29, false",
        "datetime, 2021-01-01T10:00:00+02:00, true",
        "datetime, 2021-01-01T00:00:00.123Z, true",
        "datetime, 2021-01-01T00:00:00, false",
        "datetime, 2021-01-01T24:00:00Z, false",
    })
    void validity(String format, String value, boolean valid) throws Exception {
        assertEquals(!valid, cel.eval("format." + format + "().validate('" + value + "').hasValue()"));
        assertEquals(!valid, cel.eval("format.named('" + format + "').value().validate('" + value + "').hasValue()"));
    }

    @Test
    void messages() throws Exception {
        assertEquals(List.of("must not contain dots"), cel.eval("format.dns1123Label().validate('a.b').value()"));
        assertEquals(List.of("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must "
                        + "start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for "
                        + "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"),
                cel.eval("format.dns1123LabelPrefix().validate('contains a space-').value()"));
        assertEquals(List.of("must be no more than 63 characters"), cel.eval("format.dns1123Label().validate('"
                + "a".repeat(64) + "').value()"));
        assertEquals(List.of("does not match the UUID format"), cel.eval("format.uuid().validate('x').value()"));
        assertEquals(List.of("invalid base64"), cel.eval("format.byte().validate('aGVsbG8').value()"));
        assertEquals(List.of("parse \"example.com\": invalid URI for request"), cel.eval("format.uri().validate('example.com').value()"));
        assertEquals(List.of("prefix part must be non-empty"), cel.eval("format.qualifiedName().validate('/name').value()"));
    }

    @Test
    void namedAndEquality() throws Exception {
        assertEquals(false, cel.eval("format.named('unknown').hasValue()"));
        assertEquals(true, cel.eval("format.named('uuid').value() == format.uuid()"));
        assertEquals(false, cel.eval("format.dns1123Label() == format.dns1035Label()"));
        assertEquals("must not contain dots", cel.eval("format.dns1123Label().validate('a.b').orValue([]).join(', ')"));
        cel.assertCompileError("format.unknown()", "undeclared reference");
    }
}

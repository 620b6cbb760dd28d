package dev.policyset.aps.core.cel.lib;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class IpLibraryTest {
    private final CelLibTesting cel = new CelLibTesting(new IpLibrary(), new CidrLibrary());

    @ParameterizedTest
    @CsvSource({
        "192.168.0.1, 192.168.0.1",
        "2001:db8::68, 2001:db8::68",
        "2001:DB8:0:0:0:0:0:1, 2001:db8::1",
        "2001:db8:0:0:1:0:0:1, 2001:db8::1:0:0:1",
        "::, ::",
        "::1, ::1",
        "1::, 1::",
        "fe80:0:0:0:0:0:0:0, fe80::",
    })
    void canonicalString(String in, String out) throws Exception {
        assertEquals(out, cel.eval("string(ip('" + in + "'))"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "192.168.0.1.0|ParseAddr(\"192.168.0.1.0\"): IPv4 address too long",
        "127.0.0.256|ParseAddr(\"127.0.0.256\"): IPv4 field has value >255",
        "010.0.0.1|ParseAddr(\"010.0.0.1\"): IPv4 field has octet with leading zero",
        "1.2.3|ParseAddr(\"1.2.3\"): IPv4 address too short",
        ":::1|ParseAddr(\":::1\"): each colon-separated field must have at least one digit (at \":1\")",
        "1::2::3|multiple :: in address",
        "abc|ParseAddr(\"abc\"): unable to parse IP",
        "::ffff:1.2.3.4|IPv4-mapped IPv6 address \"::ffff:1.2.3.4\" is not allowed",
        "fe80::1%eth0|IP address \"fe80::1%eth0\" with zone value is not allowed",
    })
    void parseErrors(String in, String message) {
        cel.assertEvalError("ip('" + in + "')", message);
        if (message.startsWith("ParseAddr")) {
            cel.assertEvalError("ip('" + in + "')", "IP Address \"" + in + "\" parse error during conversion from string: " + message);
        }
    }

    @Test
    void zoneAndMappedMessagesAreNotPrefixed() throws Exception {
        assertEquals("IP address \"fe80::1%eth0\" with zone value is not allowed", errorOf("ip('fe80::1%eth0')"));
        assertEquals("IPv4-mapped IPv6 address \"::ffff:1.2.3.4\" is not allowed", errorOf("ip('::ffff:1.2.3.4')"));
        // netip rejects the '%' of an IPv4 address before any zone check
        assertEquals("IP Address \"1.2.3.4%eth0\" parse error during conversion from string: ParseAddr(\"1.2.3.4%eth0\"): "
                + "unexpected character (at \"%eth0\")", errorOf("ip('1.2.3.4%eth0')"));
    }

    private String errorOf(String expr) {
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> cel.eval(expr));
        String m = e.getMessage();
        return m.substring(m.indexOf(": ") >= 0 && m.startsWith("evaluation error") ? m.indexOf(": ") + 2 : 0);
    }

    @Test
    void isIpAndCanonical() throws Exception {
        assertEquals(true, cel.eval("isIP('192.168.0.1') && isIP('2001:db8::68')"));
        assertEquals(false, cel.eval("isIP('::ffff:1.2.3.4') || isIP('fe80::1%eth0') || isIP('1.2.3.4/24')"));
        assertEquals(true, cel.eval("ip.isCanonical('2001:db8::abcd')"));
        assertEquals(false, cel.eval("ip.isCanonical('2001:DB8::ABCD')"));
        cel.assertEvalError("ip.isCanonical('127.0.0.1.0')", "IPv4 address too long");
    }

    @Test
    void predicates() throws Exception {
        assertEquals(4L, cel.eval("ip('127.0.0.1').family()"));
        assertEquals(6L, cel.eval("ip('::1').family()"));
        assertEquals(true, cel.eval("ip('0.0.0.0').isUnspecified() && ip('::').isUnspecified()"));
        assertEquals(true, cel.eval("ip('127.1.2.3').isLoopback() && ip('::1').isLoopback()"));
        assertEquals(true, cel.eval("ip('224.0.0.1').isLinkLocalMulticast() && ip('ff02::1').isLinkLocalMulticast()"));
        assertEquals(false, cel.eval("ip('224.0.1.1').isLinkLocalMulticast()"));
        assertEquals(true, cel.eval("ip('169.254.169.254').isLinkLocalUnicast() && ip('fe80::1').isLinkLocalUnicast()"));
        assertEquals(false, cel.eval("ip('fd80::1').isLinkLocalUnicast()"));
        assertEquals(true, cel.eval("ip('192.168.0.1').isGlobalUnicast() && ip('2001:db8::abcd').isGlobalUnicast()"));
        assertEquals(false, cel.eval("ip('255.255.255.255').isGlobalUnicast() || ip('ff00::1').isGlobalUnicast()"));
    }

    @Test
    void equalityAndType() throws Exception {
        assertEquals(true, cel.eval("ip('2001:db8:0:0:0:0:0:1') == ip('2001:db8::1')"));
        assertEquals(false, cel.eval("ip('1.2.3.4') == ip('::1')"));
        assertEquals(true, cel.eval("type(ip('192.168.0.1')) == net.IP"));
        cel.assertCompileError("isIP(cidr('192.168.0.0/24'))", "found no matching overload for 'isIP' applied to '(net.CIDR)'");
    }
}

package dev.policyset.aps.core.cel.lib;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CidrLibraryTest {
    private final CelLibTesting cel = new CelLibTesting(new IpLibrary(), new CidrLibrary());

    @Test
    void parseKeepsHostBits() throws Exception {
        assertEquals("192.168.0.1/24", cel.eval("string(cidr('192.168.0.1/24'))"));
        assertEquals("192.168.0.1", cel.eval("string(cidr('192.168.0.1/24').ip())"));
        assertEquals("192.168.0.0/24", cel.eval("string(cidr('192.168.0.1/24').masked())"));
        assertEquals("2001:db8::/32", cel.eval("string(cidr('2001:db8:1::/32').masked())"));
        assertEquals(16L, cel.eval("cidr('192.168.0.0/16').prefixLength()"));
    }

    @Test
    void parseErrors() {
        cel.assertEvalError("cidr('2001:db8::/')",
                "network address parse error during conversion from string: network address parse error during conversion "
                        + "from string: netip.ParsePrefix(\"2001:db8::/\"): bad bits after slash: \"\"");
        cel.assertEvalError("cidr('10.0.0.0/33')", "prefix length out of range");
        cel.assertEvalError("cidr('10.0.0.0/08')", "bad bits after slash: \"08\"");
        cel.assertEvalError("cidr('10.0.0.0')", "no '/'");
        cel.assertEvalError("cidr('::ffff:1.2.3.4/128')", "network address parse error during conversion from string: "
                + "IPv4-mapped IPv6 address \"::ffff:1.2.3.4/128\" is not allowed");
    }

    @Test
    void isCidr() throws Exception {
        assertEquals(true, cel.eval("isCIDR('2001:db8::/32') && isCIDR('10.0.0.0/8')"));
        assertEquals(false, cel.eval("isCIDR('10.0.0.0') || isCIDR('::ffff:1.2.3.4/128') || isCIDR('010.0.0.0/8')"));
    }

    @Test
    void containsIp() throws Exception {
        assertEquals(true, cel.eval("cidr('192.168.0.0/24').containsIP(ip('192.168.0.1'))"));
        assertEquals(false, cel.eval("cidr('192.168.0.0/24').containsIP(ip('192.168.1.1'))"));
        assertEquals(true, cel.eval("cidr('192.168.0.0/24').containsIP('192.168.0.1')"));
        assertEquals(false, cel.eval("cidr('192.168.0.0/24').containsIP('::1')"));
        assertEquals(true, cel.eval("cidr('::/0').containsIP('2001:db8::1')"));
        cel.assertEvalError("cidr('192.168.0.0/24').containsIP('not-an-ip')", "no such overload");
        cel.assertCompileError("cidr('10.0.0.0/8').containsIP(1)", "found no matching overload for 'containsIP'");
    }

    @Test
    void containsCidr() throws Exception {
        assertEquals(false, cel.eval("cidr('192.168.0.0/24').containsCIDR(cidr('192.168.0.0/23'))"));
        assertEquals(true, cel.eval("cidr('192.168.0.0/24').containsCIDR('192.168.0.128/25')"));
        assertEquals(true, cel.eval("cidr('192.168.0.0/16').containsCIDR('192.168.0.1/32')"), "argument is masked");
        assertEquals(false, cel.eval("cidr('10.0.0.0/8').containsCIDR('11.0.0.0/16')"));
        assertEquals(false, cel.eval("cidr('0.0.0.0/0').containsCIDR('::/0')"));
        cel.assertEvalError("cidr('10.0.0.0/8').containsCIDR('10.0.0.0/99')", "network address parse error during conversion from string");
    }

    @Test
    void equality() throws Exception {
        assertEquals(true, cel.eval("cidr('192.168.0.0/24') == cidr('192.168.0.0/24').masked()"));
        assertEquals(false, cel.eval("cidr('192.168.0.1/24') == cidr('192.168.0.0/24')"));
        assertEquals(true, cel.eval("type(cidr('10.0.0.0/8')) == net.CIDR"));
    }
}

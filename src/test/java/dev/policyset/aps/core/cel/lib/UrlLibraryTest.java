package dev.policyset.aps.core.cel.lib;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class UrlLibraryTest {
    private final CelLibTesting cel = new CelLibTesting(new UrlLibrary());

    @Test
    void getters() throws Exception {
        assertEquals("https", cel.eval("url('HTTPS://example.com/').getScheme()"));
        assertEquals("", cel.eval("url('/path').getScheme()"));
        assertEquals("example.com:80", cel.eval("url('https://example.com:80/').getHost()"));
        assertEquals("example.com:8443", cel.eval("url('https://user:pass@example.com:8443/x').getHost()"));
        assertEquals("[::1]", cel.eval("url('https://[::1]/').getHost()"));
        assertEquals("::1", cel.eval("url('https://[::1]:80/').getHostname()"));
        assertEquals("80", cel.eval("url('https://[::1]:80/').getPort()"));
        assertEquals("", cel.eval("url('https://example.com/').getPort()"));
    }

    @Test
    void escapedPath() throws Exception {
        assertEquals("/path%20with%20spaces/", cel.eval("url('https://example.com/path with spaces/').getEscapedPath()"));
        assertEquals("", cel.eval("url('https://example.com').getEscapedPath()"));
        assertEquals("/p", cel.eval("url('https://example.com/p#frag').getEscapedPath()"));
        assertEquals("/a!b%2Fc", cel.eval("url('https://example.com/a!b%2Fc').getEscapedPath()"), "raw path kept");
    }

    @Test
    void query() throws Exception {
        assertEquals(Map.of("k1", List.of("a"), "k2", List.of("b", "c")),
                cel.eval("url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()"));
        assertEquals(Map.of(), cel.eval("url('https://example.com/path?').getQuery()"));
        assertEquals(Map.of("a", List.of("1")), cel.eval("url('https://example.com/p?a=1#frag').getQuery()"));
        assertEquals(Map.of(), cel.eval("url('https://example.com/?a=1;b=2').getQuery()"));
        assertEquals(Map.of("q", List.of("a b")), cel.eval("url('https://example.com/?q=a+b').getQuery()"));
    }

    @Test
    void isUrl() throws Exception {
        assertEquals(true, cel.eval("isURL('https://example.com/')"));
        assertEquals(true, cel.eval("isURL('/absolute-path')"));
        assertEquals(false, cel.eval("isURL('https://a:b:c/')"));
        assertEquals(false, cel.eval("isURL('example.com')"));
        assertEquals(false, cel.eval("isURL('')"));
        assertEquals(false, cel.eval("isURL('../relative')"));
    }

    @Test
    void conversionErrors() {
        cel.assertEvalError("url('../relative-path')", "URL parse error during conversion from string: parse \"../relative-path\": invalid URI for request");
        cel.assertEvalError("url('https://a:b:c/')", "invalid port \":c\" after host");
        cel.assertCompileError("url(1)", "found no matching overload for 'url'");
        cel.assertEvalError("url('https://[1.2.3.4]/')", "invalid IP-literal");
        cel.assertEvalError("url('https://[v1.x]/')", "invalid host: ParseAddr(\"v1.x\"): unexpected character (at \"v1.x\")");
        cel.assertEvalError("url('https://a[b]/')", "invalid IP-literal");
        cel.assertEvalError("url('https://a b/')", "invalid character \" \" in host name");
        cel.assertEvalError("url('https://example.com/%zz')", "invalid URL escape \"%zz\"");
        // ParseRequestURI keeps '#' in the query; url.Parse then rejects the fragment, quoting the whole URL.
        cel.assertEvalError("url('https://x/?a#%zz')", "parse \"https://x/?a#%zz\": invalid URL escape \"%zz\"");
    }
}

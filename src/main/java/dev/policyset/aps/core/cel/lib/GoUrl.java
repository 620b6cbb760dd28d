package dev.policyset.aps.core.cel.lib;

import dev.cel.common.types.OpaqueType;
import dev.cel.common.values.OpaqueValue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A port of the parts of Go's {@code net/url} the Kubernetes URL library and the {@code uri} format use:
 * {@code Parse}, {@code ParseRequestURI}, {@code Hostname}, {@code Port}, {@code EscapedPath},
 * {@code Query}. Error messages are Go's ({@code parse "x": invalid port ":c" after host}). The API-server rules use
 * it too, for webhook {@code clientConfig.url}: one port of {@code net/url}, not two.
 */
public final class GoUrl extends OpaqueValue {
    final String scheme;
    /** The user info before '@' in the authority, unescaped; null when there is none (Go's {@code User == nil}). */
    final String user;
    final String opaque;
    final String host;
    final String path;
    final String rawPath;
    final String rawQuery;
    final String fragment;

    private GoUrl(String scheme, String user, String opaque, String host, String path, String rawPath, String rawQuery,
                  String fragment) {
        this.scheme = scheme;
        this.user = user;
        this.opaque = opaque;
        this.host = host;
        this.path = path;
        this.rawPath = rawPath;
        this.rawQuery = rawQuery;
        this.fragment = fragment;
    }

    /** Thrown with Go's error text. */
    public static final class UrlException extends Exception {
        UrlException(String message) {
            super(message);
        }
    }

    /** Go {@code url.ParseRequestURI}: absolute URI or absolute path; no fragment splitting. */
    static GoUrl parseRequestUri(String raw) throws UrlException {
        try {
            return parse(raw, true, "");
        } catch (UrlException e) {
            throw new UrlException("parse " + quote(raw) + ": " + e.getMessage());
        }
    }

    /** Go {@code url.Parse}. */
    public static GoUrl parse(String raw) throws UrlException {
        int hash = raw.indexOf('#');
        String u = hash < 0 ? raw : raw.substring(0, hash);
        String frag = hash < 0 ? "" : raw.substring(hash + 1);
        GoUrl url;
        try {
            url = parse(u, false, "");
        } catch (UrlException e) {
            throw new UrlException("parse " + quote(u) + ": " + e.getMessage());
        }
        if (frag.isEmpty()) {
            return url;
        }
        try {
            String fragment = unescape(frag, Mode.FRAGMENT);
            return new GoUrl(url.scheme, url.user, url.opaque, url.host, url.path, url.rawPath, url.rawQuery, fragment);
        } catch (UrlException e) {
            throw new UrlException("parse " + quote(raw) + ": " + e.getMessage());
        }
    }

    private static GoUrl parse(String raw, boolean viaRequest, String fragment) throws UrlException {
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c < ' ' || c == 0x7f) {
                throw new UrlException("net/url: invalid control character in URL");
            }
        }
        if (raw.isEmpty() && viaRequest) {
            throw new UrlException("empty url");
        }
        if (raw.equals("*")) {
            return new GoUrl("", null, "", "", "*", "", "", fragment);
        }
        String scheme = "";
        String rest = raw;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
                continue;
            }
            if (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
                if (i == 0) {
                    break;
                }
                continue;
            }
            if (c == ':') {
                if (i == 0) {
                    throw new UrlException("missing protocol scheme");
                }
                scheme = raw.substring(0, i);
                rest = raw.substring(i + 1);
            }
            break;
        }
        scheme = scheme.toLowerCase(java.util.Locale.ROOT);
        String rawQuery = "";
        if (rest.endsWith("?") && rest.indexOf('?') == rest.length() - 1) {
            rest = rest.substring(0, rest.length() - 1);
        } else {
            int q = rest.indexOf('?');
            if (q >= 0) {
                rawQuery = rest.substring(q + 1);
                rest = rest.substring(0, q);
            }
        }
        if (!rest.startsWith("/")) {
            if (!scheme.isEmpty()) {
                return new GoUrl(scheme, null, rest, "", "", "", rawQuery, fragment);
            }
            if (viaRequest) {
                throw new UrlException("invalid URI for request");
            }
            int slash = rest.indexOf('/');
            String segment = slash < 0 ? rest : rest.substring(0, slash);
            if (segment.contains(":")) {
                throw new UrlException("first path segment in URL cannot contain colon");
            }
        }
        String host = "";
        String user = null;
        if ((!scheme.isEmpty() || !viaRequest && !rest.startsWith("///")) && rest.startsWith("//")) {
            String authority = rest.substring(2);
            rest = "";
            int slash = authority.indexOf('/');
            if (slash >= 0) {
                rest = authority.substring(slash);
                authority = authority.substring(0, slash);
            }
            String[] hostAndUser = parseAuthority(authority);
            host = hostAndUser[0];
            user = hostAndUser[1];
        }
        String path = unescape(rest, Mode.PATH);
        String rawPath = escape(path, Mode.PATH).equals(rest) ? "" : rest;
        return new GoUrl(scheme, user, "", host, path, rawPath, rawQuery, fragment);
    }

    /** The host and the unescaped user info (null without '@'). */
    private static String[] parseAuthority(String authority) throws UrlException {
        int at = authority.lastIndexOf('@');
        String host = parseHost(at < 0 ? authority : authority.substring(at + 1));
        String user = null;
        if (at >= 0) {
            String userinfo = authority.substring(0, at);
            for (int i = 0; i < userinfo.length(); i++) {
                char c = userinfo.charAt(i);
                boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                        || "-._:~!$&'()*+,;=%@".indexOf(c) >= 0;
                if (!ok) {
                    throw new UrlException("net/url: invalid userinfo");
                }
            }
            user = unescape(userinfo, Mode.USER);
        }
        return new String[] {host, user};
    }

    public String scheme() {
        return scheme;
    }

    public String user() {
        return user;
    }

    public String host() {
        return host;
    }

    public String rawQuery() {
        return rawQuery;
    }

    public String fragment() {
        return fragment;
    }

    private static String parseHost(String host) throws UrlException {
        int open = host.lastIndexOf('[');
        if (open > 0) {
            throw new UrlException("invalid IP-literal");
        }
        if (open == 0) {
            int close = host.lastIndexOf(']');
            if (close < 0) {
                throw new UrlException("missing ']' in host");
            }
            String colonPort = host.substring(close + 1);
            if (!validOptionalPort(colonPort)) {
                throw new UrlException("invalid port " + quote(colonPort) + " after host");
            }
            String hostname = host.substring(1, close);
            int zone = hostname.indexOf("%25");
            String unescaped = zone >= 0
                    ? unescape(hostname.substring(0, zone), Mode.HOST) + unescape(hostname.substring(zone), Mode.ZONE)
                    : unescape(hostname, Mode.HOST);
            // Only an IPv6 address may be enclosed in brackets (RFC 3986).
            IpAddress addr;
            try {
                addr = IpAddress.parseAddr(unescaped);
            } catch (IpAddress.ParseException e) {
                throw new UrlException("invalid host: " + e.getMessage());
            }
            if (addr.is4()) {
                throw new UrlException("invalid IP-literal");
            }
            return "[" + unescaped + "]" + colonPort;
        }
        int colon = host.lastIndexOf(':');
        if (colon >= 0) {
            String colonPort = host.substring(colon);
            if (!validOptionalPort(colonPort)) {
                throw new UrlException("invalid port " + quote(colonPort) + " after host");
            }
        }
        return unescape(host, Mode.HOST);
    }

    private static boolean validOptionalPort(String port) {
        if (port.isEmpty()) {
            return true;
        }
        if (port.charAt(0) != ':') {
            return false;
        }
        for (int i = 1; i < port.length(); i++) {
            if (port.charAt(i) < '0' || port.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    String hostname() {
        String h = splitHostPort()[0];
        return h;
    }

    String port() {
        return splitHostPort()[1];
    }

    private String[] splitHostPort() {
        String h = host;
        String p = "";
        int colon = h.lastIndexOf(':');
        if (colon >= 0 && validOptionalPort(h.substring(colon))) {
            p = h.substring(colon + 1);
            h = h.substring(0, colon);
        }
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        return new String[] {h, p};
    }

    String escapedPath() {
        if (!rawPath.isEmpty() && validEncoded(rawPath)) {
            try {
                if (unescape(rawPath, Mode.PATH).equals(path)) {
                    return rawPath;
                }
            } catch (UrlException e) {
                // fall through to escaping the decoded path
            }
        }
        if (path.equals("*")) {
            return "*";
        }
        return escape(path, Mode.PATH);
    }

    /** Go {@code url.Query()}: pairs that fail to parse (e.g. containing ';') are dropped. */
    Map<String, List<String>> query() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        String q = rawQuery;
        while (!q.isEmpty()) {
            int amp = q.indexOf('&');
            String key = amp < 0 ? q : q.substring(0, amp);
            q = amp < 0 ? "" : q.substring(amp + 1);
            if (key.contains(";") || key.isEmpty()) {
                continue;
            }
            int eq = key.indexOf('=');
            String value = eq < 0 ? "" : key.substring(eq + 1);
            key = eq < 0 ? key : key.substring(0, eq);
            try {
                String k = unescape(key, Mode.QUERY_COMPONENT);
                String v = unescape(value, Mode.QUERY_COMPONENT);
                m.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
            } catch (UrlException e) {
                // Go skips the pair
            }
        }
        return m;
    }

    private static boolean validEncoded(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ("!$&'()*+,;=:@[]%".indexOf(c) >= 0) {
                continue;
            }
            if (shouldEscape(c, Mode.PATH)) {
                return false;
            }
        }
        return true;
    }

    enum Mode { PATH, HOST, ZONE, USER, QUERY_COMPONENT, FRAGMENT }

    private static boolean shouldEscape(char c, Mode mode) {
        if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
            return false;
        }
        if (mode == Mode.HOST || mode == Mode.ZONE) {
            if ("!$&'()*+,;=:[]<>\"".indexOf(c) >= 0) {
                return false;
            }
        }
        if ("-_.~".indexOf(c) >= 0) {
            return false;
        }
        if ("$&+,/:;=?@".indexOf(c) >= 0) {
            switch (mode) {
                case PATH:
                    return c == '?';
                case USER:
                    return c == '@' || c == '/' || c == '?' || c == ':';
                case QUERY_COMPONENT:
                    return true;
                case FRAGMENT:
                    return false;
                default:
                    break;
            }
        }
        if (mode == Mode.FRAGMENT && "!()*".indexOf(c) >= 0) {
            return false;
        }
        return true;
    }

    static String unescape(String s, Mode mode) throws UrlException {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length);
        for (int i = 0; i < bytes.length; i++) {
            int b = bytes[i] & 0xff;
            if (b == '%') {
                if (i + 2 >= bytes.length || unhex(bytes[i + 1]) < 0 || unhex(bytes[i + 2]) < 0) {
                    String bad = new String(bytes, i, Math.min(3, bytes.length - i), StandardCharsets.UTF_8);
                    throw new UrlException("invalid URL escape " + quote(bad));
                }
                int v = unhex(bytes[i + 1]) << 4 | unhex(bytes[i + 2]);
                if (mode == Mode.HOST && unhex(bytes[i + 1]) < 8 && !(bytes[i + 1] == '2' && bytes[i + 2] == '5')) {
                    throw new UrlException("invalid URL escape " + quote(new String(bytes, i, 3, StandardCharsets.UTF_8)));
                }
                out.write(v);
                i += 2;
            } else if (b == '+' && mode == Mode.QUERY_COMPONENT) {
                out.write(' ');
            } else {
                if ((mode == Mode.HOST || mode == Mode.ZONE) && b < 0x80 && shouldEscape((char) b, mode)) {
                    throw new UrlException("invalid character " + quote(String.valueOf((char) b)) + " in host name");
                }
                out.write(b);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    static String escape(String s, Mode mode) {
        StringBuilder sb = new StringBuilder();
        for (byte raw : s.getBytes(StandardCharsets.UTF_8)) {
            int b = raw & 0xff;
            if (b < 0x80 && !shouldEscape((char) b, mode)) {
                sb.append((char) b);
            } else if (b == ' ' && mode == Mode.QUERY_COMPONENT) {
                sb.append('+');
            } else {
                sb.append('%').append("0123456789ABCDEF".charAt(b >> 4)).append("0123456789ABCDEF".charAt(b & 15));
            }
        }
        return sb.toString();
    }

    private static int unhex(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /** Go's {@code %q} for the strings that appear in these messages. */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                default -> {
                    if (c < ' ' || c == 0x7f) {
                        sb.append(String.format("\\x%02x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    /** A CelValue so that cel-java's {@code type()} reports the library type. */
    @Override
    public Object value() {
        return this;
    }

    @Override
    public OpaqueType celType() {
        return UrlLibrary.URL_TYPE;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GoUrl u && scheme.equals(u.scheme) && opaque.equals(u.opaque) && host.equals(u.host)
                && path.equals(u.path) && rawPath.equals(u.rawPath) && rawQuery.equals(u.rawQuery)
                && fragment.equals(u.fragment);
    }

    @Override
    public int hashCode() {
        return Objects.hash(scheme, opaque, host, path, rawQuery, fragment);
    }
}

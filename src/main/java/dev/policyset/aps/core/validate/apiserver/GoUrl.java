package dev.policyset.aps.core.validate.apiserver;

/**
 * Go's {@code net/url.Parse}, as far as webhook URL validation depends on it: which strings it refuses,
 * and the scheme, user info, host, query and fragment it finds. Only the parts that decide the API
 * server's verdict are modelled (paths are not unescaped into anything, but bad escapes are refused).
 */
record GoUrl(String scheme, String user, String host, String rawQuery, String fragment) {

    /** The parsed URL, or an {@link IllegalArgumentException} with Go's message. */
    static GoUrl parse(String raw) {
        String rest = raw;
        String fragment = "";
        int hash = rest.indexOf('#');
        if (hash >= 0) {
            fragment = unescape(rest.substring(hash + 1), false);
            rest = rest.substring(0, hash);
        }
        for (char c : rest.toCharArray()) {
            if (c < 0x20 || c == 0x7f) {
                throw new IllegalArgumentException("net/url: invalid control character in URL");
            }
        }
        String scheme = "";
        for (int i = 0; i < rest.length(); i++) {
            char c = rest.charAt(i);
            if (Character.isLetter(c) && c < 0x80) {
                continue;
            }
            if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.') {
                if (i == 0) {
                    break;
                }
                continue;
            }
            if (c == ':') {
                if (i == 0) {
                    throw new IllegalArgumentException("missing protocol scheme");
                }
                scheme = rest.substring(0, i).toLowerCase(java.util.Locale.ROOT);
                rest = rest.substring(i + 1);
            }
            break;
        }
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
                return new GoUrl(scheme, null, "", rawQuery, fragment); // opaque, e.g. "https:host"
            }
            int slash = rest.indexOf('/');
            String segment = slash < 0 ? rest : rest.substring(0, slash);
            if (segment.contains(":")) {
                throw new IllegalArgumentException("first path segment in URL cannot contain colon");
            }
        }
        String user = null;
        String host = "";
        if ((!scheme.isEmpty() || !rest.startsWith("///")) && rest.startsWith("//")) {
            String authority = rest.substring(2);
            int slash = authority.indexOf('/');
            if (slash >= 0) {
                rest = authority.substring(slash);
                authority = authority.substring(0, slash);
            } else {
                rest = "";
            }
            int at = authority.lastIndexOf('@');
            host = parseHost(at < 0 ? authority : authority.substring(at + 1));
            if (at >= 0) {
                user = authority.substring(0, at);
                for (char c : user.toCharArray()) {
                    if (!validUserinfo(c)) {
                        throw new IllegalArgumentException("net/url: invalid userinfo");
                    }
                }
                user = unescape(user, false);
            }
        }
        unescape(rest, false);
        return new GoUrl(scheme, user, host, rawQuery, fragment);
    }

    private static String parseHost(String host) {
        if (host.startsWith("[")) {
            int close = host.lastIndexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("missing ']' in host");
            }
            String colonPort = host.substring(close + 1);
            if (!validOptionalPort(colonPort)) {
                throw new IllegalArgumentException("invalid port \"" + colonPort + "\" after host");
            }
            return host;
        }
        int colon = host.lastIndexOf(':');
        if (colon >= 0 && !validOptionalPort(host.substring(colon))) {
            throw new IllegalArgumentException("invalid port \"" + host.substring(colon) + "\" after host");
        }
        return unescape(host, true);
    }

    private static boolean validOptionalPort(String port) {
        if (port.isEmpty()) {
            return true;
        }
        if (port.charAt(0) != ':') {
            return false;
        }
        return port.substring(1).chars().allMatch(c -> c >= '0' && c <= '9');
    }

    private static boolean validUserinfo(char c) {
        if (Character.isLetterOrDigit(c) && c < 0x80) {
            return true;
        }
        return "-._:~!$&'()*+,;=%@".indexOf(c) >= 0;
    }

    /** Checks percent-escapes (and, in a host, the characters Go refuses); returns the input unchanged. */
    private static String unescape(String s, boolean host) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length() || !isHex(s.charAt(i + 1)) || !isHex(s.charAt(i + 2))) {
                    String bad = s.substring(i, Math.min(s.length(), i + 3));
                    throw new IllegalArgumentException("invalid URL escape \"" + bad + "\"");
                }
                i += 2;
            } else if (host && c < 0x80 && !hostCharacter(c)) {
                throw new IllegalArgumentException("invalid character \"" + c + "\" in host name");
            }
        }
        return s;
    }

    private static boolean hostCharacter(char c) {
        return Character.isLetterOrDigit(c) || "-_.~!$&'()*+,;=:[]<>\"".indexOf(c) >= 0;
    }

    private static boolean isHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
}

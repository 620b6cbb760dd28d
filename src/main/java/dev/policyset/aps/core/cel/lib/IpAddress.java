package dev.policyset.aps.core.cel.lib;

import dev.cel.common.types.OpaqueType;
import dev.cel.common.values.OpaqueValue;

import java.util.Arrays;

/**
 * The {@code net.IP} value: an IPv4 or IPv6 address, parsed like Go's {@code netip.ParseAddr} (with its
 * error messages) plus the Kubernetes rules: no zone, no IPv4-mapped IPv6. Equality is on the address
 * (family and bytes), so {@code 2001:db8::1} equals {@code 2001:db8:0:0:0:0:0:1}.
 */
public final class IpAddress extends OpaqueValue {
    private final byte[] bytes;
    /** The zone of a parsed IPv6 address ("" for none); never part of an accepted {@code net.IP}. */
    private final String zone;

    private IpAddress(byte[] bytes) {
        this(bytes, "");
    }

    private IpAddress(byte[] bytes, String zone) {
        this.bytes = bytes;
        this.zone = zone;
    }

    /** A parse failure with Go's message. */
    static final class ParseException extends Exception {
        ParseException(String message) {
            super(message);
        }
    }

    /**
     * Kubernetes {@code parseIPAddr}: netip.ParseAddr (its error prefixed with
     * {@code IP Address "x" parse error during conversion from string: }), then rejects zones and
     * IPv4-mapped IPv6 addresses.
     */
    static IpAddress parseKubernetes(String raw) throws ParseException {
        IpAddress addr;
        try {
            addr = parseAddr(raw);
        } catch (ParseException e) {
            throw new ParseException("IP Address " + GoUrl.quote(raw) + " parse error during conversion from string: "
                    + e.getMessage());
        }
        if (!addr.zone.isEmpty()) {
            throw new ParseException("IP address " + GoUrl.quote(raw) + " with zone value is not allowed");
        }
        if (addr.is4In6()) {
            throw new ParseException("IPv4-mapped IPv6 address " + GoUrl.quote(raw) + " is not allowed");
        }
        return addr;
    }

    /** Go {@code netip.ParseAddr}; a zone is kept in {@link #zone()}. */
    static IpAddress parseAddr(String s) throws ParseException {
        for (int i = 0; i < s.length(); i++) {
            switch (s.charAt(i)) {
                case '.':
                    return parseIPv4(s);
                case ':':
                    return parseIPv6(s);
                case '%':
                    throw err(s, "missing IPv6 address", null);
                default:
                    break;
            }
        }
        throw err(s, "unable to parse IP", null);
    }

    private static ParseException err(String in, String msg, String at) {
        String text = "ParseAddr(" + GoUrl.quote(in) + "): " + msg;
        if (at != null && !at.isEmpty()) {
            text += " (at " + GoUrl.quote(at) + ")";
        }
        return new ParseException(text);
    }

    private static IpAddress parseIPv4(String in) throws ParseException {
        byte[] b = new byte[4];
        parseIPv4Fields(in, 0, in.length(), b, 0);
        return new IpAddress(b);
    }

    private static void parseIPv4Fields(String in, int off, int end, byte[] fields, int at) throws ParseException {
        int val = 0;
        int pos = 0;
        int digLen = 0;
        String s = in.substring(off, end);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                if (digLen == 1 && val == 0) {
                    throw err(in, "IPv4 field has octet with leading zero", null);
                }
                val = val * 10 + (c - '0');
                digLen++;
                if (val > 255) {
                    throw err(in, "IPv4 field has value >255", null);
                }
            } else if (c == '.') {
                if (i == 0 || i == s.length() - 1 || s.charAt(i - 1) == '.') {
                    throw err(in, "IPv4 field must have at least one digit", s.substring(i));
                }
                if (pos == 3) {
                    throw err(in, "IPv4 address too long", null);
                }
                fields[at + pos] = (byte) val;
                pos++;
                val = 0;
                digLen = 0;
            } else {
                throw err(in, "unexpected character", s.substring(i));
            }
        }
        if (pos < 3) {
            throw err(in, "IPv4 address too short", null);
        }
        fields[at + 3] = (byte) val;
    }

    private static IpAddress parseIPv6(String in) throws ParseException {
        String s = in;
        String zone = "";
        int pct = s.indexOf('%');
        if (pct >= 0) {
            zone = s.substring(pct + 1);
            s = s.substring(0, pct);
            if (zone.isEmpty()) {
                throw err(in, "zone must be a non-empty string", null);
            }
        }
        byte[] ip = new byte[16];
        int ellipsis = -1;
        if (s.length() >= 2 && s.charAt(0) == ':' && s.charAt(1) == ':') {
            ellipsis = 0;
            s = s.substring(2);
            if (s.isEmpty()) {
                return new IpAddress(ip, zone);
            }
        }
        int i = 0;
        while (i < 16) {
            int off = 0;
            int acc = 0;
            for (; off < s.length(); off++) {
                char c = s.charAt(off);
                if (c >= '0' && c <= '9') {
                    acc = (acc << 4) + (c - '0');
                } else if (c >= 'a' && c <= 'f') {
                    acc = (acc << 4) + (c - 'a' + 10);
                } else if (c >= 'A' && c <= 'F') {
                    acc = (acc << 4) + (c - 'A' + 10);
                } else {
                    break;
                }
                if (off > 3) {
                    throw err(in, "each colon-separated field must have at most 4 hex digits", s);
                }
                if (acc > 0xffff) {
                    throw err(in, "IPv6 field has value >=2^16", s);
                }
            }
            if (off == 0) {
                throw err(in, "each colon-separated field must have at least one digit", s);
            }
            if (off < s.length() && s.charAt(off) == '.') {
                if (ellipsis < 0 && i != 12) {
                    throw err(in, "embedded IPv4 address must replace the final 2 fields of the address", s);
                }
                if (i + 4 > 16) {
                    throw err(in, "too many hex fields to fit an embedded IPv4 at the end of the address", s);
                }
                int end = in.length();
                if (!zone.isEmpty()) {
                    end -= zone.length() + 1;
                }
                parseIPv4Fields(in, end - s.length(), end, ip, i);
                s = "";
                i += 4;
                break;
            }
            ip[i] = (byte) (acc >> 8);
            ip[i + 1] = (byte) acc;
            i += 2;
            s = s.substring(off);
            if (s.isEmpty()) {
                break;
            }
            if (s.charAt(0) != ':') {
                throw err(in, "unexpected character, want colon", s);
            } else if (s.length() == 1) {
                throw err(in, "colon must be followed by more characters", s);
            }
            s = s.substring(1);
            if (s.charAt(0) == ':') {
                if (ellipsis >= 0) {
                    throw err(in, "multiple :: in address", s);
                }
                ellipsis = i;
                s = s.substring(1);
                if (s.isEmpty()) {
                    break;
                }
            }
        }
        if (!s.isEmpty()) {
            throw err(in, "trailing garbage after address", s);
        }
        if (i < 16) {
            if (ellipsis < 0) {
                throw err(in, "address string too short", null);
            }
            int n = 16 - i;
            for (int j = i - 1; j >= ellipsis; j--) {
                ip[j + n] = ip[j];
            }
            Arrays.fill(ip, ellipsis, ellipsis + n, (byte) 0);
        } else if (ellipsis >= 0) {
            throw err(in, "the :: must expand to at least one field of zeros", s);
        }
        return new IpAddress(ip, zone);
    }

    String zone() {
        return zone;
    }

    static IpAddress of(byte[] bytes) {
        return new IpAddress(bytes.clone());
    }

    byte[] bytes() {
        return bytes.clone();
    }

    boolean is4() {
        return bytes.length == 4;
    }

    int bitLength() {
        return bytes.length * 8;
    }

    boolean is4In6() {
        if (bytes.length != 16) {
            return false;
        }
        for (int i = 0; i < 10; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff;
    }

    private int u(int i) {
        return bytes[i] & 0xff;
    }

    long family() {
        return is4() ? 4 : 6;
    }

    boolean isUnspecified() {
        for (byte b : bytes) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    boolean isLoopback() {
        if (is4()) {
            return u(0) == 127;
        }
        for (int i = 0; i < 15; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return u(15) == 1;
    }

    boolean isMulticast() {
        return is4() ? (u(0) & 0xf0) == 0xe0 : u(0) == 0xff;
    }

    boolean isLinkLocalMulticast() {
        return is4() ? u(0) == 224 && u(1) == 0 && u(2) == 0 : u(0) == 0xff && (u(1) & 0x0f) == 0x02;
    }

    boolean isLinkLocalUnicast() {
        return is4() ? u(0) == 169 && u(1) == 254 : u(0) == 0xfe && (u(1) & 0xc0) == 0x80;
    }

    boolean isGlobalUnicast() {
        if (is4() && (isUnspecified() || Arrays.equals(bytes, new byte[] {-1, -1, -1, -1}))) {
            return false;
        }
        return !isUnspecified() && !isLoopback() && !isMulticast() && !isLinkLocalUnicast();
    }

    /** Go's {@code Addr.String()}: dotted IPv4, RFC 5952 IPv6 (longest zero run of two or more as ::). */
    @Override
    public String toString() {
        if (is4()) {
            return u(0) + "." + u(1) + "." + u(2) + "." + u(3);
        }
        int zeroStart = -1;
        int zeroEnd = -1;
        for (int i = 0; i < 8; i++) {
            int j = i;
            while (j < 8 && group(j) == 0) {
                j++;
            }
            if (j - i >= 2 && j - i > zeroEnd - zeroStart) {
                zeroStart = i;
                zeroEnd = j;
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == zeroStart) {
                sb.append("::");
                i = zeroEnd - 1;
                continue;
            }
            if (i > 0 && i != zeroEnd) {
                sb.append(':');
            }
            sb.append(Integer.toHexString(group(i)));
        }
        return sb.toString();
    }

    private int group(int i) {
        return u(2 * i) << 8 | u(2 * i + 1);
    }

    /** A CelValue so that cel-java's {@code type()} reports the library type. */
    @Override
    public Object value() {
        return this;
    }

    @Override
    public OpaqueType celType() {
        return IpLibrary.IP_TYPE;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IpAddress other && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }
}

package dev.policyset.aps.core.cel.lib;

import dev.cel.common.types.OpaqueType;
import dev.cel.common.values.OpaqueValue;

import java.util.Objects;

/**
 * The {@code net.CIDR} value: an address and a prefix length, parsed like Go's {@code netip.ParsePrefix}
 * (host bits are kept; {@link #masked()} clears them). Equality compares address and length exactly.
 */
public final class Cidr extends OpaqueValue {
    private final IpAddress addr;
    private final int bits;

    private Cidr(IpAddress addr, int bits) {
        this.addr = addr;
        this.bits = bits;
    }

    /** Kubernetes {@code parseCIDR}: netip.ParsePrefix (error prefixed), then rejects IPv4-mapped IPv6. */
    static Cidr parseKubernetes(String raw) throws IpAddress.ParseException {
        Cidr c;
        try {
            c = parsePrefix(raw);
        } catch (IpAddress.ParseException e) {
            // Upstream's parseCIDR adds this prefix and stringToCIDR adds it again.
            throw new IpAddress.ParseException("network address parse error during conversion from string: " + e.getMessage());
        }
        if (c.addr.is4In6()) {
            throw new IpAddress.ParseException("IPv4-mapped IPv6 address " + GoUrl.quote(raw) + " is not allowed");
        }
        return c;
    }

    private static IpAddress.ParseException err(String in, String msg) {
        return new IpAddress.ParseException("netip.ParsePrefix(" + GoUrl.quote(in) + "): " + msg);
    }

    static Cidr parsePrefix(String s) throws IpAddress.ParseException {
        int slash = s.lastIndexOf('/');
        if (slash < 0) {
            throw err(s, "no '/'");
        }
        String addrPart = s.substring(0, slash);
        IpAddress ip;
        try {
            ip = IpAddress.parseAddr(addrPart);
        } catch (IpAddress.ParseException e) {
            throw err(s, e.getMessage());
        }
        if (!ip.zone().isEmpty()) {
            throw err(s, "IPv6 zones cannot be present in a prefix");
        }
        String bitsStr = s.substring(slash + 1);
        if (bitsStr.length() > 1 && (bitsStr.charAt(0) < '1' || bitsStr.charAt(0) > '9')) {
            throw err(s, "bad bits after slash: " + GoUrl.quote(bitsStr));
        }
        int bits;
        try {
            if (bitsStr.isEmpty() || !bitsStr.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new NumberFormatException();
            }
            if (bitsStr.length() > 18) {
                throw new NumberFormatException(); // strconv.Atoi: value out of range
            }
            long parsed = Long.parseLong(bitsStr);
            bits = parsed > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) parsed;
        } catch (NumberFormatException e) {
            throw err(s, "bad bits after slash: " + GoUrl.quote(bitsStr));
        }
        if (bits > ip.bitLength()) {
            throw err(s, "prefix length out of range");
        }
        return new Cidr(ip, bits);
    }

    IpAddress ip() {
        return addr;
    }

    long prefixLength() {
        return bits;
    }

    Cidr masked() {
        return new Cidr(mask(addr, bits), bits);
    }

    private static IpAddress mask(IpAddress a, int bits) {
        byte[] b = a.bytes();
        for (int i = 0; i < b.length; i++) {
            int keep = Math.max(0, Math.min(8, bits - 8 * i));
            b[i] = (byte) (b[i] & (0xff << (8 - keep)));
        }
        return IpAddress.of(b);
    }

    /** Go {@code Prefix.Contains}: same family and equal under this prefix's mask. */
    boolean containsIp(IpAddress ip) {
        return ip.is4() == addr.is4() && mask(ip, bits).equals(mask(addr, bits));
    }

    /** The other network lies inside this one (Kubernetes PR #130450: the argument is masked too). */
    boolean containsCidr(Cidr other) {
        return other.addr.is4() == addr.is4() && bits <= other.bits
                && mask(other.addr, bits).equals(mask(addr, bits));
    }

    @Override
    public String toString() {
        return addr + "/" + bits;
    }

    /** A CelValue so that cel-java's {@code type()} reports the library type. */
    @Override
    public Object value() {
        return this;
    }

    @Override
    public OpaqueType celType() {
        return CidrLibrary.CIDR_TYPE;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Cidr c && bits == c.bits && addr.equals(c.addr);
    }

    @Override
    public int hashCode() {
        return Objects.hash(addr, bits);
    }
}

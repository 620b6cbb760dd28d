package dev.policyset.aps.operator.webhook;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The few ASN.1 DER encodings an X.509 v3 certificate needs (ITU-T X.690, RFC 5280 section 4.1). The JDK reads
 * certificates ({@code CertificateFactory}) and signs ({@code Signature}) but has no public API to build one, so
 * this writes the TBSCertificate bytes that {@link CertificateIssuer} signs. Every method returns one complete TLV.
 */
final class Der {
    private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter GENERALIZED_TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'").withZone(ZoneOffset.UTC);

    private Der() {}

    static byte[] sequence(byte[]... parts) {
        return tlv(0x30, concat(parts));
    }

    static byte[] set(byte[]... parts) {
        return tlv(0x31, concat(parts));
    }

    static byte[] integer(BigInteger value) {
        return tlv(0x02, value.toByteArray());
    }

    static byte[] bool(boolean value) {
        return tlv(0x01, new byte[] {(byte) (value ? 0xff : 0x00)});
    }

    static byte[] octetString(byte[] value) {
        return tlv(0x04, value);
    }

    /** A BIT STRING of whole bytes (a signature, a key). */
    static byte[] bitString(byte[] value) {
        return tlv(0x03, concat(new byte[] {0}, value));
    }

    /** A BIT STRING of named bits (KeyUsage), {@code unusedBits} trailing zero bits of the last byte dropped. */
    static byte[] bitString(byte[] value, int unusedBits) {
        return tlv(0x03, concat(new byte[] {(byte) unusedBits}, value));
    }

    static byte[] utf8(String value) {
        return tlv(0x0c, value.getBytes(StandardCharsets.UTF_8));
    }

    /** RFC 5280 4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050; seconds, no fraction, Z. */
    static byte[] time(Instant instant) {
        return instant.atZone(ZoneOffset.UTC).getYear() < 2050
                ? tlv(0x17, UTC_TIME.format(instant).getBytes(StandardCharsets.US_ASCII))
                : tlv(0x18, GENERALIZED_TIME.format(instant).getBytes(StandardCharsets.US_ASCII));
    }

    static byte[] oid(String dotted) {
        String[] arcs = dotted.split("\\.");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(Integer.parseInt(arcs[0]) * 40 + Integer.parseInt(arcs[1]));
        for (int i = 2; i < arcs.length; i++) {
            long arc = Long.parseLong(arcs[i]);
            int groups = 1;
            for (long rest = arc >>> 7; rest != 0; rest >>>= 7) {
                groups++;
            }
            for (int g = groups - 1; g >= 0; g--) {
                int seven = (int) ((arc >>> (7 * g)) & 0x7f);
                out.write(g == 0 ? seven : seven | 0x80);
            }
        }
        return tlv(0x06, out.toByteArray());
    }

    /** {@code [n] EXPLICIT}: a constructed context tag around a complete encoding. */
    static byte[] explicit(int tag, byte[] inner) {
        return tlv(0xa0 | tag, inner);
    }

    /** {@code [n] IMPLICIT} of a primitive type: the context tag replaces the type's, the content stays. */
    static byte[] implicitPrimitive(int tag, byte[] content) {
        return tlv(0x80 | tag, content);
    }

    static byte[] tlv(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
        out.write(tag);
        int length = content.length;
        if (length < 0x80) {
            out.write(length);
        } else {
            int bytes = (Integer.SIZE - Integer.numberOfLeadingZeros(length) + 7) / 8;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) {
                out.write(length >>> (8 * i));
            }
        }
        out.writeBytes(content);
        return out.toByteArray();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}

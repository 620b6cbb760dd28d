package dev.policyset.aps.core.review;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Host name verification as the API server's Go TLS client does it ({@code crypto/x509: Certificate.VerifyHostname}),
 * which differs from Java's HTTPS check: only subjectAltNames count (a certificate with a DNS name in its Common
 * Name only fails with "certificate relies on legacy Common Name field", Go 1.15+), an IP address matches IP SANs
 * only, and a wildcard is a whole left-most label {@code *} matching exactly one label.
 */
public final class TlsNames {
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final int DNS = 2;
    private static final int IP = 7;

    private TlsNames() {}

    /** Null when {@code leaf} is valid for {@code host}, else Go's reason (prefixed {@code x509:}). */
    public static String problem(X509Certificate leaf, String host) {
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        List<String> dnsNames = new ArrayList<>();
        List<String> ips = new ArrayList<>();
        try {
            Collection<List<?>> sans = leaf.getSubjectAlternativeNames();
            if (sans != null) {
                for (List<?> san : sans) {
                    int type = (Integer) san.get(0);
                    if (type == DNS) {
                        dnsNames.add(String.valueOf(san.get(1)));
                    } else if (type == IP) {
                        ips.add(String.valueOf(san.get(1)));
                    }
                }
            }
        } catch (CertificateParsingException e) {
            return "x509: cannot parse the certificate's subjectAltName: " + e.getMessage();
        }
        if (isIp(h)) {
            byte[] want = address(h);
            for (String ip : ips) {
                if (isIp(ip) && Arrays.equals(address(ip), want)) {
                    return null;
                }
            }
            return ips.isEmpty() ? "x509: cannot validate certificate for " + h + " because it doesn't contain any IP SANs"
                    : "x509: certificate is valid for " + String.join(", ", ips) + ", not " + h;
        }
        String wanted = h.toLowerCase(Locale.ROOT);
        if (wanted.endsWith(".")) {
            wanted = wanted.substring(0, wanted.length() - 1);
        }
        for (String name : dnsNames) {
            if (matches(name.toLowerCase(Locale.ROOT), wanted)) {
                return null;
            }
        }
        if (dnsNames.isEmpty() && ips.isEmpty()) {
            String cn = leaf.getSubjectX500Principal().getName();
            return cn.contains("CN=") ? "x509: certificate relies on legacy Common Name field, use SANs instead (the "
                    + "certificate's subject is " + cn + "); reissue it with a subjectAltName DNS:" + h
                    : "x509: certificate is not valid for any names, but wanted to match " + h;
        }
        return "x509: certificate is valid for " + String.join(", ", dnsNames) + ", not " + h;
    }

    /** {@code crypto/x509: matchHostnames} for an already lower-cased pattern and host. */
    static boolean matches(String pattern, String host) {
        if (pattern.isEmpty() || host.isEmpty()) {
            return false;
        }
        String[] p = pattern.split("\\.", -1);
        String[] h = host.split("\\.", -1);
        if (p.length != h.length) {
            return false;
        }
        for (int i = 0; i < p.length; i++) {
            if (i == 0 && p[i].equals("*")) {
                continue;
            }
            if (!p[i].equals(h[i])) {
                return false;
            }
        }
        return true;
    }

    private static boolean isIp(String s) {
        return IPV4.matcher(s).matches() || s.contains(":");
    }

    /** A literal address; {@link InetAddress#getByName} does no lookup for one. */
    private static byte[] address(String literal) {
        try {
            return InetAddress.getByName(literal).getAddress();
        } catch (UnknownHostException e) {
            return new byte[0];
        }
    }
}

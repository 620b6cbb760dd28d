package dev.policyset.aps.operator.webhook;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** PEM text of the self-managed certificates: {@code CERTIFICATE} blocks and PKCS#8 {@code PRIVATE KEY}s. */
public final class Pem {
    private static final Pattern KEY = Pattern.compile("-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END PRIVATE KEY-----");

    private Pem() {}

    public static String certificate(X509Certificate certificate) {
        try {
            return block("CERTIFICATE", certificate.getEncoded());
        } catch (CertificateException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String privateKey(PrivateKey key) {
        return block("PRIVATE KEY", key.getEncoded());
    }

    /** Every certificate in {@code pem}, in order; an empty list for none; throws on a block that does not parse. */
    public static List<X509Certificate> certificates(String pem) throws CertificateException {
        List<X509Certificate> out = new ArrayList<>();
        if (pem == null || pem.isBlank()) {
            return out;
        }
        CertificateFactory factory = CertificateFactory.getInstance("X.509");
        for (var c : factory.generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))) {
            out.add((X509Certificate) c);
        }
        return out;
    }

    /** The PKCS#8 EC key in {@code pem}. */
    public static PrivateKey ecPrivateKey(String pem) throws GeneralSecurityException {
        Matcher m = KEY.matcher(pem == null ? "" : pem);
        if (!m.find()) {
            throw new GeneralSecurityException("no PKCS#8 PRIVATE KEY block");
        }
        byte[] der = Base64.getMimeDecoder().decode(m.group(1).strip());
        return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(der));
    }

    private static String block(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}

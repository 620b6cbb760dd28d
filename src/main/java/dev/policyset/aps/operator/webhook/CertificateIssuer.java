package dev.policyset.aps.operator.webhook;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.List;

/**
 * Issues the self-managed webhook's certificates with the JDK alone: a CA, and serving certificates it signs. EC P-256
 * keys with ECDSA-SHA256 signatures (what Go's {@code crypto/tls}, the JDK and Vert.x all accept; fast to generate,
 * unlike RSA). The profile follows what Kubernetes' own self-signed certificates carry
 * ({@code kubernetes/kubernetes: staging/src/k8s.io/client-go/util/cert/cert.go}, {@code GenerateSelfSignedCertKey}):
 * the CA is {@code basicConstraints CA:TRUE} with {@code keyCertSign}; the serving certificate is {@code CA:FALSE},
 * {@code digitalSignature}, extended key usage {@code serverAuth}, its names in subjectAltName (Go ignores the
 * common name since 1.15, so the SANs are what the API server checks).
 */
public final class CertificateIssuer {
    /** A certificate and its private key. */
    public record Issued(X509Certificate certificate, PrivateKey key) {
        public String certificatePem() {
            return Pem.certificate(certificate);
        }

        public String keyPem() {
            return Pem.privateKey(key);
        }
    }

    private static final String EC_PUBLIC_KEY_SHA256 = "1.2.840.10045.4.3.2"; // ecdsa-with-SHA256
    private static final String COMMON_NAME = "2.5.4.3";
    private static final String SUBJECT_KEY_ID = "2.5.29.14";
    private static final String KEY_USAGE = "2.5.29.15";
    private static final String SUBJECT_ALT_NAME = "2.5.29.17";
    private static final String BASIC_CONSTRAINTS = "2.5.29.19";
    private static final String AUTHORITY_KEY_ID = "2.5.29.35";
    private static final String EXTENDED_KEY_USAGE = "2.5.29.37";
    private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";

    private final SecureRandom random;

    public CertificateIssuer(SecureRandom random) {
        this.random = random;
    }

    /** A self-signed CA valid from {@code notBefore} to {@code notAfter}. */
    public Issued certificateAuthority(String commonName, Instant notBefore, Instant notAfter) {
        KeyPair key = keyPair();
        byte[] keyId = keyId(key);
        // keyCertSign (bit 5), cRLSign (bit 6), digitalSignature (bit 0): 1000 0110, the last bit unused.
        byte[] extensions = Der.sequence(
                extension(BASIC_CONSTRAINTS, true, Der.sequence(Der.bool(true))),
                extension(KEY_USAGE, true, Der.bitString(new byte[] {(byte) 0x86}, 1)),
                extension(SUBJECT_KEY_ID, false, Der.octetString(keyId)));
        return new Issued(sign(name(commonName), name(commonName), key, key.getPrivate(), notBefore, notAfter, extensions),
                key.getPrivate());
    }

    /** A serving certificate for {@code dnsNames}, signed by {@code ca}, valid from {@code notBefore} to {@code notAfter}. */
    public Issued serving(Issued ca, String commonName, List<String> dnsNames, Instant notBefore, Instant notAfter) {
        if (dnsNames.isEmpty()) {
            throw new IllegalArgumentException("a serving certificate needs at least one DNS name");
        }
        KeyPair key = keyPair();
        byte[] names = Der.sequence(dnsNames.stream()
                .map(n -> Der.implicitPrimitive(2, n.getBytes(java.nio.charset.StandardCharsets.US_ASCII)))
                .toArray(byte[][]::new));
        byte[] extensions = Der.sequence(
                extension(BASIC_CONSTRAINTS, true, Der.sequence()),
                // digitalSignature (bit 0) only: an ECDSA key signs the handshake and enciphers nothing.
                extension(KEY_USAGE, true, Der.bitString(new byte[] {(byte) 0x80}, 7)),
                extension(EXTENDED_KEY_USAGE, false, Der.sequence(Der.oid(SERVER_AUTH))),
                extension(SUBJECT_ALT_NAME, false, names),
                extension(SUBJECT_KEY_ID, false, Der.octetString(keyId(key))),
                extension(AUTHORITY_KEY_ID, false, Der.sequence(Der.implicitPrimitive(0, keyId(ca.certificate().getPublicKey())))));
        byte[] issuer = ca.certificate().getSubjectX500Principal().getEncoded();
        return new Issued(sign(issuer, name(commonName), key, ca.key(), notBefore, notAfter, extensions), key.getPrivate());
    }

    private X509Certificate sign(byte[] issuer, byte[] subject, KeyPair subjectKey, PrivateKey signer, Instant notBefore,
                                 Instant notAfter, byte[] extensions) {
        if (!notAfter.isAfter(notBefore)) {
            throw new IllegalArgumentException("notAfter " + notAfter + " is not after notBefore " + notBefore);
        }
        byte[] algorithm = Der.sequence(Der.oid(EC_PUBLIC_KEY_SHA256));
        byte[] tbs = Der.sequence(
                Der.explicit(0, Der.integer(BigInteger.TWO)), // v3
                Der.integer(new BigInteger(127, random).add(BigInteger.ONE)), // positive, at most 16 bytes (RFC 5280 4.1.2.2)
                algorithm,
                issuer,
                Der.sequence(Der.time(notBefore), Der.time(notAfter)),
                subject,
                subjectKey.getPublic().getEncoded(), // SubjectPublicKeyInfo, DER already
                Der.explicit(3, extensions));
        try {
            Signature ecdsa = Signature.getInstance("SHA256withECDSA");
            ecdsa.initSign(signer, random);
            ecdsa.update(tbs);
            byte[] certificate = Der.sequence(tbs, algorithm, Der.bitString(ecdsa.sign()));
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(certificate));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign a certificate with the JDK's SHA256withECDSA: " + e.getMessage(), e);
        }
    }

    private KeyPair keyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), random);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK cannot generate an EC P-256 key: " + e.getMessage(), e);
        }
    }

    private static byte[] name(String commonName) {
        return Der.sequence(Der.set(Der.sequence(Der.oid(COMMON_NAME), Der.utf8(commonName))));
    }

    private static byte[] extension(String oid, boolean critical, byte[] value) {
        return critical ? Der.sequence(Der.oid(oid), Der.bool(true), Der.octetString(value))
                : Der.sequence(Der.oid(oid), Der.octetString(value));
    }

    private static byte[] keyId(KeyPair key) {
        return keyId(key.getPublic());
    }

    /** RFC 5280 4.2.1.2 allows any method; this is the SHA-1 of the whole SubjectPublicKeyInfo. */
    private static byte[] keyId(java.security.PublicKey key) {
        try {
            return MessageDigest.getInstance("SHA-1").digest(key.getEncoded());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}

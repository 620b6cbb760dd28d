package dev.policyset.aps.testing.kube;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The certificates of a test control plane, as envtest makes them: one CA that signs the API server's serving
 * certificate (127.0.0.1 and localhost) and every client certificate (user = CN, groups = O), and a key pair for
 * service-account tokens. EC P-256 keys: fast to make, and Go, the JDK and fabric8 all read them.
 */
public final class KubePki {
    /** A certificate and its key, as PEM. */
    public record Issued(String certPem, String keyPem, X509Certificate certificate, java.security.PrivateKey key) {}

    private static final AtomicLong SERIAL = new AtomicLong(System.nanoTime());
    private final KeyPair caKey;
    private final X509Certificate ca;

    private KubePki(KeyPair caKey, X509Certificate ca) {
        this.caKey = caKey;
        this.ca = ca;
    }

    public static KubePki create(String name) {
        KeyPair key = keyPair();
        X500Name subject = new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, name).build();
        try {
            X509v3CertificateBuilder b = builder(subject, subject, key, Duration.ofDays(7));
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature));
            return new KubePki(key, sign(b, key));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String caPem() {
        return pem(ca);
    }

    public X509Certificate caCertificate() {
        return ca;
    }

    /** A serving certificate for 127.0.0.1, ::1 and localhost, plus {@code dnsNames}. */
    public Issued serving(String commonName, List<String> dnsNames, Duration validity) {
        List<GeneralName> names = new ArrayList<>(List.of(new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                new GeneralName(GeneralName.iPAddress, "::1"), new GeneralName(GeneralName.dNSName, "localhost")));
        dnsNames.forEach(n -> names.add(new GeneralName(GeneralName.dNSName, n)));
        return issue(new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, commonName).build(),
                KeyPurposeId.id_kp_serverAuth, new GeneralNames(names.toArray(GeneralName[]::new)), validity, keyPair());
    }

    /**
     * A client certificate the API server reads as {@code user} in {@code groups}. RSA: fabric8 reads a kubeconfig's
     * PKCS#8 key as RSA unless told otherwise (an EC one fails with "Invalid DER: object is not integer").
     */
    public Issued client(String user, List<String> groups) {
        X500NameBuilder subject = new X500NameBuilder(BCStyle.INSTANCE);
        groups.forEach(g -> subject.addRDN(BCStyle.O, g));
        subject.addRDN(BCStyle.CN, user);
        return issue(subject.build(), KeyPurposeId.id_kp_clientAuth, null, Duration.ofDays(7), rsaKeyPair());
    }

    /** A key pair for {@code --service-account-signing-key-file} / {@code --service-account-key-file}. */
    public static void writeServiceAccountKeys(Path privateKey, Path publicKey) {
        KeyPair key = keyPair();
        write(privateKey, pem(key.getPrivate()));
        write(publicKey, pem(key.getPublic()));
    }

    private Issued issue(X500Name subject, KeyPurposeId purpose, GeneralNames sans, Duration validity, KeyPair key) {
        try {
            X500Name issuer = new X500Name(ca.getSubjectX500Principal().getName());
            X509v3CertificateBuilder b = builder(issuer, subject, key, validity);
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
            b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
            if (sans != null) {
                b.addExtension(Extension.subjectAlternativeName, false, sans);
            }
            X509Certificate cert = sign(b, caKey);
            return new Issued(pem(cert), pem(key.getPrivate()), cert, key.getPrivate());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair key, Duration validity) {
        Instant now = Instant.now();
        return new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(SERIAL.incrementAndGet()),
                Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(validity)), subject, key.getPublic());
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, KeyPair signer) {
        try {
            ContentSigner contentSigner = new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate());
            return new JcaX509CertificateConverter().getCertificate(b.build(contentSigner));
        } catch (GeneralSecurityException | org.bouncycastle.operator.OperatorCreationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyPair rsaKeyPair() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(2048);
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyPair keyPair() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"));
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** PEM of a certificate or key (PKCS#8 for private keys, SubjectPublicKeyInfo for public ones). */
    static String pem(Object o) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(out)) {
            if (o instanceof java.security.PrivateKey k) {
                w.writeObject(new org.bouncycastle.util.io.pem.PemObject("PRIVATE KEY", k.getEncoded()));
            } else {
                w.writeObject(o);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    static void write(Path file, String content) {
        try {
            Files.writeString(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

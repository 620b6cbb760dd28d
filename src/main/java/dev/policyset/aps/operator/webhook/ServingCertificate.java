package dev.policyset.aps.operator.webhook;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemKeyCertOptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.Collections;
import javax.net.ssl.X509KeyManager;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The webhook's serving certificate and key, as PEM files mounted from a Secret. Where they are looked for, in
 * order (the first pair whose two files exist wins):
 * <ul>
 *   <li>{@code /tmp/k8s-webhook-server/serving-certs/tls.crt}, {@code tls.key}: controller-runtime's default
 *       directory, where config/components/cert-manager mounts cert-manager's Secret;
 *   <li>{@code /apiserver.local.config/certificates/apiserver.crt}, {@code apiserver.key}: where OLM mounts the
 *       certificate it issues for a CSV's {@code webhookdefinitions}
 *       ({@code operator-lifecycle-manager: pkg/controller/install/certresources.go}, volume {@code apiservice-cert}).
 * </ul>
 * Any key format Vert.x reads works (PKCS#8, PKCS#1 RSA as cert-manager writes by default, SEC1 EC as OLM writes).
 * A pair is only used when the key belongs to the certificate (a signature check), so a rotation caught between
 * the two files' writes is retried rather than served. The self-managed mode serves from its Secret instead
 * ({@link SecretCertificateSource}); both are a {@link CertificateSource}.
 *
 * @param source      where it came from, and where a rotation is looked for
 * @param keys        the key manager for this pair (what a TLS handshake asks)
 * @param fingerprint SHA-256 of both PEM texts: a change of either is a rotation
 */
public record ServingCertificate(CertificateSource source, X509KeyManager keys, X509Certificate leaf,
                                 String fingerprint) {
    /** PEM files on disk (a mounted Secret): cert-manager's, OLM's, or {@code aps.webhook.cert-dir}. */
    public record PemFiles(Path certFile, Path keyFile) implements CertificateSource {
        @Override
        public String fingerprint() throws IOException {
            return ServingCertificate.fingerprint(Files.readAllBytes(certFile), Files.readAllBytes(keyFile));
        }

        @Override
        public ServingCertificate load(Vertx vertx) {
            byte[] cert;
            byte[] key;
            try {
                cert = Files.readAllBytes(certFile);
                key = Files.readAllBytes(keyFile);
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read " + certFile + " or " + keyFile + ": " + e.getMessage(), e);
            }
            return of(this, cert, key, certFile.toString(), keyFile.toString(), vertx);
        }

        @Override
        public String describe() {
            return certFile.toString();
        }
    }

    /** The default places, as (certificate, key) pairs. */
    public static final List<List<Path>> DEFAULT_LOCATIONS = List.of(
            List.of(Path.of("/tmp/k8s-webhook-server/serving-certs/tls.crt"), Path.of("/tmp/k8s-webhook-server/serving-certs/tls.key")),
            List.of(Path.of("/apiserver.local.config/certificates/apiserver.crt"), Path.of("/apiserver.local.config/certificates/apiserver.key")));

    /** The pair to serve from: the first of {@code locations} whose two files both exist. */
    public static Optional<List<Path>> locate(List<List<Path>> locations) {
        return locations.stream().filter(p -> Files.isRegularFile(p.get(0)) && Files.isRegularFile(p.get(1))).findFirst();
    }

    /** {@code certFile} (with its chain) and {@code keyFile}, checked to belong together. */
    public static ServingCertificate read(Path certFile, Path keyFile, Vertx vertx) {
        return new PemFiles(certFile, keyFile).load(vertx);
    }

    /**
     * {@code cert} (with its chain) and {@code key} as PEM from {@code source}, checked to belong together; the
     * messages name {@code certName} and {@code keyName} (files, or a Secret's keys).
     */
    static ServingCertificate of(CertificateSource source, byte[] cert, byte[] key, String certName, String keyName,
                                 Vertx vertx) {
        PemKeyCertOptions pem = new PemKeyCertOptions().setCertValue(Buffer.buffer(cert)).setKeyValue(Buffer.buffer(key));
        X509KeyManager keys;
        X509Certificate leaf;
        PrivateKey privateKey;
        try {
            KeyStore store = pem.loadKeyStore(vertx);
            String alias = Collections.list(store.aliases()).get(0);
            leaf = (X509Certificate) store.getCertificateChain(alias)[0];
            // Vert.x keeps the PEM key in an in-memory key store under its fixed password (a compile-time constant).
            privateKey = (PrivateKey) store.getKey(alias, io.vertx.core.net.impl.KeyStoreHelper.DUMMY_PASSWORD.toCharArray());
            keys = (X509KeyManager) pem.getKeyManagerFactory(vertx).getKeyManagers()[0];
        } catch (Exception e) {
            throw new IllegalArgumentException("cannot use " + certName + " and " + keyName + " as a PEM certificate and key: "
                    + e.getMessage(), e);
        }
        if (!belongTogether(privateKey, leaf)) {
            throw new IllegalArgumentException(keyName + " is not the key of the certificate in " + certName
                    + " (a rotation in progress, or a wrong Secret)");
        }
        return new ServingCertificate(source, keys, leaf, fingerprint(cert, key));
    }

    /** For the log: subject, expiry and where it came from. */
    public String describe() {
        return "certificate " + leaf.getSubjectX500Principal().getName() + " (valid until " + leaf.getNotAfter().toInstant()
                + ") from " + source.describe();
    }

    /** Whether {@code key} is the private key of {@code cert}: a signature made with one verifies with the other. */
    static boolean belongTogether(PrivateKey key, X509Certificate cert) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "Ed25519", "EdDSA" -> "Ed25519";
            default -> null;
        };
        if (algorithm == null) {
            return true; // no check we know for this key type; the TLS handshake will tell
        }
        try {
            byte[] probe = "admission-policy-operator webhook key check".getBytes(StandardCharsets.UTF_8);
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(cert.getPublicKey());
            verifier.update(probe);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false; // e.g. an RSA key beside an EC certificate
        }
    }

    static String fingerprint(byte[] cert, byte[] key) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(cert);
            sha.update((byte) 0);
            sha.update(key);
            return HexFormat.of().formatHex(sha.digest());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}

package dev.policyset.aps.operator.webhook;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Self-signed serving certificates for tests, made by the JDK's own {@code keytool} (no BouncyCastle, no internal JDK
 * API) and written as PEM the way cert-manager and OLM write them: {@code tls.crt}, and {@code tls.key} as PKCS#8
 * ({@code BEGIN PRIVATE KEY}) or, for RSA, PKCS#1 ({@code BEGIN RSA PRIVATE KEY}, cert-manager's default encoding).
 */
public final class TestCertificates {
    /** One generated pair. */
    public record Pair(X509Certificate certificate, PrivateKey key) {
        public String certPem() throws Exception {
            return pem("CERTIFICATE", certificate.getEncoded());
        }

        String keyPem() {
            return pem("PRIVATE KEY", key.getEncoded());
        }

        /** PKCS#1 {@code RSAPrivateKey}: the OCTET STRING inside the JDK's PKCS#8 encoding of a 2048-bit key. */
        String rsaKeyPem() {
            byte[] pkcs8 = key.getEncoded();
            if (!"RSA".equals(key.getAlgorithm()) || pkcs8[22] != 0x04 || pkcs8[23] != (byte) 0x82) {
                throw new IllegalStateException("not the JDK's PKCS#8 encoding of a 2048-bit RSA key");
            }
            byte[] pkcs1 = java.util.Arrays.copyOfRange(pkcs8, 26, pkcs8.length);
            return pem("RSA PRIVATE KEY", pkcs1);
        }

        /** Writes {@code tls.crt} and {@code tls.key} into {@code dir}. */
        public void writeTo(Path dir, boolean pkcs1) throws Exception {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("tls.crt"), certPem());
            Files.writeString(dir.resolve("tls.key"), pkcs1 ? rsaKeyPem() : keyPem());
        }
    }

    private TestCertificates() {}

    /** A certificate for {@code localhost} and 127.0.0.1, valid two days; {@code algorithm} EC or RSA. */
    public static Pair generate(Path work, String commonName, String algorithm) throws Exception {
        return generate(work, commonName, algorithm, "dns:localhost,ip:127.0.0.1");
    }

    /**
     * @param san keytool's SAN value, e.g. {@code dns:hook.system.svc} for the name the API server verifies; null for
     *            none (a certificate that names its host by Common Name only, which Go's TLS refuses)
     */
    public static Pair generate(Path work, String commonName, String algorithm, String san) throws Exception {
        Files.createDirectories(work);
        Path store = Files.createTempFile(work, "keystore", ".p12");
        Files.delete(store);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "webhook", "-keyalg", algorithm));
        command.addAll(algorithm.equals("EC") ? List.of("-groupname", "secp256r1") : List.of("-keysize", "2048"));
        command.addAll(List.of("-dname", "CN=" + commonName, "-validity", "2",
                "-keystore", store.toString(), "-storetype", "PKCS12", "-storepass", "changeit", "-keypass", "changeit"));
        if (san != null) {
            command.addAll(List.of("-ext", "SAN=" + san));
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException("keytool failed: " + output);
        }
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keyStore.load(in, "changeit".toCharArray());
        }
        return new Pair((X509Certificate) keyStore.getCertificate("webhook"),
                (PrivateKey) keyStore.getKey("webhook", "changeit".toCharArray()));
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der) + "\n-----END " + type + "-----\n";
    }
}

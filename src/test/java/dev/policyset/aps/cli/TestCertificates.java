package dev.policyset.aps.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;

/**
 * The webhook tests' certificates ({@link dev.policyset.aps.operator.webhook.TestCertificates}, made by the JDK's
 * own {@code keytool}) in the form the CLI tests need: a PKCS12 keystore for the in-test server and the certificate
 * as PEM for {@code --ca}.
 */
final class TestCertificates {
    static final String PASSWORD = "changeit";

    /** The keystore and the PEM of one certificate. */
    record Pair(Path keystore, Path pem) {}

    private TestCertificates() {}

    /** @param san keytool's SAN value, e.g. {@code dns:localhost,ip:127.0.0.1}; null for none (Common Name only) */
    static Pair create(Path dir, String alias, String san) throws IOException {
        Path ks = dir.resolve(alias + ".p12");
        Path pem = dir.resolve(alias + ".pem");
        try {
            var pair = dev.policyset.aps.operator.webhook.TestCertificates.generate(dir.resolve(alias + "-work"), alias, "EC", san);
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry(alias, pair.key(), PASSWORD.toCharArray(), new Certificate[]{pair.certificate()});
            try (OutputStream out = Files.newOutputStream(ks)) {
                store.store(out, PASSWORD.toCharArray());
            }
            Files.writeString(pem, pair.certPem());
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("cannot make the test certificate " + alias + ": " + e.getMessage(), e);
        }
        return new Pair(ks, pem);
    }
}

package dev.policyset.aps.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Self-signed serving certificates for the HTTPS tests, made by the JDK's own {@code keytool} (no test dependency,
 * no checked-in key): a PKCS12 keystore for the server and the certificate as PEM for {@code --ca}.
 */
final class TestCertificates {
    static final String PASSWORD = "changeit";

    /** The keystore and the PEM of one certificate. */
    record Pair(Path keystore, Path pem) {}

    private TestCertificates() {}

    /** @param san keytool's SAN value, e.g. {@code dns:localhost,ip:127.0.0.1}; null for none (Common Name only) */
    static Pair create(Path dir, String alias, String san) throws IOException, InterruptedException {
        Path ks = dir.resolve(alias + ".p12");
        Path pem = dir.resolve(alias + ".pem");
        List<String> gen = new ArrayList<>(List.of(keytool(), "-genkeypair", "-alias", alias, "-keyalg", "EC",
                "-groupname", "secp256r1", "-dname", "CN=" + alias, "-validity", "2", "-keystore", ks.toString(),
                "-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD));
        if (san != null) {
            gen.addAll(List.of("-ext", "SAN=" + san));
        }
        run(gen);
        // the PEM is written from the keystore here rather than by a second keytool process (one JVM start less)
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(ks)) {
            java.security.KeyStore store = java.security.KeyStore.getInstance("PKCS12");
            store.load(in, PASSWORD.toCharArray());
            byte[] der = store.getCertificate(alias).getEncoded();
            java.nio.file.Files.writeString(pem, "-----BEGIN CERTIFICATE-----\n"
                    + java.util.Base64.getMimeEncoder(64, new byte[]{'\n'}).encodeToString(der)
                    + "\n-----END CERTIFICATE-----\n");
        } catch (java.security.GeneralSecurityException e) {
            throw new IOException("cannot read the keystore keytool wrote: " + e.getMessage(), e);
        }
        return new Pair(ks, pem);
    }

    private static String keytool() {
        return Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("keytool failed: " + command + "\n" + output);
        }
    }
}

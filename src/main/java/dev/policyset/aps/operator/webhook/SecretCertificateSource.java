package dev.policyset.aps.operator.webhook;

import io.vertx.core.Vertx;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The self-managed serving certificate as last read from its Secret ({@code tls.crt}, {@code tls.key}). Whoever reads
 * the Secret calls {@link #update}; the webhook server picks the change up at its next reload check, like a rotated
 * file, so every replica serves what the leader wrote without a restart and without a volume (no kubelet delay).
 */
public final class SecretCertificateSource implements CertificateSource {
    private record Pair(byte[] cert, byte[] key) {}

    private final String secret;
    private volatile Pair current;

    /** {@code secret}: namespace/name, for messages. */
    public SecretCertificateSource(String secret) {
        this.secret = secret;
    }

    /** The Secret's {@code tls.crt} and {@code tls.key} as read now. */
    public void update(String certPem, String keyPem) {
        current = new Pair(certPem.getBytes(StandardCharsets.US_ASCII), keyPem.getBytes(StandardCharsets.US_ASCII));
    }

    public boolean present() {
        return current != null;
    }

    @Override
    public String fingerprint() throws IOException {
        Pair p = current;
        if (p == null) {
            throw new IOException("Secret " + secret + " not read yet");
        }
        return ServingCertificate.fingerprint(p.cert(), p.key());
    }

    @Override
    public ServingCertificate load(Vertx vertx) {
        Pair p = current;
        if (p == null) {
            throw new IllegalArgumentException("Secret " + secret + " has no serving certificate yet");
        }
        return ServingCertificate.of(this, p.cert(), p.key(), "Secret " + secret + " key " + CertificateRotation.TLS_CRT,
                "Secret " + secret + " key " + CertificateRotation.TLS_KEY, vertx);
    }

    @Override
    public String describe() {
        return "Secret " + secret;
    }
}

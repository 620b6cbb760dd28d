package dev.policyset.aps.operator.webhook;

import io.vertx.core.Vertx;

import java.io.IOException;

/**
 * Where the webhook's serving certificate comes from, asked again every reload period: mounted PEM files
 * ({@link ServingCertificate.PemFiles}: cert-manager, OLM) or the self-managed Secret ({@link SecretCertificateSource}).
 */
public interface CertificateSource {
    /** Cheap enough to ask every few seconds; changes whenever the certificate or key does. */
    String fingerprint() throws IOException;

    /** The pair as it is now, checked to belong together; throws {@link IllegalArgumentException} saying what is wrong. */
    ServingCertificate load(Vertx vertx);

    /** For the log: where it comes from. */
    String describe();
}

package dev.policyset.aps.operator.webhook;

import io.vertx.core.Vertx;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JDK-only certificates: what they contain (read back by the JDK's own X.509 parser), that a PKIX validator
 * accepts the chain at the right times only, and that a TLS client verifying the host name completes a handshake
 * with the webhook server serving them.
 */
class CertificateIssuerTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private final CertificateIssuer issuer = new CertificateIssuer(new SecureRandom());

    @Test
    void caAndServingCertificateCarryTheKubernetesProfile() throws Exception {
        CertificateIssuer.Issued ca = issuer.certificateAuthority("test-ca@1", T0, T0.plusSeconds(3600));
        X509Certificate c = ca.certificate();
        assertEquals("CN=test-ca@1", c.getSubjectX500Principal().getName());
        assertEquals(c.getSubjectX500Principal(), c.getIssuerX500Principal());
        assertEquals(Integer.MAX_VALUE, c.getBasicConstraints(), "CA:TRUE without a path length");
        assertArrayEquals(new boolean[] {true, false, false, false, false, true, true, false, false}, c.getKeyUsage());
        assertEquals(Date.from(T0), c.getNotBefore());
        assertEquals(Date.from(T0.plusSeconds(3600)), c.getNotAfter());
        assertEquals(3, c.getVersion());
        c.verify(c.getPublicKey());

        CertificateIssuer.Issued leaf = issuer.serving(ca, "svc.ns.svc", List.of("svc.ns.svc", "svc.ns"), T0, T0.plusSeconds(60));
        X509Certificate l = leaf.certificate();
        assertEquals(-1, l.getBasicConstraints(), "CA:FALSE");
        assertEquals(c.getSubjectX500Principal(), l.getIssuerX500Principal());
        assertEquals(List.of("1.3.6.1.5.5.7.3.1"), l.getExtendedKeyUsage());
        assertEquals(Set.of("svc.ns.svc", "svc.ns"), CertificateRotation.dnsNames(l));
        assertTrue(l.getKeyUsage()[0], "digitalSignature");
        assertTrue(l.getCriticalExtensionOIDs().containsAll(Set.of("2.5.29.15", "2.5.29.19")));
        l.verify(c.getPublicKey());
        assertTrue(ServingCertificate.belongTogether(leaf.key(), l));
        // Read back from its PEM, as the Secret holds it.
        assertEquals(l, Pem.certificates(leaf.certificatePem()).get(0));
        assertEquals(leaf.key(), Pem.ecPrivateKey(leaf.keyPem()));
    }

    @Test
    void aPkixValidatorAcceptsTheChainOnlyWhileBothAreValid() throws Exception {
        CertificateIssuer.Issued ca = issuer.certificateAuthority("test-ca@2", T0, T0.plusSeconds(7200));
        CertificateIssuer.Issued leaf = issuer.serving(ca, "a.b.svc", List.of("a.b.svc"), T0, T0.plusSeconds(3600));
        validate(leaf, ca, T0.plusSeconds(10));
        assertThrows(CertPathValidatorException.class, () -> validate(leaf, ca, T0.plusSeconds(3601)), "leaf expired");
        assertThrows(CertPathValidatorException.class, () -> validate(leaf, ca, T0.minusSeconds(1)), "not yet valid");
        CertificateIssuer.Issued stranger = issuer.certificateAuthority("test-ca@2", T0, T0.plusSeconds(7200));
        assertThrows(CertPathValidatorException.class, () -> validate(leaf, stranger, T0.plusSeconds(10)),
                "a CA of the same name but another key");
    }

    @Test
    void timesFrom2050AreGeneralizedTime() {
        Instant late = Instant.parse("2051-06-01T12:00:00Z");
        CertificateIssuer.Issued ca = issuer.certificateAuthority("long", T0, late);
        assertEquals(Date.from(late), ca.certificate().getNotAfter());
        assertThrows(IllegalArgumentException.class, () -> issuer.certificateAuthority("backwards", T0, T0));
    }

    @Test
    void aTlsClientThatChecksTheHostNameTrustsTheServedCertificate() throws Exception {
        Instant now = Instant.now();
        CertificateIssuer.Issued ca = issuer.certificateAuthority("test-ca@3", now.minusSeconds(60), now.plusSeconds(3600));
        CertificateIssuer.Issued leaf = issuer.serving(ca, "localhost", List.of("localhost"), now.minusSeconds(60), now.plusSeconds(600));
        SecretCertificateSource source = new SecretCertificateSource("ns/secret");
        source.update(leaf.certificatePem(), leaf.keyPem());
        Vertx vertx = Vertx.vertx();
        try (WebhookServer server = WebhookServer.start(vertx, "127.0.0.1", 0, source.load(vertx), java.time.Duration.ofSeconds(10),
                new AdmissionReviewHandler(null, () -> null), (o, d) -> {}).toCompletionStage().toCompletableFuture().join()) {
            assertEquals(leaf.certificate(), handshake(server.port(), ca, "localhost"));
            CertificateIssuer.Issued other = issuer.certificateAuthority("test-ca@3", now.minusSeconds(60), now.plusSeconds(3600));
            assertThrows(SSLHandshakeException.class, () -> handshake(server.port(), other, "localhost"), "another CA");
            assertThrows(SSLHandshakeException.class, () -> handshake(server.port(), ca, "elsewhere.example"), "another name");
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    static X509Certificate handshake(int port, CertificateIssuer.Issued ca, String host) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", ca.certificate());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, tmf.getTrustManagers(), null);
        // Connected to 127.0.0.1 but verified as `host`, as the API server verifies <svc>.<ns>.svc.
        try (java.net.Socket plain = new java.net.Socket("127.0.0.1", port);
             SSLSocket socket = (SSLSocket) ssl.getSocketFactory().createSocket(plain, host, port, true)) {
            SSLParameters p = socket.getSSLParameters();
            p.setEndpointIdentificationAlgorithm("HTTPS");
            socket.setSSLParameters(p);
            socket.startHandshake();
            return (X509Certificate) socket.getSession().getPeerCertificates()[0];
        }
    }

    private static void validate(CertificateIssuer.Issued leaf, CertificateIssuer.Issued ca, Instant at) throws Exception {
        PKIXParameters params = new PKIXParameters(Set.of(new TrustAnchor(ca.certificate(), null)));
        params.setRevocationEnabled(false);
        params.setDate(Date.from(at));
        CertPathValidator.getInstance("PKIX").validate(
                CertificateFactory.getInstance("X.509").generateCertPath(List.of(leaf.certificate())), params);
    }
}

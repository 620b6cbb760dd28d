package dev.policyset.aps.operator.webhook;

import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decides what the self-managed webhook Secret must hold at a given time: pure (the time, the Secret's contents and
 * the settings in; the contents to write, if any, out), so every threshold is tested without a cluster or a clock.
 *
 * <p>The Secret holds {@value #CA_CRT} (every CA the API server must trust, newest first: the caBundle),
 * {@value #CA_KEY} (the newest CA's key), {@value #TLS_CRT} and {@value #TLS_KEY} (the serving certificate).
 *
 * <p>The CA is rotated with overlap, so that the API server never meets a serving certificate it does not trust:
 * <ol>
 *   <li>when the newest CA is within {@code caRenewBefore} of its expiry, a new CA is added in front of the bundle;
 *       the serving certificate stays (its CA is still in the bundle), and the leader injects the two-CA bundle;
 *   <li>once the new CA has been in the bundle for {@code caPropagation} (the API server reloads a webhook
 *       configuration within seconds), the serving certificate is re-issued by the new CA;
 *   <li>the old CA leaves the bundle when it expires.
 * </ol>
 * The serving certificate is re-issued when it is within {@code certRenewBefore} of expiry, has other names than
 * wanted, does not belong to its key, or no trusted CA signed it. Anything unreadable starts again from a new CA.
 */
public final class CertificateRotation {
    public static final String CA_CRT = "ca.crt";
    public static final String CA_KEY = "ca.key";
    public static final String TLS_CRT = "tls.crt";
    public static final String TLS_KEY = "tls.key";
    public static final String CA_NAME_PREFIX = "admission-policy-operator-webhook-ca@";
    /** notBefore lies this far in the past, so that a replica or API server whose clock is behind accepts it. */
    static final Duration BACKDATE = Duration.ofMinutes(1);

    /**
     * How long certificates live and when they are replaced ({@code aps.webhook.self-managed.*}, docs/install.md).
     */
    public record Settings(Duration caValidity, Duration caRenewBefore, Duration certValidity, Duration certRenewBefore,
                           Duration caPropagation) {
        public Settings {
            require(caRenewBefore.compareTo(caValidity) < 0, "ca-renew-before (" + caRenewBefore
                    + ") must be shorter than ca-validity (" + caValidity + ")");
            require(certRenewBefore.compareTo(certValidity) < 0, "cert-renew-before (" + certRenewBefore
                    + ") must be shorter than cert-validity (" + certValidity + ")");
            require(caPropagation.compareTo(caRenewBefore) < 0, "ca-propagation (" + caPropagation
                    + ") must be shorter than ca-renew-before (" + caRenewBefore + "), or the old CA expires before the "
                    + "serving certificate moves to the new one");
            require(!caPropagation.isNegative() && !certRenewBefore.isNegative(), "durations must not be negative");
        }

        private static void require(boolean ok, String problem) {
            if (!ok) {
                throw new IllegalArgumentException("aps.webhook.self-managed: " + problem);
            }
        }
    }

    /**
     * The outcome of one look at the Secret.
     *
     * @param contents the contents it must hold from now on (PEM text by key); equal to the input when nothing changes
     * @param changes  what changed and why, one line each; empty when nothing did
     */
    public record Plan(Map<String, String> contents, List<String> changes) {
        public boolean changed() {
            return !changes.isEmpty();
        }

        /** The caBundle: every CA the API server must trust now. */
        public String caBundle() {
            return contents.get(CA_CRT);
        }
    }

    private final Settings settings;
    private final CertificateIssuer issuer;

    public CertificateRotation(Settings settings, CertificateIssuer issuer) {
        this.settings = settings;
        this.issuer = issuer;
    }

    /** What {@code current} (the Secret's data as text; missing keys absent) must become at {@code now}. */
    public Plan plan(Map<String, String> current, List<String> dnsNames, Instant now) {
        List<String> changes = new ArrayList<>();
        Optional<CertificateIssuer.Issued> newest = newestCa(current, now, changes);
        List<X509Certificate> trusted = new ArrayList<>();
        CertificateIssuer.Issued ca;
        if (newest.isEmpty()) {
            ca = newCa(now);
            trusted.add(ca.certificate());
            changes.add("created CA " + subject(ca.certificate()) + " (valid until " + notAfter(ca.certificate()) + ")");
        } else {
            ca = newest.get();
            List<X509Certificate> all = certificates(current.get(CA_CRT));
            for (X509Certificate c : all) {
                if (notAfter(c).isAfter(now)) {
                    trusted.add(c);
                } else {
                    changes.add("dropped expired CA " + subject(c) + " from the bundle");
                }
            }
        }

        String tlsCrt = current.get(TLS_CRT);
        String tlsKey = current.get(TLS_KEY);
        Optional<String> leafProblem = newest.isEmpty() ? Optional.of("a new CA") : leafProblem(tlsCrt, tlsKey, trusted, dnsNames, now);
        X509Certificate leaf = leafProblem.isEmpty() ? certificates(tlsCrt).get(0) : null;
        if (leafProblem.isPresent()) {
            CertificateIssuer.Issued issued = serve(ca, dnsNames, now);
            tlsCrt = issued.certificatePem();
            tlsKey = issued.keyPem();
            changes.add("issued serving certificate for " + dnsNames + " by " + subject(ca.certificate()) + " (valid until "
                    + notAfter(issued.certificate()) + "): " + leafProblem.get());
        } else if (!signedBy(leaf, ca.certificate().getPublicKey()) && propagated(ca.certificate(), now)) {
            CertificateIssuer.Issued issued = serve(ca, dnsNames, now);
            tlsCrt = issued.certificatePem();
            tlsKey = issued.keyPem();
            changes.add("re-issued serving certificate by the newest CA " + subject(ca.certificate())
                    + ", in the caBundle since " + notBefore(ca.certificate()).plus(BACKDATE));
        }

        if (!notAfter(ca.certificate()).minus(settings.caRenewBefore()).isAfter(now)) {
            CertificateIssuer.Issued next = newCa(now);
            trusted.add(0, next.certificate());
            changes.add("added CA " + subject(next.certificate()) + " in front of " + subject(ca.certificate())
                    + " (which expires " + notAfter(ca.certificate()) + "); the serving certificate moves to it after "
                    + settings.caPropagation());
            ca = next;
        }

        Map<String, String> contents = new LinkedHashMap<>();
        contents.put(CA_CRT, String.join("", trusted.stream().map(Pem::certificate).toList()));
        contents.put(CA_KEY, newest.isPresent() && ca == newest.get() ? current.get(CA_KEY) : ca.keyPem());
        contents.put(TLS_CRT, tlsCrt);
        contents.put(TLS_KEY, tlsKey);
        return new Plan(contents, changes);
    }

    /** The newest CA with its key, when the Secret holds a usable one; says why not otherwise. */
    private Optional<CertificateIssuer.Issued> newestCa(Map<String, String> current, Instant now, List<String> changes) {
        if (current.get(CA_CRT) == null || current.get(CA_CRT).isBlank()) {
            return Optional.empty();
        }
        List<X509Certificate> cas;
        PrivateKey key;
        try {
            cas = Pem.certificates(current.get(CA_CRT));
            key = Pem.ecPrivateKey(current.get(CA_KEY));
        } catch (GeneralSecurityException | RuntimeException e) {
            changes.add("replaced unreadable " + CA_CRT + "/" + CA_KEY + " (" + e.getMessage() + ")");
            return Optional.empty();
        }
        if (cas.isEmpty() || cas.get(0).getBasicConstraints() < 0 || !notAfter(cas.get(0)).isAfter(now)
                || !ServingCertificate.belongTogether(key, cas.get(0))) {
            changes.add("replaced the CA: the first certificate of " + CA_CRT + " is no CA, has expired or is not the "
                    + "certificate of " + CA_KEY);
            return Optional.empty();
        }
        return Optional.of(new CertificateIssuer.Issued(cas.get(0), key));
    }

    private Optional<String> leafProblem(String tlsCrt, String tlsKey, List<X509Certificate> trusted, List<String> dnsNames,
                                         Instant now) {
        X509Certificate leaf;
        PrivateKey key;
        try {
            List<X509Certificate> chain = Pem.certificates(tlsCrt);
            if (chain.isEmpty()) {
                return Optional.of("none yet");
            }
            leaf = chain.get(0);
            key = Pem.ecPrivateKey(tlsKey);
        } catch (GeneralSecurityException | RuntimeException e) {
            return Optional.of("the old one is unreadable (" + e.getMessage() + ")");
        }
        if (!ServingCertificate.belongTogether(key, leaf)) {
            return Optional.of(TLS_KEY + " is not the key of " + TLS_CRT);
        }
        if (trusted.stream().noneMatch(ca -> signedBy(leaf, ca.getPublicKey()))) {
            return Optional.of("no CA in the bundle signed the old one");
        }
        if (!Set.copyOf(dnsNames).equals(dnsNames(leaf))) {
            return Optional.of("the old one is for " + dnsNames(leaf));
        }
        if (!notAfter(leaf).minus(settings.certRenewBefore()).isAfter(now)) {
            return Optional.of("the old one expires " + notAfter(leaf) + ", within cert-renew-before " + settings.certRenewBefore());
        }
        return Optional.empty();
    }

    private boolean propagated(X509Certificate ca, Instant now) {
        return !notBefore(ca).plus(BACKDATE).plus(settings.caPropagation()).isAfter(now);
    }

    private CertificateIssuer.Issued newCa(Instant now) {
        return issuer.certificateAuthority(CA_NAME_PREFIX + now.getEpochSecond(), now.minus(BACKDATE),
                now.plus(settings.caValidity()));
    }

    /** Never valid beyond its CA: a certificate that outlives its issuer would fail verification anyway. */
    private CertificateIssuer.Issued serve(CertificateIssuer.Issued ca, List<String> dnsNames, Instant now) {
        Instant until = now.plus(settings.certValidity());
        Instant caEnd = notAfter(ca.certificate());
        return issuer.serving(ca, dnsNames.get(0), dnsNames, now.minus(BACKDATE), until.isAfter(caEnd) ? caEnd : until);
    }

    static boolean signedBy(X509Certificate cert, PublicKey key) {
        try {
            cert.verify(key);
            return true;
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    static Set<String> dnsNames(X509Certificate cert) {
        Set<String> out = new HashSet<>();
        try {
            if (cert.getSubjectAlternativeNames() != null) {
                for (List<?> san : cert.getSubjectAlternativeNames()) {
                    if (Integer.valueOf(2).equals(san.get(0))) {
                        out.add((String) san.get(1));
                    }
                }
            }
        } catch (CertificateParsingException e) {
            return Set.of();
        }
        return out;
    }

    private static List<X509Certificate> certificates(String pem) {
        try {
            return Pem.certificates(pem);
        } catch (GeneralSecurityException e) {
            return List.of();
        }
    }

    private static String subject(X509Certificate c) {
        return c.getSubjectX500Principal().getName();
    }

    private static Instant notAfter(X509Certificate c) {
        return c.getNotAfter().toInstant();
    }

    private static Instant notBefore(X509Certificate c) {
        return c.getNotBefore().toInstant();
    }
}

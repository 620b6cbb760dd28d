package dev.policyset.aps.operator.webhook;

import org.junit.jupiter.api.Test;

import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The self-managed Secret through its life: creation, renewal thresholds, CA rotation with overlap, repair. */
class CertificateRotationTest {
    private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");
    private static final List<String> NAMES = List.of("hook.aps.svc", "hook.aps");
    // CA 100 days, renewed 20 days before; serving 30 days, renewed 10 days before; switch 5 minutes after a new CA.
    private static final CertificateRotation.Settings SETTINGS = new CertificateRotation.Settings(Duration.ofDays(100),
            Duration.ofDays(20), Duration.ofDays(30), Duration.ofDays(10), Duration.ofMinutes(5));
    private final CertificateRotation rotation = new CertificateRotation(SETTINGS, new CertificateIssuer(new SecureRandom()));

    @Test
    void anEmptySecretGetsACaAndAServingCertificateForTheServiceNames() throws Exception {
        CertificateRotation.Plan plan = rotation.plan(Map.of(), NAMES, T0);
        assertTrue(plan.changed());
        List<X509Certificate> cas = Pem.certificates(plan.caBundle());
        assertEquals(1, cas.size());
        X509Certificate ca = cas.get(0);
        assertEquals("CN=" + CertificateRotation.CA_NAME_PREFIX + T0.getEpochSecond(), ca.getSubjectX500Principal().getName());
        assertEquals(T0.minus(CertificateRotation.BACKDATE), ca.getNotBefore().toInstant(), "backdated for clock skew");
        assertEquals(T0.plus(Duration.ofDays(100)), ca.getNotAfter().toInstant());
        X509Certificate leaf = leaf(plan);
        assertEquals(Set.copyOf(NAMES), CertificateRotation.dnsNames(leaf));
        assertEquals(T0.plus(Duration.ofDays(30)), leaf.getNotAfter().toInstant());
        leaf.verify(ca.getPublicKey());
        assertTrue(ServingCertificate.belongTogether(Pem.ecPrivateKey(plan.contents().get("ca.key")), ca));
        assertTrue(ServingCertificate.belongTogether(Pem.ecPrivateKey(plan.contents().get("tls.key")), leaf));
        assertEquals(Set.of("ca.crt", "ca.key", "tls.crt", "tls.key"), plan.contents().keySet());
    }

    @Test
    void nothingChangesBeforeAThresholdAndTheServingCertificateRenewsAtItsOwn() throws Exception {
        Map<String, String> first = rotation.plan(Map.of(), NAMES, T0).contents();
        Instant renewAt = T0.plus(Duration.ofDays(30)).minus(Duration.ofDays(10));
        CertificateRotation.Plan quiet = rotation.plan(first, NAMES, renewAt.minusSeconds(1));
        assertFalse(quiet.changed(), quiet.changes().toString());
        assertEquals(first, quiet.contents());

        CertificateRotation.Plan renewed = rotation.plan(first, NAMES, renewAt);
        assertEquals(1, renewed.changes().size(), renewed.changes().toString());
        assertTrue(renewed.changes().get(0).contains("within cert-renew-before PT240H"), renewed.changes().get(0));
        assertEquals(first.get("ca.crt"), renewed.caBundle(), "same CA");
        assertEquals(first.get("ca.key"), renewed.contents().get("ca.key"));
        assertNotEquals(first.get("tls.crt"), renewed.contents().get("tls.crt"));
        assertEquals(renewAt.plus(Duration.ofDays(30)), leaf(renewed).getNotAfter().toInstant());
    }

    @Test
    void otherServiceNamesOrAMismatchedKeyReissueTheServingCertificate() throws Exception {
        Map<String, String> first = rotation.plan(Map.of(), NAMES, T0).contents();
        CertificateRotation.Plan renamed = rotation.plan(first, List.of("hook.other.svc"), T0.plusSeconds(60));
        assertTrue(renamed.changes().get(0).contains("the old one is for"), renamed.changes().toString());
        assertEquals(Set.of("hook.other.svc"), CertificateRotation.dnsNames(leaf(renamed)));

        Map<String, String> swapped = new HashMap<>(first);
        swapped.put("tls.key", rotation.plan(Map.of(), NAMES, T0).contents().get("tls.key"));
        CertificateRotation.Plan repaired = rotation.plan(swapped, NAMES, T0.plusSeconds(60));
        assertTrue(repaired.changes().get(0).contains("tls.key is not the key of tls.crt"), repaired.changes().toString());
        assertEquals(first.get("ca.crt"), repaired.caBundle());
    }

    @Test
    void theCaRotatesWithOverlapTheServingCertificateFollowsAfterPropagationAndTheOldCaLeavesWhenExpired() throws Exception {
        // Keep the serving certificate fresh along the way, as the periodic check would.
        Map<String, String> s = rotation.plan(Map.of(), NAMES, T0).contents();
        X509Certificate oldCa = Pem.certificates(s.get("ca.crt")).get(0);
        Instant caRenewAt = T0.plus(Duration.ofDays(80));
        s = rotation.plan(s, NAMES, caRenewAt.minus(Duration.ofDays(5))).contents(); // serving renewed, CA not yet
        assertEquals(1, Pem.certificates(s.get("ca.crt")).size());

        CertificateRotation.Plan added = rotation.plan(s, NAMES, caRenewAt);
        List<X509Certificate> bundle = Pem.certificates(added.caBundle());
        assertEquals(2, bundle.size(), "new and old CA");
        assertEquals(oldCa, bundle.get(1));
        X509Certificate newCa = bundle.get(0);
        assertEquals(s.get("tls.crt"), added.contents().get("tls.crt"), "the serving certificate stays on the old CA");
        assertTrue(ServingCertificate.belongTogether(Pem.ecPrivateKey(added.contents().get("ca.key")), newCa));
        s = added.contents();

        assertFalse(rotation.plan(s, NAMES, caRenewAt.plus(Duration.ofMinutes(4))).changed(),
                "not before the new CA has been in the caBundle for ca-propagation");
        CertificateRotation.Plan moved = rotation.plan(s, NAMES, caRenewAt.plus(Duration.ofMinutes(5)));
        assertTrue(moved.changes().get(0).startsWith("re-issued serving certificate by the newest CA"), moved.changes().toString());
        leaf(moved).verify(newCa.getPublicKey());
        assertEquals(2, Pem.certificates(moved.caBundle()).size(), "the old CA stays trusted until it expires");
        s = moved.contents();

        Instant oldExpiry = oldCa.getNotAfter().toInstant();
        assertEquals(2, Pem.certificates(rotation.plan(s, NAMES, oldExpiry.minusSeconds(1)).caBundle()).size());
        CertificateRotation.Plan dropped = rotation.plan(s, NAMES, oldExpiry);
        assertEquals(List.of(newCa), Pem.certificates(dropped.caBundle()));
        assertTrue(dropped.changes().get(0).startsWith("dropped expired CA"), dropped.changes().toString());
    }

    @Test
    void aServingCertificateNeverOutlivesItsCa() throws Exception {
        Map<String, String> s = rotation.plan(Map.of(), NAMES, T0).contents();
        Instant late = T0.plus(Duration.ofDays(79)); // CA ends at day 100, a 30-day certificate would end at day 109
        CertificateRotation.Plan p = rotation.plan(s, List.of("hook.moved.svc"), late);
        assertEquals(T0.plus(Duration.ofDays(100)), leaf(p).getNotAfter().toInstant());
    }

    @Test
    void anUnreadableOrExpiredCaStartsAgain() throws Exception {
        CertificateRotation.Plan garbage = rotation.plan(Map.of("ca.crt", "not a certificate", "ca.key", "x"), NAMES, T0);
        assertTrue(garbage.changes().get(0).startsWith("replaced unreadable ca.crt/ca.key"), garbage.changes().toString());
        assertEquals(1, Pem.certificates(garbage.caBundle()).size());

        Map<String, String> s = rotation.plan(Map.of(), NAMES, T0).contents();
        CertificateRotation.Plan expired = rotation.plan(s, NAMES, T0.plus(Duration.ofDays(101)));
        assertTrue(expired.changes().get(0).startsWith("replaced the CA"), expired.changes().toString());
        assertNotEquals(s.get("ca.crt"), expired.caBundle());
        leaf(expired).verify(Pem.certificates(expired.caBundle()).get(0).getPublicKey());
    }

    @Test
    void settingsThatCannotWorkAreRefusedNamingTheProperty() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new CertificateRotation.Settings(
                Duration.ofDays(10), Duration.ofDays(20), Duration.ofDays(5), Duration.ofDays(1), Duration.ofMinutes(1)));
        assertTrue(e.getMessage().contains("ca-renew-before (PT480H) must be shorter than ca-validity (PT240H)"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new CertificateRotation.Settings(
                Duration.ofDays(100), Duration.ofDays(20), Duration.ofDays(5), Duration.ofDays(5), Duration.ofMinutes(1)));
        assertTrue(e.getMessage().contains("cert-renew-before"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new CertificateRotation.Settings(
                Duration.ofDays(100), Duration.ofDays(1), Duration.ofDays(5), Duration.ofDays(1), Duration.ofDays(2)));
        assertTrue(e.getMessage().contains("ca-propagation"), e.getMessage());
    }

    private static X509Certificate leaf(CertificateRotation.Plan plan) throws Exception {
        return Pem.certificates(plan.contents().get("tls.crt")).get(0);
    }
}

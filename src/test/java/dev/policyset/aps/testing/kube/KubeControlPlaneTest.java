package dev.policyset.aps.testing.kube;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.authentication.SelfSubjectReview;
import io.fabric8.kubernetes.api.model.authentication.SelfSubjectReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The test control plane itself: the version it reports, who a client certificate is, and the audit log. */
@RealApiServer
class KubeControlPlaneTest {
    @Test
    void reportsTheVersionItWasBuiltAs(KubeControlPlane plane) {
        assertEquals("v" + plane.version(), plane.admin().getKubernetesVersion().getGitVersion());
    }

    @Test
    void aClientCertificateIsItsUserAndGroupsAndRbacJudgesIt(KubeControlPlane plane) {
        try (KubernetesClient alice = new KubernetesClientBuilder().withConfig(plane.configFor("alice", List.of("team-a"))).build()) {
            SelfSubjectReview review = alice.resource(new SelfSubjectReviewBuilder().build()).create();
            assertEquals("alice", review.getStatus().getUserInfo().getUsername());
            assertTrue(review.getStatus().getUserInfo().getGroups().containsAll(List.of("team-a", "system:authenticated")),
                    review.getStatus().getUserInfo().getGroups().toString());
            KubernetesClientException refused = assertThrows(KubernetesClientException.class,
                    () -> alice.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("alice-ns").endMetadata().build()).create());
            assertEquals(403, refused.getCode());
        }
    }

    @Test
    void theAuditLogRecordsEachWriteWithItsUser(KubeControlPlane plane) {
        int before = plane.audit().size();
        plane.admin().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("audit-check").endMetadata().build())
                .create();
        plane.auditQuiet(Duration.ofMillis(500), Duration.ofSeconds(10));
        List<KubeControlPlane.AuditEvent> writes = plane.auditSince(before, "aps-test-admin").stream()
                .filter(KubeControlPlane.AuditEvent::isWrite).toList();
        assertEquals(1, writes.size(), writes.toString());
        assertEquals("create", writes.get(0).verb());
        assertEquals("namespaces", writes.get(0).resource());
        assertEquals(201, writes.get(0).code());
    }
}

package dev.policyset.aps.operator;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.api.v1alpha1.FindingStatus;
import dev.policyset.aps.api.v1alpha1.ResourceStatus;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.operator.testing.SetStatus;
import dev.policyset.aps.operator.testing.Sets;
import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.KubeControlPlane.AuditEvent;
import dev.policyset.aps.testing.kube.OperatorInstall;
import dev.policyset.aps.testing.kube.RealApiServer;
import dev.policyset.aps.testing.kube.RealApiServerResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The contested-field guard (APS405) against the real API server: a second field manager server-side-applies
 * (with force) {@code failurePolicy: Fail} to the set's webhook configuration every time the operator puts
 * {@code Ignore} back. The operator must stop after {@code aps.contested.max-repairs} (3) forced repairs, leave
 * the other manager's value, and say so: row {@code Contested} naming the manager, an APS405 warning.
 */
@QuarkusTest
@QuarkusTestResource(value = RealApiServerResource.class, restrictToAnnotatedClass = true)
@RealApiServer
class ContestedFieldRealServerTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String SET = "real-contest";
    private static final String VWC = SET + "-vwc";
    private static final String OTHER = "policy-loop";

    private final KubeControlPlane plane = KubeControlPlane.shared();
    private final KubernetesClient admin = plane.admin();

    @AfterAll
    static void deleteSet() {
        KubernetesClient admin = KubeControlPlane.shared().admin();
        admin.resources(AdmissionPolicySet.class).withName(SET).delete();
        await().atMost(WAIT).until(() -> admin.resources(AdmissionPolicySet.class).withName(SET).get() == null);
    }

    @Test
    void aSecondManagerInALoopIsLeftAloneAfterThreeRepairsAndNamed() throws Exception {
        admin.resource(Sets.six(SET, "needs a team label")).create();
        SetStatus.awaitReady(admin, SET, 1, WAIT);
        plane.auditQuiet(Duration.ofSeconds(1), WAIT);
        int mark = plane.audit().size();

        AtomicInteger otherApplies = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        java.util.Set<String> seen = java.util.concurrent.ConcurrentHashMap.newKeySet(); // row messages, for the report
        Thread loop = new Thread(() -> {
            // the other writer: whenever the webhook says Ignore (the set's value), force Fail back
            while (!stop.get()) {
                try {
                    String message = row().getMessage();
                    if (message != null && !message.isEmpty()) {
                        seen.add(message);
                    }
                    if ("Ignore".equals(failurePolicy())) {
                        webhooks().resource(flip()).fieldManager(OTHER).forceConflicts().serverSideApply();
                        otherApplies.incrementAndGet();
                    }
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    // a transient failure of the poll; the loop goes on
                }
            }
        }, "policy-loop");
        long start = System.nanoTime();
        loop.start();
        try {
            try {
                await().atMost(WAIT).until(() -> "Contested".equals(row().getState()));
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                ResourceStatus r = row();
                throw new AssertionError("never Contested; row " + r.getState() + " repairs " + r.getRepairs() + ": "
                        + r.getMessage() + "; other manager applied " + otherApplies.get() + " times", e);
            }
            long contestedAfterMs = (System.nanoTime() - start) / 1_000_000;
            int contestedMark = plane.audit().size();
            // periodic resyncs every 2 s in tests: the guard must hold through them (the loop keeps polling)
            Thread.sleep(6_000);

            List<AuditEvent> patches = plane.auditSince(mark, OperatorInstall.USER).stream()
                    .filter(e -> "patch".equals(e.verb()) && VWC.equals(e.name()) && !e.dryRun()).toList();
            // forced = applied with force=true and accepted; an apply without force can be accepted too, when it runs
            // between a repair and the other manager's answer (the field is the operator's then): that is no repair
            long forced = patches.stream().filter(e -> e.code() == 200 && forced(e)).count();
            long refused = patches.stream().filter(e -> e.code() == 409).count();
            List<AuditEvent> afterContest = plane.auditSince(contestedMark, OperatorInstall.USER).stream()
                    .filter(AuditEvent::isWrite).toList();
            System.out.printf("APS405 real server: contested after %d ms; other manager applied %d times; operator "
                    + "patches on %s: %d accepted (forced repairs), %d answered 409; in the 6 s after: %d operator "
                    + "write requests (%d status writes)%n", contestedAfterMs, otherApplies.get(), VWC, forced, refused,
                    afterContest.size(), afterContest.stream().filter(e -> "status".equals(e.subresource())).count());
            seen.forEach(m -> System.out.println("APS405 row message seen: " + m));
            assertTrue(afterContest.stream().noneMatch(e -> "status".equals(e.subresource())),
                    "a held contest writes no status: " + afterContest);
            assertTrue(afterContest.stream().noneMatch(e -> e.code() == 200 && !e.dryRun() && VWC.equals(e.name()) && forced(e)),
                    "no forced write after the guard: " + afterContest);
            assertEquals(3, forced, "three forced repairs, then no more: " + patches);
            assertTrue(refused >= 1, "the guard applied without force and got the server's 409: " + patches);
            assertEquals(4, otherApplies.get(), "the other manager's first change and its answer to each repair");
            assertEquals("Fail", failurePolicy(), "the other manager's value stays");

            ResourceStatus row = row();
            assertEquals(3, row.getRepairs());
            assertTrue(row.getMessage().contains("\"" + OTHER + "\"") && row.getMessage().contains("failurePolicy"),
                    row.getMessage());
            AdmissionPolicySet set = SetStatus.get(admin, SET);
            FindingStatus finding = set.getStatus().getFindings().stream().filter(f -> "APS405".equals(f.getRule()))
                    .findFirst().orElseThrow(() -> new AssertionError("no APS405 in " + set.getStatus().getFindings()));
            assertEquals("warning", finding.getSeverity());
            assertEquals("ValidatingWebhookConfiguration/" + VWC, finding.getObject());
            assertTrue(finding.getMessage().contains("\"" + OTHER + "\""), finding.getMessage());
            assertTrue(finding.getField().contains("failurePolicy"), finding.getField());
            SetStatus.assertCondition(set, "Ready", "True", "Applied");
            List<io.fabric8.kubernetes.api.model.Event> contested = admin.v1().events().inNamespace("default").list()
                    .getItems().stream().filter(e -> SET.equals(e.getInvolvedObject().getName())
                            && "Contested".equals(e.getReason())).toList();
            assertEquals(1, contested.size(), "one Warning event, recorded when the row became Contested: " + contested);
            assertEquals("Warning", contested.get(0).getType());
            assertTrue(contested.get(0).getMessage().contains(VWC) && contested.get(0).getMessage().contains(OTHER),
                    contested.get(0).getMessage());
        } finally {
            stop.set(true);
            loop.interrupt();
            loop.join(5_000);
        }
    }

    private ResourceStatus row() {
        AdmissionPolicySet set = SetStatus.get(admin, SET);
        return set.getStatus() == null || set.getStatus().getResources() == null ? new ResourceStatus()
                : set.getStatus().getResources().stream().filter(r -> VWC.equals(r.getName())).findFirst()
                .orElse(new ResourceStatus());
    }

    private io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<GenericKubernetesResource,
            io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
            io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource>> webhooks() {
        return admin.genericKubernetesResources(ManagedKinds.context(AdmissionKind.VALIDATING_WEBHOOK_CONFIGURATION, "v1"));
    }

    @SuppressWarnings("unchecked")
    private String failurePolicy() {
        GenericKubernetesResource live = webhooks().withName(VWC).get();
        if (live == null) {
            return null;
        }
        return (String) ((List<Map<String, Object>>) live.getAdditionalProperties().get("webhooks")).get(0).get("failurePolicy");
    }

    private static GenericKubernetesResource flip() {
        return Serialization.unmarshal("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: %s}
                webhooks:
                  - name: check.%s.example.com
                    failurePolicy: Fail
                """.formatted(VWC, SET), GenericKubernetesResource.class);
    }

    /** Whether the request was a server-side apply with {@code force=true} (the audit log keeps its query). */
    private static boolean forced(AuditEvent e) {
        return e.uri() != null && e.uri().matches(".*[?&]force=true(&.*)?");
    }
}

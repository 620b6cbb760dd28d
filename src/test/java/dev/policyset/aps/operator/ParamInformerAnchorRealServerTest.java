package dev.policyset.aps.operator;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.plan.ParamInformerAnchorWrites;
import dev.policyset.aps.testing.kube.KubeControlPlane;
import dev.policyset.aps.testing.kube.OperatorInstall;
import dev.policyset.aps.testing.kube.OwnApiServerResource;
import dev.policyset.aps.testing.kube.RealApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With the operator's param-informer anchors (the default): deleting the only set with ConfigMap params leaves the
 * anchors, so the server keeps its ConfigMap informer and the next set finds a param created afterwards.
 * {@link ParamInformerAnchorOffRealServerTest} is the same scenario with the anchors off, where it does not.
 */
@QuarkusTest
@QuarkusTestResource(value = OwnApiServerResource.class, restrictToAnnotatedClass = true)
@RealApiServer
class ParamInformerAnchorRealServerTest {
    @Test
    void afterTheLastSetWithConfigMapParamsIsDeletedTheNextOneStillFindsItsParams() {
        ParamInformerScenario scenario = new ParamInformerScenario(OwnApiServerResource.current());
        scenario.grantConfigMapParams();
        scenario.param("a");
        scenario.createSet("informer-a", "a");
        String anchor = "aps-param-informer-configmap-v1";
        for (AdmissionKind kind : AdmissionKind.values()) {
            if (kind.ordinal() <= AdmissionKind.MUTATING_ADMISSION_POLICY_BINDING.ordinal()) {
                GenericKubernetesResource live = scenario.live(kind, anchor)
                        .orElseThrow(() -> new AssertionError(kind.kind() + "/" + anchor + " missing"));
                assertEquals("true", live.getMetadata().getLabels().get(ParamInformerAnchorWrites.LABEL));
                assertNull(live.getMetadata().getLabels().get(AdmissionPolicySet.SET_LABEL), "no set's: " + live.getMetadata());
                assertTrue(live.getMetadata().getOwnerReferences() == null || live.getMetadata().getOwnerReferences().isEmpty());
            }
        }
        scenario.awaitEnforcedWithParams("informer-a");

        scenario.deleteSetAndAwaitNothingEnforced("informer-a");
        assertTrue(scenario.live(AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING, anchor).isPresent(),
                "the set's deletion leaves the operator's anchor");

        KubeControlPlane plane = OwnApiServerResource.current();
        int mark = plane.audit().size();
        scenario.param("b"); // created after the deletion: only a running informer sees it
        scenario.createSet("informer-b", "b");
        scenario.awaitEnforcedWithParams("informer-b");
        List<KubeControlPlane.AuditEvent> anchorWrites = plane.auditSince(mark, OperatorInstall.USER).stream()
                .filter(e -> e.isWrite() && anchor.equals(e.name())).toList();
        assertEquals(List.of(), anchorWrites, "anchors in place as the server stores them are not written again");
    }
}

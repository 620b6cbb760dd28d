package dev.policyset.aps.operator;

import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.testing.kube.OwnApiServerResource;
import dev.policyset.aps.testing.kube.RealApiServer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bug the anchors guard against, shown through the operator with {@code aps.param-informer-anchors.enabled=false}
 * (kubernetes/kubernetes#130887, still present at 1.37 for {@code paramRef.selector}): once the operator deletes the
 * last binding of a ConfigMap-params policy, kube-apiserver stops its ConfigMap informer for good, and the next set,
 * with a param created after that, denies every matched request with "no params found" (its
 * {@code parameterNotFoundAction: Deny}), even a Deployment its param allows.
 */
@QuarkusTest
@TestProfile(ParamInformerAnchorOffRealServerTest.AnchorsOff.class)
@QuarkusTestResource(value = OwnApiServerResource.class, restrictToAnnotatedClass = true)
@RealApiServer
class ParamInformerAnchorOffRealServerTest {
    public static final class AnchorsOff implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("aps.param-informer-anchors.enabled", "false");
        }
    }

    @Test
    void withoutAnchorsTheNextSetFindsNoParamsAfterTheLastBindingOfItsKindIsDeleted() {
        ParamInformerScenario scenario = new ParamInformerScenario(OwnApiServerResource.current());
        scenario.grantConfigMapParams();
        scenario.param("a");
        scenario.createSet("informer-a", "a");
        assertTrue(scenario.live(AdmissionKind.VALIDATING_ADMISSION_POLICY, "aps-param-informer-configmap-v1").isEmpty(),
                "anchors are off");
        scenario.awaitEnforcedWithParams("informer-a");

        scenario.deleteSetAndAwaitNothingEnforced("informer-a");
        scenario.param("b");
        scenario.createSet("informer-b", "b");
        // the binding is in force (it denies), but its param, created after the informer stopped, is never found
        await().atMost(ParamInformerScenario.WAIT).until(() -> scenario.denial(1).isPresent());
        String denied = scenario.denial(1).orElseThrow();
        System.out.println("[aps-param-informer] without anchors, 1 replica: " + denied);
        assertTrue(denied.contains(ParamInformerScenario.NOT_FOUND) && denied.contains("informer-b"), denied);
        sleep(); // and it stays so: the informer is never started again
        String later = scenario.denial(1).orElse("admitted");
        assertTrue(later.contains(ParamInformerScenario.NOT_FOUND), later);
    }

    private static void sleep() {
        try {
            Thread.sleep(15_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package dev.policyset.aps.core.impact;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.api.v1alpha1.ImpactStatus;
import dev.policyset.aps.api.v1alpha1.MutatingBindingImpactStatus;
import dev.policyset.aps.core.model.KubeVersion;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.policyset.aps.core.impact.MutatingImpactTest.apply;
import static dev.policyset.aps.core.impact.MutatingImpactTest.policy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The operator's scan (an object source, as its informers give) writes the mutating rows to status.impact. */
class MutatingImpactStatusTest {
    private static final String NON_ROOT = apply(
            "Object{spec: Object.spec{securityContext: Object.spec.securityContext{runAsNonRoot: true}}}");

    @Test
    void theSourceScanListsWhatAMutatingBindingInterceptsAndTheStatusHasItsRow() {
        List<ObjectNode> objects = List.of(
                MutatingImpactTest.pod("web", "{containers: [{name: web, image: nginx}]}"),
                MutatingImpactTest.pod("ok", "{securityContext: {runAsNonRoot: true}, containers: [{name: c, image: x}]}"));
        var configuration = ImpactScanTest.configuration(policy("non-root", "Fail", "[CREATE, UPDATE]", "pods", "", "Never", NON_ROOT, ""));
        ExistingObjectSource pods = source(List.of(new ExistingObjectSource.Resource("", "v1", "pods")), objects);
        ImpactScan.SourceScan scan = ImpactScan.scan(configuration, pods, KubeVersion.NEWEST,
                new ImpactScan.Options(1000, 5, null));
        ImpactStatus status = ImpactStatuses.of(scan, configuration, 3, "2026-12-06T04:00:00Z");
        assertTrue(status.getBindings().isEmpty());
        assertEquals(1, status.getMutatingBindings().size());
        MutatingBindingImpactStatus row = status.getMutatingBindings().get(0);
        assertEquals("non-root", row.getPolicy());
        assertEquals("non-root-binding", row.getBinding());
        assertEquals(2, row.getMatched());
        assertEquals(1, row.getRefused());
        assertEquals(1, row.getNoop());
        assertEquals(0, row.getChanged());
        assertEquals(true, row.getComplete());
        assertNull(row.getIncomplete());
        assertEquals(1, row.getSamples().size());
        String sample = row.getSamples().get(0);
        assertTrue(sample.startsWith("Pod a/web (refused: immutable): Pod \"web\" is invalid: spec: Forbidden: "), sample);
        assertEquals(ImpactStatuses.MAX_SAMPLE_LENGTH, sample.length(), "the long refusal is cut to keep the status bounded");
        assertTrue(sample.endsWith("..."));
    }

    @Test
    void aKindTheOperatorDoesNotListMakesTheRowIncomplete() {
        var configuration = ImpactScanTest.configuration(policy("non-root", "Fail", "[CREATE, UPDATE]", "pods", "", "Never", NON_ROOT, ""));
        ExistingObjectSource deploymentsOnly = source(List.of(new ExistingObjectSource.Resource("apps", "v1", "deployments")), List.of());
        ImpactScan.SourceScan scan = ImpactScan.scan(configuration, deploymentsOnly, KubeVersion.NEWEST,
                new ImpactScan.Options(1000, 5, null));
        MutatingBindingImpactStatus row = ImpactStatuses.of(scan, configuration, 3, "2026-12-06T04:00:00Z")
                .getMutatingBindings().get(0);
        assertEquals(false, row.getComplete());
        assertTrue(row.getIncomplete().contains("core/pods, which the operator does not list"), row.getIncomplete());
        assertEquals(0, row.getMatched());
    }

    private static ExistingObjectSource source(List<ExistingObjectSource.Resource> resources, List<ObjectNode> objects) {
        return ExistingObjectSource.of(resources, objects, 2);
    }
}

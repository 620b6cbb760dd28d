package dev.policyset.aps.core.impact;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.api.v1alpha1.ImpactStatus;
import dev.policyset.aps.core.model.KubeVersion;
import dev.policyset.aps.core.render.RenderedObject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import static dev.policyset.aps.core.impact.ImpactScanTest.binding;
import static dev.policyset.aps.core.impact.ImpactScanTest.configuration;
import static dev.policyset.aps.core.impact.ImpactScanTest.deployment;
import static dev.policyset.aps.core.impact.ImpactScanTest.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The operator's scan over a paged source: the same counts as the scan of the same objects in one list. */
class StreamedImpactScanTest {
    private static final ExistingObjectSource.Resource NAMESPACES = new ExistingObjectSource.Resource("", "v1", "namespaces");
    private static final ExistingObjectSource.Resource CONFIGMAPS = new ExistingObjectSource.Resource("", "v1", "configmaps");
    private static final ExistingObjectSource.Resource DEPLOYMENTS = new ExistingObjectSource.Resource("apps", "v1", "deployments");

    /** A param per namespace, and a binding that selects namespaces by a label only the Namespace objects carry. */
    private static final List<String> CONFIGURATION = List.of("""
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: max-replicas}
            spec:
              failurePolicy: Fail
              paramKind: {apiVersion: v1, kind: ConfigMap}
              matchConstraints:
                resourceRules:
                - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
              validations:
              - expression: "object.spec.replicas <= int(params.data.max)"
            """, binding("limit", "max-replicas", "[Deny]", """
              paramRef: {name: limits, parameterNotFoundAction: Deny}
              matchResources:
                namespaceSelector: {matchLabels: {tier: prod}}
            """));

    @Test
    void pagesOfAnySizeGiveTheCountsOfOneList() {
        List<ObjectNode> objects = cluster(23);
        List<RenderedObject> configuration = configuration(CONFIGURATION);
        ImpactReport whole = ImpactScan.scan(configuration, objects, KubeVersion.NEWEST, ImpactScan.Options.defaults());
        BindingImpact expected = whole.bindings().get(0);
        assertTrue(expected.matched() > 0 && expected.deniedUnderDeny() > 0 && expected.deniedUnderDeny() < expected.matched(),
                "the cluster must have both outcomes: " + expected);
        for (int pageSize : new int[] {1, 7, 1000}) {
            ImpactScan.SourceScan paged = ImpactScan.scan(configuration,
                    ExistingObjectSource.of(List.of(DEPLOYMENTS, CONFIGMAPS, NAMESPACES), objects, pageSize),
                    KubeVersion.NEWEST, ImpactScan.Options.defaults());
            BindingImpact row = paged.report().bindings().get(0);
            assertEquals(whole.objects(), paged.report().objects(), "page size " + pageSize);
            assertEquals(expected.matched(), row.matched(), "page size " + pageSize);
            assertEquals(expected.deniedUnderDeny(), row.deniedUnderDeny(), "page size " + pageSize);
            assertEquals(expected.errors(), row.errors(), "page size " + pageSize);
            assertEquals(0, paged.report().omitted());
            assertEquals(java.util.Map.of(), paged.incomplete());
        }
    }

    @Test
    void namespacesAndParamsAreReadBeforeTheObjectsThatNeedThem() {
        List<ExistingObjectSource.Resource> order = new ArrayList<>();
        ExistingObjectSource inMemory = ExistingObjectSource.of(List.of(DEPLOYMENTS, CONFIGMAPS, NAMESPACES), cluster(4), 2);
        ExistingObjectSource recording = new ExistingObjectSource() {
            @Override
            public List<Resource> resources() {
                return inMemory.resources();
            }

            @Override
            public void list(Resource resource, Predicate<List<ObjectNode>> page) {
                order.add(resource);
                inMemory.list(resource, page);
            }
        };
        ImpactScan.scan(configuration(CONFIGURATION), recording, KubeVersion.NEWEST, ImpactScan.Options.defaults());
        assertEquals(List.of(NAMESPACES, CONFIGMAPS, DEPLOYMENTS), order);
    }

    @Test
    void noLimitByDefaultAndALimitStillCountsWhatItLeftOut() {
        List<ObjectNode> objects = cluster(10);
        ExistingObjectSource source = ExistingObjectSource.of(List.of(DEPLOYMENTS, CONFIGMAPS, NAMESPACES), objects, 3);
        List<RenderedObject> configuration = configuration(CONFIGURATION);
        ImpactScan.SourceScan unlimited = ImpactScan.scan(configuration, source, KubeVersion.NEWEST,
                new ImpactScan.Options(0, 5, null));
        assertEquals(objects.size(), unlimited.report().objects());
        assertEquals(0, unlimited.report().omitted());

        ImpactScan.SourceScan limited = ImpactScan.scan(configuration, source, KubeVersion.NEWEST,
                new ImpactScan.Options(12, 5, null));
        assertEquals(12, limited.report().objects());
        assertEquals(objects.size() - 12, limited.report().omitted());
        assertTrue(limited.incomplete().get("limit").contains((objects.size() - 12) + " object(s) were left out"),
                limited.incomplete().toString());
    }

    @Test
    void progressKeepsTheLastFinishedResultsUntilTheNextScanFinishes() {
        List<RenderedObject> configuration = configuration(CONFIGURATION);
        ImpactScan.SourceScan scan = ImpactScan.scan(configuration, ExistingObjectSource.of(
                List.of(DEPLOYMENTS, CONFIGMAPS, NAMESPACES), cluster(6), 4), KubeVersion.NEWEST, ImpactScan.Options.defaults());
        ImpactStatus result = ImpactStatuses.of(scan, configuration, 3, "2026-12-06T07:00:00Z");
        ImpactStatus finished = ImpactStatuses.finished(result,
                new ImpactStatuses.Progress("2026-12-06T07:00:00Z", 24, 6, null), "2026-12-06T07:00:09Z");
        assertEquals("Finished", finished.getState());
        assertEquals(24, finished.getScanned());
        assertEquals(result.getBindings().get(0).getViolations(), finished.getBindings().get(0).getViolations());
        assertNull(finished.getInconsistent());

        ImpactStatus running = ImpactStatuses.running(finished,
                new ImpactStatuses.Progress("2026-12-06T07:10:00Z", 8, 2, "the list of v1/pods expired"));
        assertEquals("Running", running.getState());
        assertEquals("2026-12-06T07:10:00Z", running.getStartedAt());
        assertNull(running.getFinishedAt());
        assertEquals(8, running.getScanned());
        assertEquals(true, running.getInconsistent());
        assertEquals("2026-12-06T07:00:00Z", running.getScannedAt(), "the results are still the finished scan's");
        assertEquals(3L, running.getGeneration());
        assertEquals(finished.getBindings().get(0).getViolations(), running.getBindings().get(0).getViolations());

        ImpactStatus failed = ImpactStatuses.failed(running, new ImpactStatuses.Progress("2026-12-06T07:10:00Z", 8, 2, null),
                "2026-12-06T07:10:05Z", "HTTP 403: pods is forbidden");
        assertEquals("Failed", failed.getState());
        assertEquals("HTTP 403: pods is forbidden", failed.getMessage());
        assertEquals(finished.getBindings().get(0).getFingerprint(), failed.getBindings().get(0).getFingerprint());
        assertNull(ImpactStatuses.running(null, new ImpactStatuses.Progress("t", 0, 0, null)).getGeneration(),
                "no finished scan yet: no results");
    }

    /**
     * Namespaces ns0..n-1 (even ones labelled tier: prod), a 'limits' param in every third namespace (max 3), an
     * unrelated ConfigMap in each, and two Deployments per namespace (2 and 5 replicas).
     */
    private static List<ObjectNode> cluster(int namespaces) {
        List<ObjectNode> objects = new ArrayList<>();
        for (int n = 0; n < namespaces; n++) {
            objects.add(deployment("ns" + n, "small", null));
            ((ObjectNode) objects.get(objects.size() - 1).path("spec")).put("replicas", 2);
            objects.add(deployment("ns" + n, "large", null));
            objects.add(node("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other, namespace: ns" + n + "}\ndata: {max: '0'}\n"));
            if (n % 3 == 0) {
                objects.add(node("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: limits, namespace: ns" + n
                        + "}\ndata: {max: '3'}\n"));
            }
            objects.add(node("apiVersion: v1\nkind: Namespace\nmetadata: {name: ns" + n
                    + (n % 2 == 0 ? ", labels: {tier: prod}" : "") + "}\n"));
        }
        return objects;
    }
}

package dev.policyset.aps.operator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.core.impact.OpenReports;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Writes a set's impact scan as OpenReports ({@code aps.reports.enabled}; core builds them, {@link OpenReports}):
 * server-side applies each report, then deletes the set's reports (found by its set label) that the scan no longer
 * has, so a namespace whose objects were fixed loses its report. A failure is logged, never fails the reconcile:
 * reports are a view of the scan, which status.impact already carries. Needs the OpenReports CRDs and the RBAC of
 * config/components/policy-reports.
 */
@ApplicationScoped
public class PolicyReportWriter {
    private static final Logger LOG = Logger.getLogger(PolicyReportWriter.class);
    static final String FIELD_MANAGER = ClusterObjects.FIELD_MANAGER;
    static final ResourceDefinitionContext REPORT = context("Report", "reports", true);
    static final ResourceDefinitionContext CLUSTER_REPORT = context("ClusterReport", "clusterreports", false);

    private final KubernetesClient client;
    private final AtomicBoolean warnedMissing = new AtomicBoolean();

    public PolicyReportWriter(KubernetesClient client) {
        this.client = client;
    }

    /** Replaces the set's reports with these. */
    public void write(String set, List<ObjectNode> reports) {
        try {
            Set<String> written = new HashSet<>();
            for (ObjectNode report : reports) {
                GenericKubernetesResource r = Serialization.jsonMapper().treeToValue(report, GenericKubernetesResource.class);
                boolean namespaced = "Report".equals(r.getKind());
                var op = client.genericKubernetesResources(namespaced ? REPORT : CLUSTER_REPORT);
                (namespaced ? op.inNamespace(r.getMetadata().getNamespace()) : op).resource(r)
                        .fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
                written.add(key(r));
            }
            for (GenericKubernetesResource old : owned(set)) {
                if (!written.contains(key(old))) {
                    delete(old);
                }
            }
            warnedMissing.set(false);
        } catch (KubernetesClientException e) {
            failed(set, e);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a policy report did not convert: " + e.getMessage(), e);
        }
    }

    /** The set is gone: so are its reports. */
    public void forget(String set) {
        try {
            owned(set).forEach(this::delete);
        } catch (KubernetesClientException e) {
            failed(set, e);
        }
    }

    private List<GenericKubernetesResource> owned(String set) {
        List<GenericKubernetesResource> all = new java.util.ArrayList<>(client.genericKubernetesResources(REPORT)
                .inAnyNamespace().withLabel(AdmissionPolicySet.SET_LABEL, set).list().getItems());
        all.addAll(client.genericKubernetesResources(CLUSTER_REPORT).withLabel(AdmissionPolicySet.SET_LABEL, set)
                .list().getItems());
        return all.stream().filter(r -> OpenReports.SOURCE.equals(r.getMetadata().getLabels()
                .get("app.kubernetes.io/managed-by"))).toList();
    }

    private void delete(GenericKubernetesResource r) {
        var op = client.genericKubernetesResources("Report".equals(r.getKind()) ? REPORT : CLUSTER_REPORT);
        ("Report".equals(r.getKind()) ? op.inNamespace(r.getMetadata().getNamespace()) : op)
                .withName(r.getMetadata().getName()).delete();
    }

    private void failed(String set, KubernetesClientException e) {
        if (e.getCode() == 404) {
            if (warnedMissing.compareAndSet(false, true)) {
                LOG.warnf("Policy reports for AdmissionPolicySet %s not written: the API server does not serve "
                        + "openreports.io/v1alpha1 (install the OpenReports CRDs, e.g. with policy-reporter, or set "
                        + "aps.reports.enabled=false); status.impact still has the scan", set);
            }
        } else {
            LOG.warnf("Policy reports for AdmissionPolicySet %s not written (HTTP %d: %s); the next scan tries again%s",
                    set, e.getCode(), e.getMessage(), e.getCode() == 403
                            ? " (the operator needs config/components/policy-reports' RBAC)" : "");
        }
    }

    private static String key(GenericKubernetesResource r) {
        return r.getKind() + "/" + (r.getMetadata().getNamespace() == null ? "" : r.getMetadata().getNamespace()) + "/"
                + r.getMetadata().getName();
    }

    private static ResourceDefinitionContext context(String kind, String plural, boolean namespaced) {
        return new ResourceDefinitionContext.Builder().withGroup("openreports.io").withVersion("v1alpha1")
                .withKind(kind).withPlural(plural).withNamespaced(namespaced).build();
    }
}

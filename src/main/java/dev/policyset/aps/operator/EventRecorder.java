package dev.policyset.aps.operator;

import dev.policyset.aps.api.v1alpha1.AdmissionPolicySet;
import dev.policyset.aps.core.plan.PlanEvent;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Kubernetes Events on a set ({@code kubectl describe aps NAME}, {@code kubectl events}). The set is
 * cluster-scoped, so its events live in {@code aps.events.namespace} ({@code default}, where kubectl looks for
 * cluster-scoped objects). Events are recorded only when something happened (an apply, a prune, a repair, a
 * status change), never on a no-op resync. Best effort: a failed event never fails a reconcile.
 */
@ApplicationScoped
public class EventRecorder {
    private static final Logger LOG = Logger.getLogger(EventRecorder.class);


    private final KubernetesClient client;
    private final String namespace;

    public EventRecorder(KubernetesClient client,
                         @ConfigProperty(name = "aps.events.namespace", defaultValue = "default") String namespace) {
        this.client = client;
        this.namespace = namespace;
    }

    public void normal(AdmissionPolicySet set, String reason, String message) {
        record(set, "Normal", reason, message);
    }

    public void warning(AdmissionPolicySet set, String reason, String message) {
        record(set, "Warning", reason, message);
    }

    /** An event the plan asks for. */
    public void record(AdmissionPolicySet set, PlanEvent event) {
        record(set, event.warning() ? "Warning" : "Normal", event.reason(), event.message());
    }

    private void record(AdmissionPolicySet set, String type, String reason, String message) {
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        String name = set.getMetadata().getName() + "." + Long.toHexString(System.nanoTime())
                + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000));
        Event event = new EventBuilder()
                .withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
                .withNewInvolvedObject()
                .withApiVersion(AdmissionPolicySet.API_VERSION).withKind(AdmissionPolicySet.KIND)
                .withName(set.getMetadata().getName()).withUid(set.getMetadata().getUid())
                .withResourceVersion(set.getMetadata().getResourceVersion())
                .endInvolvedObject()
                .withType(type).withReason(reason)
                .withMessage(message.length() > 1000 ? message.substring(0, 997) + "..." : message)
                .withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
                .withNewSource().withComponent(ClusterObjects.FIELD_MANAGER).endSource()
                .withReportingComponent(ClusterObjects.FIELD_MANAGER)
                .build();
        try {
            client.v1().events().inNamespace(namespace).resource(event).create();
        } catch (RuntimeException e) {
            LOG.debugf("Could not record event %s on %s: %s", reason, set.getMetadata().getName(), e.getMessage());
        }
    }
}

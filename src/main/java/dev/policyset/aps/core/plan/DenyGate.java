package dev.policyset.aps.core.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.api.v1alpha1.BindingImpactStatus;
import dev.policyset.aps.api.v1alpha1.ImpactStatus;
import dev.policyset.aps.core.impact.ImpactStatuses;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.model.ClusterView;
import dev.policyset.aps.core.model.LiveObject;
import dev.policyset.aps.core.render.RenderedObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code spec.safety.requireNoViolationsBeforeDeny}: a ValidatingAdmissionPolicyBinding whose rendered
 * validationActions include {@code Deny}, while the binding in the cluster does not enforce yet, is applied with the
 * actions it has in the cluster (or {@code [Warn, Audit]} when it is new) until the last impact scan
 * ({@code status.impact}) saw every object it matches, for this policy and binding spec, and found none it would deny.
 * A binding that already enforces is left alone: the gate guards the move to Deny, not what is enforced.
 */
final class DenyGate {
    static final List<String> STAGED = List.of("Warn", "Audit");

    /** The objects to apply, and one sentence per binding held back. */
    record Result(List<RenderedObject> objects, List<String> held) {}

    private DenyGate() {}

    static boolean requested(JsonNode setSpec) {
        JsonNode v = setSpec.path("safety").path("requireNoViolationsBeforeDeny");
        return v.isBoolean() && v.asBoolean();
    }

    static Result apply(List<RenderedObject> rendered, String setName, ClusterView cluster, ImpactStatus impact) {
        List<RenderedObject> out = new ArrayList<>();
        List<String> held = new ArrayList<>();
        for (RenderedObject o : rendered) {
            if (o.kind() != AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING || !actions(o.manifest()).contains("Deny")) {
                out.add(o);
                continue;
            }
            Optional<LiveObject> live = cluster.find(o.kind(), o.name()).filter(l -> l.isLabelledFor(setName));
            List<String> current = live.map(l -> actions(l.object())).orElse(List.of());
            if (current.contains("Deny")) {
                out.add(o); // already enforcing
                continue;
            }
            Optional<String> reason = reasonToHold(o.name(), rendered, impact);
            if (reason.isEmpty()) {
                out.add(o);
                continue;
            }
            List<String> keep = current.isEmpty() ? STAGED : current;
            ObjectNode manifest = o.manifest().deepCopy();
            ArrayNode a = ((ObjectNode) manifest.get("spec")).putArray("validationActions");
            keep.forEach(a::add);
            out.add(new RenderedObject(o.kind(), o.apiVersion(), o.name(), manifest, o.source()));
            held.add("ValidatingAdmissionPolicyBinding/" + o.name() + " asks for " + actions(o.manifest())
                    + " but " + reason.get() + "; applied with " + keep + (live.isPresent() ? " (its actions in the cluster)"
                    : " (a new binding starts staged)"));
        }
        return new Result(out, held);
    }

    private static Optional<String> reasonToHold(String binding, List<RenderedObject> rendered, ImpactStatus impact) {
        Optional<BindingImpactStatus> row = impact == null || impact.getBindings() == null ? Optional.empty()
                : impact.getBindings().stream().filter(b -> binding.equals(b.getBinding())).findFirst();
        if (row.isEmpty()) {
            return Optional.of("no impact scan has covered it yet");
        }
        BindingImpactStatus r = row.get();
        if (!ImpactStatuses.fingerprint(rendered, binding).equals(Optional.ofNullable(r.getFingerprint()))) {
            return Optional.of("the last impact scan was of another version of its policy or binding; waiting for the next scan");
        }
        int violations = r.getViolations() == null ? 0 : r.getViolations();
        if (violations > 0) {
            String example = r.getSamples() == null || r.getSamples().isEmpty() ? "" : " (e.g. " + r.getSamples().get(0) + ")";
            return Optional.of("the impact scan at " + impact.getScannedAt() + " found " + violations
                    + " existing object(s) it would deny" + example);
        }
        if (!Boolean.TRUE.equals(r.getComplete())) {
            return Optional.of("the impact scan is incomplete: " + r.getIncomplete());
        }
        return Optional.empty();
    }

    private static List<String> actions(JsonNode manifest) {
        List<String> out = new ArrayList<>();
        manifest.path("spec").path("validationActions").forEach(n -> out.add(n.asText()));
        return out;
    }
}

package dev.policyset.aps.core.impact;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The fields an UPDATE may not change, for the kinds whose update validation this models: the API server runs
 * mutating admission, then the kind's update validation on the mutated object against the stored one ({@code
 * k8s.io/apiserver/pkg/registry/generic/registry/store.go: Update} calls {@code objInfo.UpdatedObject}, which applies
 * admission, then {@code rest.BeforeUpdate}, which calls the strategy's {@code ValidateUpdate}), so a mutation that
 * changes one of these fields on UPDATE makes the write fail with 422 Invalid, whatever the policy's failurePolicy.
 *
 * <p>Only what the cited validation refuses is modelled (Kubernetes 1.37):
 * <ul>
 *   <li>every kind: {@code metadata.name}, {@code metadata.namespace}, and {@code metadata.uid} when set
 *       ({@code apimachinery/pkg/api/validation/objectmeta.go: ValidateObjectMetaAccessorUpdate}). Changes to
 *       creationTimestamp and deletionTimestamp are not refused but undone ({@code rest.BeforeUpdate} copies the
 *       stored ones), and an empty uid is filled in, so those are left out;</li>
 *   <li>apps/v1 Deployment, ReplicaSet, DaemonSet: {@code spec.selector}; StatefulSet: {@code spec.selector},
 *       {@code spec.volumeClaimTemplates}, {@code spec.serviceName} ({@code pkg/apis/apps/validation/validation.go});
 *   </li>
 *   <li>batch/v1 Job: {@code spec.selector}, {@code completionMode}, {@code podFailurePolicy},
 *       {@code backoffLimitPerIndex}, {@code managedBy}, {@code successPolicy} ({@code pkg/apis/batch/validation/
 *       validation.go: ValidateJobSpecUpdate}; its pod template rules depend on the Job's state and are not
 *       modelled);</li>
 *   <li>v1 Pod: {@code spec}, except the fields {@code ValidatePodUpdate} lets change ({@code pkg/apis/core/
 *       validation/validation.go}): {@code containers[*].image}, {@code initContainers[*].image} (same containers),
 *       {@code activeDeadlineSeconds} (set, or lowered), {@code tolerations} (additions; existing ones may change
 *       only their tolerationSeconds), {@code schedulingGates} (removals), {@code terminationGracePeriodSeconds}
 *       (from negative to 1). A pod with scheduling gates may also gain nodeSelector entries and node affinity
 *       terms; its nodeSelector and node affinity are not judged here (never flagged).</li>
 * </ul>
 * Objects given as manifests lack the defaults the API server stored with them, so a mutation that sets a value the
 * server had defaulted can look like a change here; the refusal then names the field, to check against the live object.
 */
final class ImmutableFields {
    private static final List<String> META = List.of("name", "namespace");
    private static final Map<String, List<String>> SPEC = Map.of(
            "apps/v1 Deployment", List.of("selector"),
            "apps/v1 ReplicaSet", List.of("selector"),
            "apps/v1 DaemonSet", List.of("selector"),
            "apps/v1 StatefulSet", List.of("selector", "volumeClaimTemplates", "serviceName"),
            "batch/v1 Job", List.of("selector", "completionMode", "podFailurePolicy", "backoffLimitPerIndex",
                    "managedBy", "successPolicy"));
    private static final String POD_UPDATABLE = "pod updates may not change fields other than `spec.containers[*].image`,"
            + "`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to "
            + "existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously "
            + "negative)";

    private ImmutableFields() {}

    /**
     * The update validation's refusal of writing {@code updated} over {@code stored}, as the API server words it
     * ({@code Pod "web-0" is invalid: spec: Forbidden: ...}); null when nothing modelled is refused.
     */
    static String refusal(JsonNode stored, JsonNode updated) {
        List<String> errors = new ArrayList<>();
        for (String f : META) {
            immutable(errors, "metadata." + f, stored.path("metadata").path(f), updated.path("metadata").path(f));
        }
        JsonNode uid = updated.path("metadata").path("uid");
        if (!uid.asText("").isEmpty()) {
            immutable(errors, "metadata.uid", stored.path("metadata").path("uid"), uid);
        }
        String type = stored.path("apiVersion").asText("") + " " + stored.path("kind").asText("");
        for (String f : SPEC.getOrDefault(type, List.of())) {
            immutable(errors, "spec." + f, stored.path("spec").path(f), updated.path("spec").path(f));
        }
        if (type.equals("v1 Pod")) {
            String pod = podSpec(stored.path("spec"), updated.path("spec"));
            if (pod != null) {
                errors.add(pod);
            }
        }
        if (errors.isEmpty()) {
            return null;
        }
        return updated.path("kind").asText("") + " \"" + updated.path("metadata").path("name").asText("")
                + "\" is invalid: " + String.join(", ", errors);
    }

    private static void immutable(List<String> errors, String field, JsonNode before, JsonNode after) {
        if (!before.equals(after)) {
            errors.add(field + ": Invalid value: " + (after.isMissingNode() ? "null" : after.toString())
                    + ": field is immutable");
        }
    }

    /** {@code ValidatePodUpdate}: the spec with its updatable fields put back as stored must equal the stored spec. */
    private static String podSpec(JsonNode stored, JsonNode updated) {
        if (stored.equals(updated) || !stored.isObject() || !updated.isObject()) {
            return null;
        }
        String tolerations = onlyAddedTolerations(stored.path("tolerations"), updated.path("tolerations"));
        if (tolerations != null) {
            return tolerations;
        }
        String deadline = activeDeadline(stored.path("activeDeadlineSeconds"), updated.path("activeDeadlineSeconds"));
        if (deadline != null) {
            return deadline;
        }
        ObjectNode munged = ((ObjectNode) updated).deepCopy();
        for (String list : List.of("containers", "initContainers")) {
            JsonNode was = stored.path(list);
            JsonNode now = munged.path(list);
            if (was.isArray() && now instanceof ArrayNode a && was.size() == a.size()) {
                for (int i = 0; i < a.size(); i++) {
                    if (a.get(i) instanceof ObjectNode c) {
                        put(c, "image", was.get(i).get("image"));
                    }
                }
            }
        }
        for (String f : List.of("activeDeadlineSeconds", "tolerations", "schedulingGates")) {
            put(munged, f, stored.get(f));
        }
        if (stored.path("schedulingGates").size() > 0) {
            // a gated pod may gain nodeSelector entries and node affinity terms: not judged, put back as stored
            put(munged, "nodeSelector", stored.get("nodeSelector"));
            if (munged.path("affinity") instanceof ObjectNode affinity) {
                put(affinity, "nodeAffinity", stored.path("affinity").get("nodeAffinity"));
                if (affinity.isEmpty() && !stored.has("affinity")) {
                    munged.remove("affinity");
                }
            } else if (stored.path("affinity").has("nodeAffinity")) {
                munged.set("affinity", stored.get("affinity"));
            }
        }
        JsonNode grace = stored.path("terminationGracePeriodSeconds");
        if (grace.isNumber() && grace.asLong() < 0 && munged.path("terminationGracePeriodSeconds").asLong(0) == 1) {
            munged.set("terminationGracePeriodSeconds", grace);
        }
        if (munged.equals(stored)) {
            return null;
        }
        List<String> changed = ObjectChanges.between(stored, munged).stream()
                .map(c -> "spec" + (c.path().isEmpty() ? "" : "." + ObjectChanges.fieldPath(c.path()))).toList();
        return "spec: Forbidden: " + POD_UPDATABLE + " (changed: " + String.join(", ", changed) + ")";
    }

    private static String onlyAddedTolerations(JsonNode stored, JsonNode updated) {
        for (JsonNode old : stored) {
            boolean found = false;
            for (JsonNode now : updated) {
                found |= withoutSeconds(old).equals(withoutSeconds(now));
            }
            if (!found) {
                return "spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds";
            }
        }
        return null;
    }

    private static JsonNode withoutSeconds(JsonNode toleration) {
        if (toleration instanceof ObjectNode o) {
            ObjectNode copy = o.deepCopy();
            copy.remove("tolerationSeconds");
            return copy;
        }
        return toleration;
    }

    private static String activeDeadline(JsonNode stored, JsonNode updated) {
        if (updated.isNumber()) {
            long now = updated.asLong();
            if (now < 0 || now > Integer.MAX_VALUE) {
                return "spec.activeDeadlineSeconds: Invalid value: " + now + ": must be between 0 and 2147483647, inclusive";
            }
            if (stored.isNumber() && stored.asLong() < now) {
                return "spec.activeDeadlineSeconds: Invalid value: " + now + ": must be less than or equal to previous value";
            }
        } else if (stored.isNumber()) {
            return "spec.activeDeadlineSeconds: Invalid value: \"null\": must not update from a positive integer to nil value";
        }
        return null;
    }

    private static void put(ObjectNode o, String field, JsonNode value) {
        if (value == null) {
            o.remove(field);
        } else {
            o.set(field, value);
        }
    }
}

package dev.policyset.aps.core.impact;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import static dev.policyset.aps.core.impact.ImpactScanTest.node;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The update validation modelled: what each kind refuses to change on UPDATE, and its neighbours that may change. */
class ImmutableFieldsTest {
    private static ObjectNode pod(String spec) {
        return node("apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: a, uid: u1}\nspec: " + spec + "\n");
    }

    @Test
    void metadataNameNamespaceAndASetUidAreImmutableLabelsAreNot() {
        ObjectNode stored = pod("{containers: [{name: c, image: x}]}");
        ObjectNode renamed = stored.deepCopy();
        ((ObjectNode) renamed.get("metadata")).put("name", "q");
        assertTrue(ImmutableFields.refusal(stored, renamed).contains("metadata.name: Invalid value: \"q\": field is immutable"));
        ObjectNode uid = stored.deepCopy();
        ((ObjectNode) uid.get("metadata")).put("uid", "u2");
        assertTrue(ImmutableFields.refusal(stored, uid).contains("metadata.uid"));
        ObjectNode noUid = stored.deepCopy();
        ((ObjectNode) noUid.get("metadata")).remove("uid");
        assertNull(ImmutableFields.refusal(stored, noUid), "an empty uid is filled in from the stored object");
        ObjectNode labelled = stored.deepCopy();
        ((ObjectNode) labelled.get("metadata")).putObject("labels").put("x", "y");
        assertNull(ImmutableFields.refusal(stored, labelled));
    }

    @Test
    void podTolerationsMayOnlyBeAddedAndTheirSecondsChanged() {
        ObjectNode stored = pod("{containers: [{name: c, image: x}], tolerations: [{key: k, operator: Exists, effect: NoExecute, tolerationSeconds: 30}]}");
        assertNull(ImmutableFields.refusal(stored, pod("{containers: [{name: c, image: x}], tolerations: "
                + "[{key: k, operator: Exists, effect: NoExecute, tolerationSeconds: 60}, {key: other, operator: Exists}]}")));
        assertTrue(ImmutableFields.refusal(stored, pod("{containers: [{name: c, image: x}], tolerations: [{key: other, operator: Exists}]}"))
                .contains("spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds"));
    }

    @Test
    void podActiveDeadlineMayBeSetOrLoweredNotRaisedOrRemoved() {
        ObjectNode stored = pod("{containers: [{name: c, image: x}], activeDeadlineSeconds: 100}");
        assertNull(ImmutableFields.refusal(stored, pod("{containers: [{name: c, image: x}], activeDeadlineSeconds: 50}")));
        assertTrue(ImmutableFields.refusal(stored, pod("{containers: [{name: c, image: x}], activeDeadlineSeconds: 200}"))
                .contains("must be less than or equal to previous value"));
        assertTrue(ImmutableFields.refusal(stored, pod("{containers: [{name: c, image: x}]}"))
                .contains("must not update from a positive integer to nil value"));
        assertNull(ImmutableFields.refusal(pod("{containers: [{name: c, image: x}]}"),
                pod("{containers: [{name: c, image: x}], activeDeadlineSeconds: 50}")));
    }

    @Test
    void podImagesMayChangeOtherContainerFieldsMayNot() {
        ObjectNode stored = pod("{containers: [{name: c, image: x}]}");
        assertNull(ImmutableFields.refusal(stored, pod("{containers: [{name: c, image: y}]}")));
        String env = ImmutableFields.refusal(stored, pod("{containers: [{name: c, image: x, env: [{name: A, value: b}]}]}"));
        assertTrue(env.startsWith("Pod \"p\" is invalid: spec: Forbidden: pod updates may not change fields other than"), env);
        assertTrue(env.endsWith("(changed: spec.containers[0].env)"), env);
        assertTrue(ImmutableFields.refusal(stored, pod("{containers: [{name: c, image: x}, {name: d, image: x}]}")) != null,
                "an added container is a spec change");
    }

    @Test
    void aGatedPodMayGainANodeSelector() {
        ObjectNode gated = pod("{schedulingGates: [{name: g}], containers: [{name: c, image: x}]}");
        assertNull(ImmutableFields.refusal(gated, pod("{schedulingGates: [{name: g}], nodeSelector: {zone: a}, containers: [{name: c, image: x}]}")));
        ObjectNode ungated = pod("{containers: [{name: c, image: x}]}");
        assertTrue(ImmutableFields.refusal(ungated, pod("{nodeSelector: {zone: a}, containers: [{name: c, image: x}]}")) != null);
    }

    @Test
    void workloadSelectorsAreImmutableOtherKindsSpecsAreNotJudged() {
        ObjectNode sts = node("apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s, namespace: a}\n"
                + "spec: {serviceName: s, replicas: 1, selector: {matchLabels: {app: s}}}\n");
        ObjectNode renamedService = sts.deepCopy();
        ((ObjectNode) renamedService.get("spec")).put("serviceName", "t");
        assertTrue(ImmutableFields.refusal(sts, renamedService).contains("spec.serviceName: Invalid value: \"t\": field is immutable"));
        ObjectNode scaled = sts.deepCopy();
        ((ObjectNode) scaled.get("spec")).put("replicas", 3);
        assertNull(ImmutableFields.refusal(sts, scaled));

        ObjectNode cm = node("apiVersion: v1\nkind: Service\nmetadata: {name: s, namespace: a}\nspec: {clusterIP: 10.0.0.1}\n");
        ObjectNode moved = cm.deepCopy();
        ((ObjectNode) moved.get("spec")).put("clusterIP", "10.0.0.2");
        assertNull(ImmutableFields.refusal(cm, moved), "a Service's update validation is not modelled: not flagged");
    }
}

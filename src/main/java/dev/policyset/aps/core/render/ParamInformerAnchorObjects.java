package dev.policyset.aps.core.render;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.model.AdmissionKind;

/**
 * The shape of a param-informer anchor, shared by the operator's anchors ({@code core.plan.ParamInformerAnchorWrites})
 * and {@code aps test --server}'s ({@code core.evaluate.suite.ParamInformerAnchors}): a policy of a {@code paramKind}
 * with a binding, that together keep kube-apiserver's informer of that kind running and judge no request
 * (kubernetes/kubernetes#130887). Both match ConfigMap creations only among the objects {@code selector} selects,
 * fail open, and validate {@code true} (or patch nothing). Names and labels are the caller's.
 */
public final class ParamInformerAnchorObjects {
    private ParamInformerAnchorObjects() {
    }

    /** The policy: {@code paramKind} set, matching only what {@code selector} selects. */
    public static ObjectNode policy(AdmissionKind policyKind, String apiVersion, String name, String paramApiVersion,
                                   String paramKind, ObjectNode selector) {
        ObjectNode policy = object(apiVersion, policyKind.kind(), name);
        ObjectNode spec = policy.putObject("spec");
        spec.putObject("paramKind").put("apiVersion", paramApiVersion).put("kind", paramKind);
        ObjectNode constraints = spec.putObject("matchConstraints");
        ObjectNode rule = constraints.putArray("resourceRules").addObject();
        rule.putArray("apiGroups").add("");
        rule.putArray("apiVersions").add("v1");
        rule.putArray("operations").add("CREATE");
        rule.putArray("resources").add("configmaps");
        constraints.set("objectSelector", selector.deepCopy());
        spec.put("failurePolicy", "Ignore");
        if (policyKind == AdmissionKind.VALIDATING_ADMISSION_POLICY) {
            spec.putArray("validations").addObject().put("expression", "true");
        } else {
            spec.put("reinvocationPolicy", "Never");
            ObjectNode mutation = spec.putArray("mutations").addObject();
            mutation.put("patchType", "ApplyConfiguration");
            mutation.putObject("applyConfiguration").put("expression", "Object{}");
        }
        return policy;
    }

    /** Its binding (same name), matching only what {@code selector} selects; Audit only, for a validating one. */
    public static ObjectNode binding(AdmissionKind policyKind, String apiVersion, String name, ObjectNode selector) {
        ObjectNode binding = object(apiVersion, policyKind.kind() + "Binding", name);
        ObjectNode spec = binding.putObject("spec");
        spec.put("policyName", name);
        if (policyKind == AdmissionKind.VALIDATING_ADMISSION_POLICY) {
            spec.putArray("validationActions").add("Audit");
        }
        spec.putObject("matchResources").set("objectSelector", selector.deepCopy());
        return binding;
    }

    private static ObjectNode object(String apiVersion, String kind, String name) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("apiVersion", apiVersion).put("kind", kind);
        o.putObject("metadata").put("name", name);
        return o;
    }
}

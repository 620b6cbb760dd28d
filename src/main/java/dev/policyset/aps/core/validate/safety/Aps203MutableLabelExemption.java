package dev.policyset.aps.core.validate.safety;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.finding.Finding;
import dev.policyset.aps.core.intercept.LabelSelector;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.render.RenderedObject;

import java.util.ArrayList;
import java.util.List;

/**
 * APS203: a validating webhook or policy exempts namespaces or objects through a label that can be changed by
 * whoever writes the namespace or the object: a {@code NotIn} / {@code DoesNotExist} requirement on a namespace
 * label other than {@code kubernetes.io/metadata.name}, or on an object label (objectSelector). Anyone allowed
 * to set that label can switch the check off for themselves.
 *
 * <p>Only enforcing objects are judged (validating webhooks, ValidatingAdmissionPolicies and their bindings):
 * opting out of a mutation (a sidecar injector's {@code inject: "false"}) is the intended use of such labels.
 * Opt-in requirements ({@code In}, {@code Exists}, {@code matchLabels}) scope a check rather than exempt from it.
 */
public final class Aps203MutableLabelExemption implements SafetyRule {
    @Override
    public String id() {
        return "APS203";
    }

    @Override
    public List<Finding> check(SafetyContext context) {
        List<Finding> out = new ArrayList<>();
        for (WebhookRef w : WebhookRef.all(context)) {
            if (!w.mutating()) {
                judge(out, w.id(), w.path(), w.label(), w.hook().get("namespaceSelector"), w.hook().get("objectSelector"));
            }
        }
        for (RenderedObject p : Subjects.ofKind(context, AdmissionKind.VALIDATING_ADMISSION_POLICY)) {
            JsonNode m = p.content().path("matchConstraints");
            judge(out, p.id(), "spec.matchConstraints", "the policy", m.get("namespaceSelector"), m.get("objectSelector"));
        }
        for (RenderedObject b : Subjects.ofKind(context, AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING)) {
            JsonNode m = b.content().path("matchResources");
            judge(out, b.id(), "spec.matchResources", "the binding", m.get("namespaceSelector"), m.get("objectSelector"));
        }
        return out;
    }

    private void judge(List<Finding> out, String object, String path, String label, JsonNode namespaceSelector,
                       JsonNode objectSelector) {
        for (LabelSelector.Requirement r : LabelSelector.read(namespaceSelector).mutableOptOuts()) {
            out.add(Finding.warning(id(), object, path + ".namespaceSelector.matchExpressions[" + r.index() + "]",
                    label + " exempts namespaces by the label " + r.key() + " (" + r.operator() + "): whoever can label a "
                            + "namespace can switch this check off for it. Exempt namespaces by name instead "
                            + "({key: kubernetes.io/metadata.name, operator: NotIn, values: [...]}), or make sure only "
                            + "cluster admins can set " + r.key()));
        }
        for (LabelSelector.Requirement r : LabelSelector.read(objectSelector).mutableOptOuts()) {
            out.add(Finding.warning(id(), object, path + ".objectSelector.matchExpressions[" + r.index() + "]",
                    label + " exempts objects by their own label " + r.key() + " (" + r.operator() + "): whoever creates "
                            + "an object chooses its labels, so anyone can opt out of this check. Exempt by namespace name, "
                            + "or by request.userInfo in a matchCondition"));
        }
    }
}

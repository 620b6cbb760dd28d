package dev.policyset.aps.core.plan;

import com.fasterxml.jackson.databind.JsonNode;
import dev.policyset.aps.core.model.AdmissionKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which writes of a plan must exist before the others can be dry-run: new policies whose bindings use a
 * {@code paramRef}.
 *
 * <p>Why: kube-apiserver authorizes a policy binding's {@code paramRef} against its writer, reading the stored
 * policy to learn its {@code paramKind}: the writer needs {@code get} (a {@code list} for a selector) on that one
 * resource. While the policy does not exist the server cannot narrow the check and asks for the verb on every
 * group, version and resource, which no operator should hold ({@code
 * pkg/registry/admissionregistration/validatingadmissionpolicybinding/authz.go}, and its mutating twin). A dry run
 * does not store the policy, so the dry run of a new set's binding is refused whatever the operator is granted.
 * Creating those policies first changes nothing on the cluster: a policy without a binding is never evaluated.
 * If a later dry run refuses the generation, the operator deletes them again ({@link #rollback}).
 */
public final class ParamPolicyStaging {
    private ParamPolicyStaging() {
    }

    /** The new policies (in apply order) that a written binding with a {@code paramRef} names. */
    public static List<Write> stagedFirst(List<Write> writes) {
        Set<String> named = writes.stream()
                .filter(w -> isBinding(w.kind()) && hasParamRef(w.object()))
                .map(w -> policyOf(w.kind()).kind() + "/" + w.object().path("spec").path("policyName").asText(""))
                .collect(Collectors.toSet());
        return writes.stream()
                .filter(w -> w.action() == Write.Action.CREATE && named.contains(w.id()))
                .toList();
    }

    /** The writes left to dry-run and apply once {@code staged} are applied, in their order. */
    public static List<Write> rest(List<Write> writes, List<Write> staged) {
        return writes.stream().filter(w -> !staged.contains(w)).toList();
    }

    /** Deletes that undo the staged creates when the generation is refused after them. */
    public static List<Removal> rollback(List<Write> staged) {
        List<Removal> removals = new ArrayList<>();
        for (int i = staged.size() - 1; i >= 0; i--) {
            removals.add(new Removal(staged.get(i).kind(), staged.get(i).name()));
        }
        return removals;
    }

    private static boolean isBinding(AdmissionKind kind) {
        return kind == AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING
                || kind == AdmissionKind.MUTATING_ADMISSION_POLICY_BINDING;
    }

    private static AdmissionKind policyOf(AdmissionKind binding) {
        return binding == AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING
                ? AdmissionKind.VALIDATING_ADMISSION_POLICY : AdmissionKind.MUTATING_ADMISSION_POLICY;
    }

    private static boolean hasParamRef(JsonNode object) {
        JsonNode ref = object.path("spec").path("paramRef");
        return ref.isObject() && !ref.isEmpty();
    }
}

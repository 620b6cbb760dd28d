package dev.policyset.aps.core.plan;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.model.AdmissionKind;
import dev.policyset.aps.core.yaml.Yaml;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Which policies the operator creates before its dry run: only new ones that a written binding's paramRef needs the
 * server to read (the server authorizes paramRef against the stored policy's paramKind).
 */
class ParamPolicyStagingTest {
    private static final Write NEW_VAP = write(AdmissionKind.VALIDATING_ADMISSION_POLICY, "limits", Write.Action.CREATE, "{}");
    private static final Write NEW_MAP = write(AdmissionKind.MUTATING_ADMISSION_POLICY, "defaults", Write.Action.CREATE, "{}");
    private static final Write OTHER_VAP = write(AdmissionKind.VALIDATING_ADMISSION_POLICY, "labels", Write.Action.CREATE, "{}");

    @Test
    void aNewPolicyWhoseBindingHasAParamRefIsStagedAndTheRestKeepTheirOrder() {
        Write binding = binding(AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING, "limits", "{name: replica-limits, namespace: default}");
        Write plain = binding(AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING, "labels", null);
        List<Write> writes = List.of(OTHER_VAP, NEW_VAP, plain, binding);

        List<Write> staged = ParamPolicyStaging.stagedFirst(writes);

        assertEquals(List.of(NEW_VAP), staged);
        assertEquals(List.of(OTHER_VAP, plain, binding), ParamPolicyStaging.rest(writes, staged));
        assertEquals(List.of(new Removal(AdmissionKind.VALIDATING_ADMISSION_POLICY, "limits")), ParamPolicyStaging.rollback(staged));
    }

    @Test
    void mutatingBindingsNameMutatingPoliciesAndASelectorCountsAsAParamRef() {
        Write binding = binding(AdmissionKind.MUTATING_ADMISSION_POLICY_BINDING, "defaults", "{selector: {}}");
        Write vapNamedAlike = write(AdmissionKind.VALIDATING_ADMISSION_POLICY, "defaults", Write.Action.CREATE, "{}");

        assertEquals(List.of(NEW_MAP), ParamPolicyStaging.stagedFirst(List.of(vapNamedAlike, NEW_MAP, binding)));
    }

    @Test
    void nothingIsStagedWhenThePolicyExistsOrNoBindingUsesParams() {
        Write updated = write(AdmissionKind.VALIDATING_ADMISSION_POLICY, "limits", Write.Action.UPDATE, "{}");
        Write binding = binding(AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING, "limits", "{name: replica-limits, namespace: default}");
        Write plain = binding(AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING, "limits", null);

        assertEquals(List.of(), ParamPolicyStaging.stagedFirst(List.of(updated, binding)), "the server reads the stored policy");
        assertEquals(List.of(), ParamPolicyStaging.stagedFirst(List.of(NEW_VAP, plain)), "no paramRef, no authorization");
        assertEquals(List.of(), ParamPolicyStaging.stagedFirst(List.of(NEW_VAP)), "no binding written");
    }

    private static Write binding(AdmissionKind kind, String policy, String paramRef) {
        String spec = "{policyName: " + policy + (paramRef == null ? "" : ", paramRef: " + paramRef) + "}";
        return write(kind, policy + "-binding", Write.Action.CREATE, spec);
    }

    private static Write write(AdmissionKind kind, String name, Write.Action action, String spec) {
        ObjectNode object;
        try {
            object = (ObjectNode) Yaml.parse("test", "{metadata: {name: " + name + "}, spec: " + spec + "}").get(0).content();
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
        return new Write(kind, AdmissionKind.GROUP + "/v1", name, object, action);
    }
}

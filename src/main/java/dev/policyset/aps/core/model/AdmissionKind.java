package dev.policyset.aps.core.model;

import java.util.Arrays;
import java.util.Optional;

/**
 * The six admission-registration kinds the operator generates, in apply order: each policy before the
 * bindings that name it, and policies before webhooks (removal runs in reverse).
 */
public enum AdmissionKind {
    VALIDATING_ADMISSION_POLICY("ValidatingAdmissionPolicy", "validatingadmissionpolicies", true),
    VALIDATING_ADMISSION_POLICY_BINDING("ValidatingAdmissionPolicyBinding", "validatingadmissionpolicybindings", true),
    MUTATING_ADMISSION_POLICY("MutatingAdmissionPolicy", "mutatingadmissionpolicies", true),
    MUTATING_ADMISSION_POLICY_BINDING("MutatingAdmissionPolicyBinding", "mutatingadmissionpolicybindings", true),
    VALIDATING_WEBHOOK_CONFIGURATION("ValidatingWebhookConfiguration", "validatingwebhookconfigurations", false),
    MUTATING_WEBHOOK_CONFIGURATION("MutatingWebhookConfiguration", "mutatingwebhookconfigurations", false);

    public static final String GROUP = "admissionregistration.k8s.io";

    private final String kind;
    private final String plural;
    private final boolean hasSpec;

    AdmissionKind(String kind, String plural, boolean hasSpec) {
        this.kind = kind;
        this.plural = plural;
        this.hasSpec = hasSpec;
    }

    public String kind() {
        return kind;
    }

    public String plural() {
        return plural;
    }

    /** Webhook configurations keep their content in {@code webhooks}, not {@code spec}. */
    public boolean hasSpec() {
        return hasSpec;
    }

    public boolean isMutatingPolicyKind() {
        return this == MUTATING_ADMISSION_POLICY || this == MUTATING_ADMISSION_POLICY_BINDING;
    }

    public static Optional<AdmissionKind> fromKind(String kind) {
        return Arrays.stream(values()).filter(k -> k.kind.equals(kind)).findFirst();
    }
}

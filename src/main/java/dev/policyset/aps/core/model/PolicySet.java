package dev.policyset.aps.core.model;

import java.util.List;

/**
 * An AdmissionPolicySet as the core sees it: its spec read into members, with the set-level defaults
 * resolved. Members keep the native specs as JSON trees, verbatim, so that a wrong type or an unknown
 * field reaches the validator with its path instead of failing deserialization.
 */
public record PolicySet(String name, SetDefaults defaults, SafetySettings safety,
                        List<PolicyMember> validatingPolicies, List<PolicyMember> mutatingPolicies,
                        List<WebhookMember> validatingWebhooks, List<WebhookMember> mutatingWebhooks,
                        boolean prune, DeletionPolicy deletionPolicy, boolean paused) {
    public enum DeletionPolicy { DELETE, ORPHAN }

    public PolicySet {
        validatingPolicies = List.copyOf(validatingPolicies);
        mutatingPolicies = List.copyOf(mutatingPolicies);
        validatingWebhooks = List.copyOf(validatingWebhooks);
        mutatingWebhooks = List.copyOf(mutatingWebhooks);
    }
}

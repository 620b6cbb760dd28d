package dev.policyset.aps.api.v1alpha1;

/** What a ValidatingAdmissionPolicyBinding does with a failed validation. */
public enum ValidationAction {
    Deny, Warn, Audit
}

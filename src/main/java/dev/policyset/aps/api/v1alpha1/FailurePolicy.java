package dev.policyset.aps.api.v1alpha1;

/** Whether a failure to call a webhook or evaluate a policy rejects (Fail) or admits (Ignore) the request. */
public enum FailurePolicy {
    Fail, Ignore
}

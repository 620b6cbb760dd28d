package dev.policyset.aps.core.model;

import java.util.List;

/**
 * {@code spec.defaults} after the set's own defaults are applied: what a member gets where it sets nothing.
 * A field the set leaves out takes the value the API server would default to (failurePolicy Fail,
 * timeoutSeconds 10, validationActions [Deny]), and excludedNamespaces keeps the control plane's own
 * namespaces out of every generated object unless the set says {@code []}.
 */
public record SetDefaults(String failurePolicy, List<String> validationActions, int webhookTimeoutSeconds,
                          List<String> excludedNamespaces) {
    public static final String FAILURE_POLICY = "Fail";
    public static final List<String> VALIDATION_ACTIONS = List.of("Deny");
    public static final int WEBHOOK_TIMEOUT_SECONDS = 10;
    public static final List<String> EXCLUDED_NAMESPACES = List.of("kube-system", "kube-node-lease");

    public static final SetDefaults NONE_SET =
            new SetDefaults(FAILURE_POLICY, VALIDATION_ACTIONS, WEBHOOK_TIMEOUT_SECONDS, EXCLUDED_NAMESPACES);

    public SetDefaults {
        validationActions = List.copyOf(validationActions);
        excludedNamespaces = List.copyOf(excludedNamespaces);
    }
}

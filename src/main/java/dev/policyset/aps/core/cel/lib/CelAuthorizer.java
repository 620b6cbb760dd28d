package dev.policyset.aps.core.cel.lib;

import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;

/**
 * What the {@code authorizer} variable asks: a pure stand-in for the API server's authorizer, so the
 * authz library can be evaluated offline ({@code aps test}, the cel-eval suite). The environment declares
 * {@code authorizer} as {@link #AUTHORIZER_TYPE} and {@code authorizer.requestResource} as
 * {@link #RESOURCE_CHECK_TYPE}; the authz library declares its functions on the same types and turns a
 * {@code CelAuthorizer} into runtime values through {@link AuthorizerValues}.
 */
@FunctionalInterface
public interface CelAuthorizer {
    /** {@code kubernetes.authorization.Authorizer}, the type of {@code authorizer}. */
    CelType AUTHORIZER_TYPE = OpaqueType.create("kubernetes.authorization.Authorizer");
    /** {@code kubernetes.authorization.ResourceCheck}, the type of {@code authorizer.requestResource}. */
    CelType RESOURCE_CHECK_TYPE = OpaqueType.create("kubernetes.authorization.ResourceCheck");

    Decision authorize(Attributes attributes);

    /**
     * One authorization check. Attributes the check did not set are empty strings (never null);
     * {@code path} is set for path checks, the resource fields for resource checks.
     */
    record Attributes(String user, String verb, String path, String group, String resource, String subresource,
                      String namespace, String name, String fieldSelector, String labelSelector) {
    }

    /** The answer: {@code allowed} for allow, {@code reason} may be empty, {@code error} null unless it errored. */
    record Decision(Kind kind, String reason, String error) {
        public enum Kind { ALLOW, DENY, NO_OPINION }
    }

    /** Denies everything with no reason: what evaluating without an authorizer means. */
    CelAuthorizer DENY_ALL = attributes -> new Decision(Decision.Kind.DENY, "", null);

    /**
     * No {@code authorizer} value at all, although the environment declares it: the expressions (and the variables
     * they read) of a ValidatingAdmissionPolicy's messageExpressions and auditAnnotations. Upstream's validator
     * evaluates those with {@code cel.OptionalVariableBindings} that carry no Authorizer (k8s.io/apiserver
     * pkg/admission/plugin/policy/validating/validator.go: {@code expressionOptionalVars} and the audit annotations'
     * {@code options}), so a variable that calls {@code authorizer} fails there while it works in the validations.
     */
    CelAuthorizer UNBOUND = attributes -> {
        throw new IllegalStateException("authorizer is not bound in this evaluation");
    };
}

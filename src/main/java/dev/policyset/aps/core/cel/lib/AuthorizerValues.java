package dev.policyset.aps.core.cel.lib;

/**
 * Makes the runtime values of {@code authorizer} and {@code authorizer.requestResource} for one
 * evaluation. Implemented by the authz library; {@link KubernetesLibraries#authorizerValues()} returns it.
 */
public interface AuthorizerValues {
    /** The value of {@code authorizer} for a request made by {@code username}. */
    Object authorizer(CelAuthorizer authorizer, String username);

    /**
     * The value of {@code authorizer.requestResource}: a resource check for the request's own resource
     * (group, resource, subresource, namespace, name; empty strings when absent).
     */
    Object requestResource(CelAuthorizer authorizer, String username, String group, String resource,
                           String subresource, String namespace, String name);
}

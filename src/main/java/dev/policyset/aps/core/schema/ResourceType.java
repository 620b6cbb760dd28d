package dev.policyset.aps.core.schema;

/**
 * A resource a schema source knows: its kind, the plural resource name rules match on, and its scope.
 *
 * @param namespaced true for namespaced resources, false for cluster-scoped ones
 */
public record ResourceType(GroupVersionKind gvk, String plural, boolean namespaced) {
}
